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

    private static func wholeNumber(_ text: Substring) -> Int? {
        // As the original wrote them: no leading zero, so `r:1` and `r:01` cannot both name item 1.
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              text == "0" || !text.hasPrefix("0") else { return nil }
        return Int(text)
    }
}
