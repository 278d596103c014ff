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

    /// Appends chunk `chunk`'s JSON text to `buffer`.
    static func encode<Strategy>(_ chunk: Int, of section: TileGridSection<Strategy>, appendingTo buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "["))
        let range = chunk * size..<min((chunk + 1) * size, section.count)
        for item in range {
            if item != range.lowerBound { buffer.append(UInt8(ascii: ",")) }
            let rect = section[item]
            buffer.append(UInt8(ascii: "["))
            appendDecimal(rect.x, to: &buffer)
            buffer.append(UInt8(ascii: ","))
            appendDecimal(rect.y, to: &buffer)
            buffer.append(UInt8(ascii: ","))
            appendDecimal(rect.width, to: &buffer)
            buffer.append(UInt8(ascii: ","))
            appendDecimal(rect.height, to: &buffer)
            buffer.append(contentsOf: quotedNames[Int(sizeIndex(section.sizes[item]))])
            buffer.append(UInt8(ascii: "]"))
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// The length in bytes of chunk `chunk`'s JSON text, computed without building it.
    static func encodedLength<Strategy>(_ chunk: Int, of section: TileGridSection<Strategy>) -> Int {
        let range = chunk * size..<min((chunk + 1) * size, section.count)
        // The brackets around the chunk and the commas between its items.
        var length = 2 + max(0, range.count - 1)
        for item in range {
            let rect = section[item]
            // "[x,y,w,h" + ",\"size\"" + "]"
            length += 1 + digits(rect.x) + 1 + digits(rect.y) + 1 + digits(rect.width) + 1 + digits(rect.height)
                + quotedNames[Int(sizeIndex(section.sizes[item]))].count + 1
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

    private static let quotedNames: [[UInt8]] = TileSize.allCases.map { Array(",\"\($0.rawValue)\"".utf8) }

    @inline(__always)
    private static func sizeIndex(_ size: TileSize) -> UInt8 {
        switch size {
        case .small: 0
        case .middle: 1
        case .big: 2
        }
    }

    /// Appends the decimal digits of a non-negative `value`.
    @inline(__always)
    static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
        if value < 10 {
            buffer.append(UInt8(truncatingIfNeeded: value) &+ 48)
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var remaining = value
        withUnsafeMutableBytes(of: &digits) { bytes in
            while remaining > 0 {
                bytes[count] = UInt8(truncatingIfNeeded: remaining % 10) &+ 48
                remaining /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(bytes[index]) }
        }
    }
}
