import GridLayout

/// Writing text byte by byte into memory sized in advance, for the formats gridstore writes
/// by the thousand (placement chunks, history deltas): no intermediate strings.
extension UnsafeMutablePointer<UInt8> {
    /// Stores `byte` and moves past it.
    @inline(__always)
    mutating func write(_ byte: UInt8) {
        pointee = byte
        self += 1
    }

    /// Stores `bytes` and moves past them.
    @inline(__always)
    mutating func write(_ bytes: StaticString) {
        update(from: bytes.utf8Start, count: bytes.utf8CodeUnitCount)
        self += bytes.utf8CodeUnitCount
    }

    /// Stores `,"small"`, `,"middle"` or `,"big"` and moves past it.
    @inline(__always)
    mutating func writeName(of size: TileSize) {
        // A write per case: each copies a length known when compiling, so no memcpy is called.
        switch size {
        case .small: write(",\"small\"")
        case .middle: write(",\"middle\"")
        case .big: write(",\"big\"")
        }
    }

    /// Stores `,"small"`, `,"middle"`, `,"big"` or `,null` and moves past it.
    @inline(__always)
    mutating func writeOptionalName(of size: TileSize?) {
        if let size { writeName(of: size) } else { write(",null") }
    }

    /// Stores the decimal digits of a non-negative `value` and moves past them.
    @inline(__always)
    mutating func writeDecimal(_ value: Int) {
        if value < 10 {
            write(UInt8(truncatingIfNeeded: value) &+ 48)
            return
        }
        var count = 2
        var threshold = 100
        // Int.max has 19 digits; the last multiplication may wrap, but the loop ends first.
        while count < 19 && value >= threshold {
            count &+= 1
            threshold &*= 10
        }
        var remaining = value
        var position = self + count
        while position > self {
            position -= 1
            position.pointee = UInt8(truncatingIfNeeded: remaining % 10) &+ 48
            remaining /= 10
        }
        self += count
    }
}
