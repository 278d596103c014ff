#if canImport(Glibc)
import Glibc
#endif

/// Runs a piece of work several times and keeps the median, which noisy machines
/// disturb far less than the mean.
enum Measurement {
    /// Results are folded in here so the optimizer cannot drop the measured work.
    nonisolated(unsafe) static var sink = 0

    /// The median wall time of `runs` runs of `body`, in milliseconds, after `warmup` unmeasured runs.
    static func medianMilliseconds(runs: Int, warmup: Int = 1, _ body: () -> Int) -> Double {
        for _ in 0..<warmup { sink &+= body() }
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        let clock = ContinuousClock()
        for _ in 0..<runs {
            var result = 0
            let elapsed = clock.measure { result = body() }
            sink &+= result
            samples.append(milliseconds(elapsed))
        }
        return median(samples)
    }

    /// The median wall time of `runs` runs, where `body` measures its own part and returns it in milliseconds.
    static func medianOfSelfTimed(runs: Int, warmup: Int = 1, _ body: () throws -> Double) rethrows -> Double {
        for _ in 0..<warmup { _ = try body() }
        var samples: [Double] = []
        for _ in 0..<runs { samples.append(try body()) }
        return median(samples)
    }

    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// The process's peak resident memory so far (`VmHWM`), in MiB.
    static func peakResidentMiB() -> Double { statusField("VmHWM:") }

    /// The process's resident memory now (`VmRSS`), in MiB.
    static func residentMiB() -> Double { statusField("VmRSS:") }

    /// A memory field of /proc/self/status, in MiB.
    private static func statusField(_ name: String) -> Double {
        guard let file = fopen("/proc/self/status", "r") else { return .nan }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix(name) {
                let digits = text.dropFirst(name.count).filter { $0.isNumber }
                return (Double(String(digits)) ?? .nan) / 1024  // kB
            }
        }
        return .nan
    }
}

/// Prints aligned tables of results.
struct Table {
    let title: String
    let headers: [String]
    private(set) var rows: [[String]] = []

    init(_ title: String, headers: [String]) {
        self.title = title
        self.headers = headers
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    func render() -> String {
        let widths = headers.indices.map { column in
            ([headers[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == 0 ? cell.padding(toLength: widths[index]) : cell.leftPadded(toLength: widths[index])
            }.joined(separator: "  ")
        }
        var text = "\n## \(title)\n\n" + line(headers) + "\n"
        text += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in rows { text += line(row) + "\n" }
        return text
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }

    func leftPadded(toLength length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }
}

/// Formats a number with a fixed count of decimals.
func format(_ value: Double, decimals: Int = 2) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let have = text.distance(from: dot, to: text.endIndex) - 1
        if decimals == 0 { text = String(text[..<dot]) } else if have < decimals { text += String(repeating: "0", count: decimals - have) }
    } else if decimals > 0 {
        text += "." + String(repeating: "0", count: decimals)
    }
    return text
}
