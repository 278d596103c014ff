import GridLayout
import GridStore
import GridStoreSQLite
import GridStoreAudit
import GridStoreCLIClient

/// How long `gridstore edit` takes from a key press to the next screen, on large grids.
enum EditorBenchmarks {
    static func run() throws -> String {
        let scratch = try ScratchDirectory()
        var table = Table("gridstore edit: a key press handled and the 80x24 screen drawn (release build, median)",
                          headers: ["items", "focus move ms", "toggle shown ms", "toggle committed after ms", "carry a tile ms"])
        for count in [10_000, 100_000] {
            let grid = try RepositoryBenchmarks.makeGrid(count, in: scratch, name: "editor-\(count)")
            let model = try EditorModel(grid: grid)
            let keys: [EditorKey] = [.right, .down, .left, .down]
            var index = 0
            let move = Measurement.medianMilliseconds(runs: 201) {
                _ = model.handle(keys[index % keys.count])
                index += 1
                return model.render(columns: 80, lines: 24).encoded(useColor: true).count
            }
            var shown: [Double] = [], commits: [Double] = []
            for _ in 0..<102 {
                let pressed = ContinuousClock.now
                _ = model.handle(.space)
                Measurement.sink &+= model.render(columns: 80, lines: 24).encoded(useColor: true).count
                let drawn = ContinuousClock.now
                _ = try model.commitPending()
                shown.append(Measurement.milliseconds(drawn - pressed))
                commits.append(Measurement.milliseconds(ContinuousClock.now - drawn))
            }
            let toggle = Measurement.median(Array(shown.dropFirst(2)))
            _ = model.handle(.character("m"))
            let carry = Measurement.medianMilliseconds(runs: 101) {
                _ = model.handle(index % 2 == 0 ? .right : .left)
                index += 1
                return model.render(columns: 80, lines: 24).encoded(useColor: true).count
            }
            _ = model.handle(.escape)
            table.add([String(count), format(move, decimals: 3), format(toggle, decimals: 3),
                       format(Measurement.median(Array(commits.dropFirst(2))), decimals: 3), format(carry, decimals: 3)])
        }
        return table.render() + "\ngoal: a key press redraws in under 16 ms at 100,000 items.\n"
    }
}
