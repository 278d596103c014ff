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
        var plist = Table("Time per MB of a property-list string as it grows tenfold (import-defaults, median of 3)",
                          headers: ["command", "5 MB ms/MB", "50 MB ms/MB", "ratio"])
        var perMegabyte: [Double] = []
        for megabytes in [5, 50] {
            let file = scratch.file("big-\(megabytes).plist")
            let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>r:0_s:0_grid_item_size</key>"
                + "<string>grid_size_big</string><key>notes</key><string>" + String(repeating: "x", count: megabytes << 20)
                + "</string></dict></plist>\n"
            _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
            let milliseconds = ProcessBenchmarks.medianWallTime(runs: 3) { _ in
                (gridstore, ["--db", scratch.file("plist.sqlite"), "import-defaults", file])
            }
            perMegabyte.append(milliseconds / Double(megabytes))
        }
        plist.add(["import-defaults", format(perMegabyte[0], decimals: 1), format(perMegabyte[1], decimals: 1),
                   format(perMegabyte[1] / perMegabyte[0], decimals: 2) + "x"])
        return table.render() + plist.render() + "\ntarget: ratios near 1 (linear); 10x would mean quadratic.\n"
    }
}
