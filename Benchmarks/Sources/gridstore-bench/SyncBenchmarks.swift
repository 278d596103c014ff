import GridLayout
import GridStore
import GridStoreSQLite
import SeededRandom

/// Sync between two SQLite files of one 10,000-item grid: changes merged per second, bytes a
/// change takes in a bundle, a sync with nothing new, and a sync after offline changes on both sides.
enum SyncBenchmarks {
    static let itemCount = 10_000

    static func run() throws -> String {
        let scratch = try ScratchDirectory()
        let phone = try GridDatabase(path: scratch.file("sync-phone.sqlite"))
        let tablet = try GridDatabase(path: scratch.file("sync-tablet.sqlite"))
        let onPhone = try Grid.create(named: "synced", in: phone, content: GridContent(columns: 6, sections: [
            RepositoryBenchmarks.randomSizes(itemCount, seed: 36).map { Optional($0) },
        ]))
        _ = try phone.sync(with: tablet, grids: ["synced"])
        let onTablet = try Grid(named: "synced", in: tablet, creatingWith: nil)
        var generator = SeededGenerator(seed: 37)
        var table = Table("Sync of a \(itemCount)-item grid between two SQLite files (in process, committed; release build, median)",
                          headers: ["what", "runs", "median ms", "changes", "per change"])

        // Bundles of every size changed, merged on the other side: decoding, merging, packing, writing.
        var mergeSamples: [Double] = [], bytesPerChange: [Double] = [], changes = 0
        for _ in 0..<5 {
            let sizes = (0..<itemCount).map { (GridIndexPath(item: $0), Optional([TileSize.small, .middle, .big][Int(generator.next() % 3)])) }
            try onPhone.update { try $0.setSizes(sizes) }
            let bundle = try onPhone.syncBundle(since: onTablet.syncCursor())
            let bytes = bundle.encoded()
            changes = bundle.changeCount
            bytesPerChange.append(Double(bytes.count) / Double(max(1, changes)))
            mergeSamples.append(try RepositoryBenchmarks.timed { try onTablet.applySyncBundle(bytes) })
        }
        let merge = Measurement.median(mergeSamples)
        table.add(["apply a bundle of every size changed", "5", format(merge, decimals: 1), String(changes),
                   "\(format(merge * 1_000 / Double(max(1, changes)), decimals: 2)) µs, \(Int(Double(changes) / merge * 1_000)) changes/s"])
        _ = try phone.sync(with: tablet)

        // A bundle of 1,000 toggles: what a change costs on the wire.
        for _ in 0..<1_000 { try onPhone.toggle(at: GridIndexPath(item: Int(generator.next() % UInt64(itemCount)))) }
        let small = try onPhone.syncBundle(since: onTablet.syncCursor())
        let smallBytes = small.encoded().count
        table.add(["bundle of 1,000 toggles (\(small.changeCount) sizes)", "1", "-", String(small.changeCount),
                   "\(smallBytes / max(1, small.changeCount)) bytes"])
        _ = try phone.sync(with: tablet)

        // Reading a grid's sync state: its registers decoded and laid out.
        let read = try Measurement.medianOfSelfTimed(runs: 11) { try RepositoryBenchmarks.timed { try onPhone.syncConflicts() } }
        table.add(["read the sync state (conflicts)", "11", format(read, decimals: 1), "-", "-"])

        // Nothing new on either side.
        let idle = try Measurement.medianOfSelfTimed(runs: 101) { try RepositoryBenchmarks.timed { try phone.sync(with: tablet) } }
        table.add(["sync with nothing new", "101", format(idle, decimals: 3), "0", "-"])

        // 1,000 offline changes on each side, then one sync.
        var offlineSamples: [Double] = []
        for _ in 0..<5 {
            for _ in 0..<1_000 {
                try onPhone.toggle(at: GridIndexPath(item: Int(generator.next() % UInt64(itemCount))))
                try onTablet.toggle(at: GridIndexPath(item: Int(generator.next() % UInt64(itemCount))))
            }
            offlineSamples.append(try RepositoryBenchmarks.timed { try phone.sync(with: tablet) })
        }
        table.add(["sync after 1,000 toggles on each side", "5", format(Measurement.median(offlineSamples), decimals: 1), "2,000", "-"])
        let check = try onPhone.storedSnapshot().content == onTablet.storedSnapshot().content ? "equal" : "DIFFERENT"
        return table.render()
            + "goals: at least 50,000 changes merged a second; at most 16 bytes a change in a bundle (format 2) (\(format(Measurement.median(bytesPerChange), decimals: 1)) "
            + "for every size changed); a sync with nothing new at most 1 ms. After the syncs the two grids are \(check).\n"
    }
}
