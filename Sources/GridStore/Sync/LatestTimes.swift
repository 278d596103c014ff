/// For each replica, the latest time of its writes among registers and versions, collected one
/// register at a time (``ReplicatedGrid/latestTimes()``, ``SortedDelta/latestTimes()``).
struct LatestTimes {
    private var latest: [ReplicaID: HybridTime]
    /// Registers one replica wrote follow each other (most of a state, or of a bundle): the
    /// latest time of the current run of one replica's entries is kept here, and the
    /// dictionary is read and written once a run, not once an entry.
    private var run: (replica: ReplicaID, time: HybridTime)?

    /// Starting from the times of `versions`.
    init(_ versions: VersionVector) {
        latest = versions.entries
    }

    /// The times collected.
    var times: [ReplicaID: HybridTime] {
        var latest = latest
        if let run, run.time > latest[run.replica] ?? .zero { latest[run.replica] = run.time }
        return latest
    }

    mutating func collect<Value>(_ register: MergeRegister<Value>) {
        for entry in register.context { collect(entry.replica, entry.time) }
    }

    mutating func collect(_ replica: ReplicaID, _ time: HybridTime) {
        if let current = run, current.replica == replica {
            if time > current.time { run = (replica, time) }
        } else {
            if let run, run.time > latest[run.replica] ?? .zero { latest[run.replica] = run.time }
            run = (replica, time)
        }
    }

    mutating func collect(_ options: ReplicatedGrid.Options) {
        collect(options.columns)
        collect(options.direction)
        collect(options.defaultSize)
        collect(options.honeycomb)
    }

    mutating func collect(_ item: ReplicatedGrid.Item) {
        collect(item.place)
        collect(item.size)
        collect(item.key)
        collect(item.alive)
    }
}
