extension MergeRegister {
    /// Hands `old`'s writes made after `time` to `new`: the same values at the same times, as
    /// another replica's; `old` is then known up to `time` at most.
    mutating func handOver(from old: ReplicaID, after time: HybridTime, to new: ReplicaID) {
        guard let known = context.first(where: { $0.replica == old }), known.time > time else { return }
        let handed = heads.map { head in
            guard head.stamp.replica == old, head.stamp.time > time else { return head }
            return Write(value: head.value, stamp: SyncStamp(time: head.stamp.time, replica: new))
        }
        var entries = context.filter { $0.replica != old && $0.replica != new }
        if time > .zero { entries.append((old, time)) }
        entries.append((new, max(known.time, context.first { $0.replica == new }?.time ?? .zero)))
        self = MergeRegister(heads: handed, context: entries.filter { entry in !handed.contains { $0.stamp.replica == entry.replica } })
    }
}

extension ReplicatedGrid {
    /// Hands `old`'s writes made after `time` to the replica `new` (see
    /// ``MergeRegister/handOver(from:after:to:)``), and what is known of `old` back to `time`:
    /// the writes a database restored from a backup made as its replica after the backup's last
    /// sync become another replica's, and a peer sends the ones it lost.
    mutating func handOver(from old: ReplicaID, after time: HybridTime, to new: ReplicaID) {
        func visit<Value>(_ register: inout MergeRegister<Value>) { register.handOver(from: old, after: time, to: new) }
        visit(&options.columns); visit(&options.direction); visit(&options.defaultSize); visit(&options.honeycomb)
        for id in sections.keys { visit(&sections[id]!.order); visit(&sections[id]!.alive) }
        for id in items.keys { visit(&items[id]!.place); visit(&items[id]!.size); visit(&items[id]!.key); visit(&items[id]!.alive) }
        // A name is its replica's own: one `old` wrote after `time` never left, and the new
        // replica writes its own.
        if let name = names[old], name.latestTime > time { names[old] = nil }
        let latest = versions[old]
        guard latest > time else { return }
        var entries = versions.entries
        entries[old] = time
        versions = VersionVector(entries)
        versions.advance(new, to: latest)
    }
}
