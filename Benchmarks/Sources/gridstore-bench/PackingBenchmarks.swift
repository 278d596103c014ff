import GridLayout
import SeededRandom

/// Dense packing against the naive baseline, time per tile, peak memory and incremental re-packing.
enum PackingBenchmarks {
    static func randomSpans(_ count: Int, seed: UInt64) -> [TileSpan] {
        var generator = SeededGenerator(seed: seed)
        let spans = TileSpans.standard
        return (0..<count).map { _ in spans[TileSize.allCases[Int(generator.next() % 3)]] }
    }

    static func pack(_ spans: [TileSpan]) -> Int {
        var packer = TilePacker(columns: 6)
        packer.append(contentsOf: spans)
        return packer.extent
    }

    static func run() -> String {
        var table = Table("Dense packing, 6 columns, equal mix of small, middle and big (release build, median)",
                          headers: ["tiles", "runs", "median ms", "ns per tile", "naive ms", "speed-up"])
        let reference = randomSpans(1_000, seed: 1_000)
        let fromTop = Measurement.medianMilliseconds(runs: 3, warmup: 0) { NaivePacker.packFromTop(reference, columns: 6).count }
        var perTile: [Int: Double] = [:]
        for (count, runs) in [(1_000, 301), (10_000, 101), (100_000, 21), (1_000_000, 11)] {
            let spans = randomSpans(count, seed: UInt64(count))
            let milliseconds = Measurement.medianMilliseconds(runs: runs) { pack(spans) }
            perTile[count] = milliseconds * 1e6 / Double(count)
            var naive = "", ratio = ""
            if count <= 10_000 {
                let naiveMilliseconds = Measurement.medianMilliseconds(runs: count == 1_000 ? 11 : 3, warmup: 0) {
                    NaivePacker.pack(spans, columns: 6).count
                }
                naive = format(naiveMilliseconds)
                ratio = format(naiveMilliseconds / milliseconds, decimals: 0) + "x"
            }
            table.add([String(count), String(runs), format(milliseconds, decimals: 3), format(perTile[count]!, decimals: 1), naive, ratio])
        }
        var text = table.render()
        text += "\nnaive: each candidate tested against every placed tile, searching from the first row with a free cell (O(n²)).\n"
        text += "searching from the top for every tile instead (O(n³)) takes \(format(fromTop)) ms for 1,000 tiles.\n"

        let flatness = perTile[1_000_000]! / perTile[10_000]!
        text += "\ntime per tile, 1,000,000 vs 10,000: \(format(flatness))x (target: within 1.5x)\n"

        // Re-packing after toggling the last of 100,000 tiles.
        let spans = randomSpans(100_000, seed: 7)
        var packer = TilePacker(columns: 6)
        packer.append(contentsOf: spans)
        let sizes = TileSpans.standard
        var current = spans[spans.count - 1]
        let toggle = Measurement.medianOfSelfTimed(runs: 1001) {
            let next = current == sizes.small ? sizes.middle : current == sizes.middle ? sizes.big : sizes.small
            let elapsed = ContinuousClock().measure { packer.setSpan(next, at: spans.count - 1) }
            current = next
            return Measurement.milliseconds(elapsed)
        }
        let full = Measurement.medianMilliseconds(runs: 21) { pack(spans) }
        text += "incremental re-pack after toggling the last of 100,000 tiles: \(format(toggle * 1000, decimals: 2)) µs median "
            + "(full re-pack: \(format(full, decimals: 2)) ms; target: under 1 ms)\n"
        return text
    }

    /// Packs `count` tiles in this process and reports its peak memory; run in a child process.
    static func peakMemory(count: Int) -> String {
        let before = Measurement.residentMiB()
        let spans = randomSpans(count, seed: 1)
        var packer = TilePacker(columns: 6)
        packer.append(contentsOf: spans)
        Measurement.sink &+= packer.extent
        return "\(format(Measurement.peakResidentMiB())) \(format(before))"
    }
}
