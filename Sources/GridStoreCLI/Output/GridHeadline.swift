import GridLayout
import GridStore

/// The line above a drawn grid: its name, layout, revision and item count, wrapped to the
/// terminal's width at its ` · ` separators.
///
/// ```
/// default · less (4 columns) · vertical · revision 2 · 8 items
/// ```
enum GridHeadline {
    /// The headline of `snapshot`, in lines of at most `width` characters (without the final newline).
    static func text(of snapshot: GridSnapshot, width: Int) -> String {
        wrap(parts(of: snapshot), width: width)
    }

    /// The headline's parts, each shown whole where it fits.
    static func parts(of snapshot: GridSnapshot) -> [String] {
        let count = snapshot.totalItemCount
        let items = "\(count) item\(count == 1 ? "" : "s")"
        let name = CommandLineOutput.printable(snapshot.name)
        if let layout = snapshot.honeycombLayout, let configuration = snapshot.honeycomb {
            let rings = layout.itemCount == 0 ? 0 : HoneycombSpiral.ring(ofPosition: layout.itemCount - 1) + 1
            var parts = [name, "honeycomb (\(configuration.orientation.rawValue), cells \(PrintedNumber.text(configuration.elementWidth)) wide, "
                            + "\(PrintedNumber.text(configuration.itemSpacing)) apart, \(configuration.centerItem.rawValue) item in the center)"]
            if configuration.ringOrder != .standard { parts.append("\(configuration.ringOrder.rawValue) ring order") }
            if configuration.scalingCurve != .linear { parts.append("\(configuration.scalingCurve.rawValue) scaling") }
            return parts + ["revision \(snapshot.revision)", "\(items) on \(rings) ring\(rings == 1 ? "" : "s")"]
        }
        let type = snapshot.type.map { "\($0.rawValue) (\(snapshot.columns) columns)" } ?? "custom (\(snapshot.columns) columns)"
        return [name, type, snapshot.direction.rawValue, "revision \(snapshot.revision)", items]
    }

    /// `parts` joined by ` · `, starting a new line (`  · `) before a part that would not fit;
    /// a part longer than a line is cut into pieces.
    static func wrap(_ parts: [String], width: Int) -> String {
        let width = max(TerminalWidth.minimum, width)
        var lines: [String] = []
        var line = ""
        for part in parts {
            let candidate = line.isEmpty ? part : line + " · " + part
            if DisplayWidth.columns(of: candidate) <= width {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = (lines.isEmpty ? "" : "  · ") + part
            while DisplayWidth.columns(of: line) > width {
                let piece = DisplayWidth.prefix(line, fitting: width)
                lines.append(piece)
                line = "  " + String(line.unicodeScalars.dropFirst(piece.unicodeScalars.count))
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
