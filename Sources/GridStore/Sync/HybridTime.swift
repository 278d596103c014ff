/// A hybrid logical clock's reading: milliseconds since 1970 in the high 48 bits, a counter
/// in the low 16 that orders readings within one millisecond.
///
/// A replica's clock never goes back, and after it has seen a change it reads later than that
/// change, unless the change was stamped by a clock more than ``HybridClock/maximumDrift`` ahead
/// of its own; a change made after seeing another replaces it through the register's context,
/// whatever the two stamps say.
struct HybridTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    let rawValue: Int64

    init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// The first reading of a clock at `milliseconds` since 1970.
    init(milliseconds: Int64) {
        rawValue = milliseconds << 16
    }

    /// No time: before every change. A cursor with no entry for a replica has seen none of its changes.
    static let zero = HybridTime(rawValue: 0)

    /// The time of the values a grid had before it first took part in sync that a new grid
    /// has too (an item where a new grid has it): before any change made since, so every
    /// later change wins over them.
    static let origin = HybridTime(rawValue: 1)

    /// The time of the values a grid had before it first took part in sync that a new grid
    /// would not have (an item moved, inserted or given a key): after ``origin``, so where two
    /// replicas' grids began apart, the one that was changed wins over one that was not.
    static let changedOrigin = HybridTime(rawValue: 2)

    /// The wall-clock part.
    var milliseconds: Int64 { rawValue >> 16 }

    /// The reading just after this one.
    var successor: HybridTime { HybridTime(rawValue: rawValue == .max ? rawValue : rawValue + 1) }

    static func < (lhs: HybridTime, rhs: HybridTime) -> Bool { lhs.rawValue < rhs.rawValue }

    var description: String { "\(rawValue)" }
}

/// One change's place in the order every replica agrees on: its hybrid time, then its
/// replica's id, so two changes made in one millisecond on two replicas are ordered the same
/// way everywhere (never "my own side wins").
struct SyncStamp: Hashable, Comparable, Sendable {
    var time: HybridTime
    var replica: ReplicaID

    static func < (lhs: SyncStamp, rhs: SyncStamp) -> Bool {
        (lhs.time, lhs.replica) < (rhs.time, rhs.replica)
    }
}

/// A replica's hybrid logical clock.
struct HybridClock: Sendable, Equatable {
    /// How far ahead of a database's clock the changes a replica sends it of its own may be:
    /// five minutes. A bundle with a later one is refused whole, so a device whose clock is fast
    /// cannot make its changes win for longer than that where a correct clock judges them.
    static let maximumDrift: Int64 = 5 * 60 * 1000

    /// The latest reading given out or seen.
    private(set) var latest: HybridTime

    init(latest: HybridTime = .zero) {
        self.latest = latest
    }

    /// A reading for a change made now: after the wall clock and after every reading before.
    mutating func tick(now milliseconds: Int64) -> HybridTime {
        latest = max(HybridTime(milliseconds: milliseconds), latest.successor)
        return latest
    }

    /// Moves the clock past a change seen from another replica, as a hybrid logical clock does,
    /// unless the change is stamped further ahead of `now` than ``maximumDrift``: a clock that
    /// was that fast moves no other (a change made after seeing such a change replaces it all
    /// the same, through the register's context; only a concurrent one may lose to it).
    mutating func observe(_ time: HybridTime, now milliseconds: Int64) {
        guard !Self.isTooFarAhead(time, now: milliseconds) else { return }
        latest = max(latest, time)
    }

    /// Whether a change at `time` is further ahead of the wall clock `now` than replicas accept.
    static func isTooFarAhead(_ time: HybridTime, now milliseconds: Int64) -> Bool {
        time.milliseconds > milliseconds + maximumDrift
    }
}
