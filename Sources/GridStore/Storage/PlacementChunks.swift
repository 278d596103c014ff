import GridLayout

/// The stored form of a section's placements: JSON chunks of ``size`` consecutive items,
/// `[[x, y, w, h, "size"], ...]`, read back as rows by the `placements` view.
///
/// A change rewrites only the chunks whose tiles moved; a whole-row-per-item table
/// would cost one B-tree update per moved tile, and a toggle near the top of a grid
/// moves most tiles after it.
package enum PlacementChunks {
    /// Items per chunk: a chunk's JSON is about 2.5 KB, so several fit in one 16 KB page.
    package static let size = 128

    /// The chunk holding `item`.
    static func chunk(of item: Int) -> Int { item / size }

    /// The number of chunks for `count` items.
    static func count(forItems count: Int) -> Int { (count + size - 1) / size }

    /// Whether chunk `chunk` of a section has the same tiles in `old` and `new`.
    static func isUnchanged<Strategy>(_ chunk: Int, old: TileGridSection<Strategy>?, new: TileGridSection<Strategy>) -> Bool {
        guard let old else { return false }
        let start = chunk * size
        let end = min(start + size, new.count)
        // A chunk that grew or shrank (or is new) differs in length.
        guard min(start + size, old.count) == end else { return false }
        for item in start..<end where old[item] != new[item] || old.sizes[item] != new.sizes[item] {
            return false
        }
        return true
    }

    /// Calls `body` with chunk `chunk`'s JSON text, built in temporary memory that is valid only during the call.
    static func withText<Strategy, Result>(_ chunk: Int, of section: TileGridSection<Strategy>,
                                           _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let range = chunk * size..<min((chunk + 1) * size, section.count)
        // "[x,y,w,h,\"middle\"]," with a 20-digit y at most.
        let capacity = 2 + range.count * (Self.longestItem)
        let sizes = section.sizes
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { text in
            var cursor = text.baseAddress!
            cursor.write(UInt8(ascii: "["))
            for item in range {
                if item != range.lowerBound { cursor.write(UInt8(ascii: ",")) }
                let rect = section[item]
                cursor.write(UInt8(ascii: "["))
                cursor.writeDecimal(rect.x)
                cursor.write(UInt8(ascii: ","))
                cursor.writeDecimal(rect.y)
                cursor.write(UInt8(ascii: ","))
                cursor.writeDecimal(rect.width)
                cursor.write(UInt8(ascii: ","))
                cursor.writeDecimal(rect.height)
                cursor.writeName(of: sizes[item])
                cursor.write(UInt8(ascii: "]"))
            }
            cursor.write(UInt8(ascii: "]"))
            return try body(UnsafeRawBufferPointer(start: text.baseAddress!, count: cursor - text.baseAddress!))
        }
    }

    /// The most bytes one item takes in a chunk: `[` four numbers (20 digits at most each) with
    /// commas, the quoted size name, `]` and a comma.
    private static let longestItem = 1 + 4 * 20 + 3 + quotedNameLength(.middle) + 2

    /// The most bytes a chunk's JSON text takes: what a backend may refuse to read past.
    package static let maximumTextLength = 2 + size * longestItem

    /// The length in bytes of chunk `chunk`'s JSON text, computed without building it.
    static func encodedLength<Strategy>(_ chunk: Int, of section: TileGridSection<Strategy>) -> Int {
        let range = chunk * size..<min((chunk + 1) * size, section.count)
        // The brackets around the chunk and the commas between its items.
        var length = 2 + max(0, range.count - 1)
        let sizes = section.sizes
        for item in range {
            let rect = section[item]
            // "[x,y,w,h" + ",\"size\"" + "]"
            length += 1 + digits(rect.x) + 1 + digits(rect.y) + 1 + digits(rect.width) + 1 + digits(rect.height)
                + quotedNameLength(sizes[item]) + 1
        }
        return length
    }

    /// Whether stored chunks (their keys and byte lengths) are exactly those of `layout`'s sections.
    ///
    /// The lengths of chunks that `isRewritten` says a change writes anyway are not computed.
    ///
    /// - Complexity: O(*n*) integer arithmetic for the *n* items of the other chunks: no text is read or built.
    static func match(stored: [(section: Int, firstItem: Int, byteCount: Int)], layout: TileGrid<DensePacking>,
                      isRewritten: (_ section: Int, _ firstItem: Int) -> Bool = { _, _ in false }) -> Bool {
        var expected = 0
        for section in layout.sections { expected += count(forItems: section.count) }
        guard stored.count == expected else { return false }
        for chunk in stored {
            guard chunk.section >= 0, chunk.section < layout.sections.count, chunk.firstItem >= 0,
                  chunk.firstItem % size == 0 else { return false }
            let section = layout.sections[chunk.section]
            guard chunk.firstItem < section.count else { return false }
            if isRewritten(chunk.section, chunk.firstItem) { continue }
            guard encodedLength(chunk.firstItem / size, of: section) == chunk.byteCount else { return false }
        }
        // As many chunks as expected, each a distinct valid key (the primary key), so all are there.
        return true
    }

    @inline(__always)
    private static func digits(_ value: Int) -> Int {
        value < 10 ? 1 : value < 100 ? 2 : value < 1_000 ? 3 : value < 10_000 ? 4 : value < 100_000 ? 5 : String(value).count
    }

    /// The length of `,"small"`, `,"middle"` or `,"big"`.
    @inline(__always)
    private static func quotedNameLength(_ size: TileSize) -> Int {
        switch size {
        case .small: 8
        case .middle: 9
        case .big: 6
        }
    }
}
