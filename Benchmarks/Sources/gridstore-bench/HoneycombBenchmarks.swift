import GridLayout

/// Honeycomb frames for a million items, and the items in a screen-sized rectangle.
enum HoneycombBenchmarks {
    static func run() throws -> String {
        let count = 1_000_000
        let layout = HoneycombLayout(itemCount: count, configuration: try HoneycombConfiguration(elementWidth: 60, itemSpacing: 6))
        var table = Table("Honeycomb with \(count) items (elementWidth 60, spacing 6; release build, median)",
                          headers: ["operation", "runs", "median ms"])
        let frames = Measurement.medianMilliseconds(runs: 11) { layout.frames().count }
        table.add(["frames of every item", "11", format(frames)])

        // A phone-sized viewport in the middle of the content.
        let screen = LayoutRect(x: layout.contentSize.width / 2 - 195, y: layout.contentSize.height / 2 - 422, width: 390, height: 844)
        let query = Measurement.medianOfSelfTimed(runs: 1001) {
            var found = 0
            let elapsed = ContinuousClock().measure { found = layout.items(in: screen).count }
            Measurement.sink &+= found
            return Measurement.milliseconds(elapsed)
        }
        let all = layout.frames()
        let scan = Measurement.medianMilliseconds(runs: 21) { all.indices.filter { all[$0].intersects(screen) }.count }
        let computedScan = Measurement.medianMilliseconds(runs: 11) {
            (0..<count).filter { layout.frame(ofItem: $0).intersects(screen) }.count
        }
        let visible = layout.items(in: screen).count
        table.add(["items(in:) a 390x844 rectangle (\(visible) items)", "1001", format(query, decimals: 4)])
        table.add(["full scan of precomputed frames", "21", format(scan)])
        table.add(["full scan computing each frame", "11", format(computedScan)])
        var text = table.render()
        text += "\nitems(in:) is \(format(scan / query, decimals: 0))x faster than scanning precomputed frames, "
            + "\(format(computedScan / query, decimals: 0))x faster than computing and testing every frame.\n"
        return text
    }
}
