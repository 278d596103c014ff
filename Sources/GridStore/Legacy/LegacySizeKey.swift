import GridLayout

/// The original iOS layout's (ugrid's) `UserDefaults` keys and values: a key
/// `r:<row>_s:<section>_grid_item_size` holds `grid_size_small`, `grid_size_middle` or
/// `grid_size_big`.
enum LegacySizeKey {
    /// The index path of a key `r:<row>_s:<section>_grid_item_size`, or `nil` for other keys.
    static func indexPath(of key: String) -> GridIndexPath? {
        let prefix = "r:", middle = "_s:", suffix = "_grid_item_size"
        guard key.hasPrefix(prefix), key.hasSuffix(suffix) else { return nil }
        let body = key.dropFirst(prefix.count).dropLast(suffix.count)
        // The row is digits only, so the first underscore starts the section part.
        guard let underscore = body.firstIndex(of: "_"), body[underscore...].hasPrefix(middle) else { return nil }
        guard let row = wholeNumber(body[..<underscore]), let section = wholeNumber(body[underscore...].dropFirst(middle.count))
        else { return nil }
        return GridIndexPath(item: row, section: section)
    }

    /// The size named `grid_size_small`, `grid_size_middle` or `grid_size_big`.
    static func size(named value: String) -> TileSize? {
        guard value.hasPrefix("grid_size_") else { return nil }
        return TileSize(rawValue: String(value.dropFirst("grid_size_".count)))
    }

    /// The number `text` spells, saturating at `Int.max`: a key naming an item past every grid's
    /// limits is still a size key, refused when applied rather than skipped as another app's key.
    private static func wholeNumber(_ text: Substring) -> Int? {
        // As the original wrote them: no leading zero, so `r:1` and `r:01` cannot both name item 1.
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              text == "0" || !text.hasPrefix("0") else { return nil }
        var value = 0
        for digit in text.utf8 {
            let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            if overflowA || overflowB { return Int.max }
            value = sum
        }
        return value
    }
}
