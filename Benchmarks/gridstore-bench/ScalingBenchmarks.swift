import Foundation

/// Work proportional to input: the same command on inputs ten times apart must take about ten
/// times as long, never a hundred (a drawing once copied itself per section, and a 10,000-section
/// grid took minutes).
enum ScalingBenchmarks {
    static func run() throws -> String {
        let scratch = try ScratchDirectory()
        let gridstore = ProcessBenchmarks.siblingExecutable("gridstore")
        var table = Table("Time per section as sections grow tenfold (release build, median of 5, as processes)",
                          headers: ["command", "1,000 sections µs/section", "10,000 sections µs/section", "ratio"])
        for (name, arguments) in [("init --items 10", ["init", "--items", "10"]), ("toggle (draws every section)", ["toggle", "1"]),
                                  ("show", ["show"]), ("export", ["export"])] {
            var perSection: [Double] = []
            for sections in [1_000, 10_000] {
                let path = scratch.file("scaling-\(sections).sqlite")
                if name != "init --items 10" {
                    _ = ChildProcess.run(gridstore, ["--db", path, "init", "--force", "--items", "10", "--sections", String(sections)],
                                         captureOutput: false)
                }
                let milliseconds = ProcessBenchmarks.medianWallTime(runs: 5) { _ in
                    let extra = name == "init --items 10" ? ["--force", "--sections", String(sections)] : []
                    return (gridstore, ["--db", path] + arguments + extra)
                }
                perSection.append(milliseconds * 1_000 / Double(sections))
            }
            table.add([name, format(perSection[0], decimals: 1), format(perSection[1], decimals: 1),
                       format(perSection[1] / perSection[0], decimals: 2) + "x"])
        }
        return table.render() + "\ntarget: a ratio near 1 (linear); 10x would mean quadratic.\n"
    }
}
