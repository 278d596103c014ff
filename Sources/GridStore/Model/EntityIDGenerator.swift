/// Random ids for replicas, items and sections: SplitMix64 from a seed the system's generator
/// gives.
///
/// Not `SystemRandomNumberGenerator` itself, passed `inout`: a value of no size has one address
/// for every variable, and ThreadSanitizer takes two threads' accesses to theirs for a race.
struct EntityIDGenerator: RandomNumberGenerator {
    private var state: UInt64

    init() {
        // The standard library's own generator, used inside the standard library.
        state = UInt64.random(in: .min ... .max)
    }

    /// A generator whose ids follow from `bytes`: two databases that record one change (a copy
    /// of a file and its original) give its new items the same ids, so they meet as one.
    init(derivedFrom bytes: some Sequence<UInt8>) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        state = hash
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
