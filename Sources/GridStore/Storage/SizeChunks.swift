import GridLayout

/// The stored form of a section's explicit sizes (`size_chunks`: SQLite's schema version 7,
/// PostgreSQL's version 8):
/// chunks of up to ``size`` consecutive items from a multiple of ``size``, each a text with one
/// letter per item: `s`, `m`, `b`, or `.` for an item that has its grid's default size. A
/// chunk's text ends at its last explicit size; a chunk without one is not stored.
///
/// Loading a grid reads a row per chunk rather than a row per item, which SQLite reads for
/// about 1,000 instructions each; a bulk set writes a row per chunk, where PostgreSQL spent
/// about 9 µs on each row.
package enum SizeChunks {
    /// Items per chunk.
    package static let size = 256

    /// The letter of an item without an explicit size.
    package static let defaultLetter = UInt8(ascii: ".")

    /// The first item of the chunk holding `item`.
    package static func firstItem(ofChunkHolding item: Int) -> Int { item - item % size }

    /// The letter that stores `size`, or ``defaultLetter`` for `nil`.
    package static func letter(for size: TileSize?) -> UInt8 {
        switch size {
        case nil: defaultLetter
        case .small: UInt8(ascii: "s")
        case .middle: UInt8(ascii: "m")
        case .big: UInt8(ascii: "b")
        }
    }

    /// What a stored letter says about an item.
    package enum Letter: Equatable {
        /// The item has its grid's default size (`.`).
        case defaultSize
        /// The item's explicit size.
        case size(TileSize)
        /// No letter gridstore writes.
        case unknown
    }

    /// Reads one stored letter.
    @inlinable @inline(__always)
    package static func read(_ letter: UInt8) -> Letter {
        switch letter {
        case defaultLetter: .defaultSize
        case UInt8(ascii: "s"): .size(.small)
        case UInt8(ascii: "m"): .size(.middle)
        case UInt8(ascii: "b"): .size(.big)
        default: .unknown
        }
    }

    /// Calls `body` with the section, the item and the size of each explicit size in the stored
    /// chunk of `section` from `firstItem` whose text is `letters`; the size is `nil` for a
    /// letter gridstore does not write.
    ///
    /// - Throws: ``MisplacedSizeChunk`` for a chunk that would overlap its neighbours.
    @inlinable @inline(__always)
    package static func forEachSize(in letters: UnsafeBufferPointer<UInt8>, section: Int, firstItem: Int,
                                    _ body: (Int, Int, TileSize?) throws -> Void) throws {
        guard firstItem >= 0, firstItem % size == 0, letters.count <= size else {
            throw MisplacedSizeChunk(section: section, firstItem: firstItem, letterCount: letters.count)
        }
        for offset in letters.indices {
            switch read(letters[offset]) {
            case .defaultSize: continue
            case .size(let size): try body(section, firstItem + offset, size)
            case .unknown: try body(section, firstItem + offset, nil)
            }
        }
    }

    /// What the stored chunk holding `item` of `section` says about its size, given the chunk's
    /// text (`nil` when there is no such chunk): no explicit size when the text ends before it.
    ///
    /// - Throws: ``MisplacedSizeChunk`` for a text longer than a chunk.
    package static func storedSize(ofItem item: Int, section: Int, in letters: UnsafeBufferPointer<UInt8>?) throws -> StoredSize {
        guard let letters else { return .none }
        let first = firstItem(ofChunkHolding: item)
        guard letters.count <= size else {
            throw MisplacedSizeChunk(section: section, firstItem: first, letterCount: letters.count)
        }
        guard item >= 0, item - first < letters.count else { return .none }
        switch read(letters[item - first]) {
        case .defaultSize: return .none
        case .size(let known): return .known(known)
        case .unknown: return .unknown
        }
    }

    /// Calls `body` with the text of the chunk from `firstItem` of a section whose explicit
    /// sizes are `sizes`: empty when the chunk holds no explicit size (and is not stored).
    /// The bytes are valid only during the call.
    package static func withText<Result>(from firstItem: Int, of sizes: [TileSize?],
                                 _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let end = min(firstItem + size, sizes.count)
        var last = end
        while last > firstItem && sizes[last - 1] == nil { last -= 1 }
        let count = max(0, last - firstItem)
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(count, 1)) { text in
            for offset in 0..<count { text[offset] = letter(for: sizes[firstItem + offset]) }
            return try body(UnsafeRawBufferPointer(start: text.baseAddress!, count: count))
        }
    }
}

/// A stored size chunk that does not start at a multiple of ``SizeChunks/size`` or holds
/// more letters than a chunk has items: it would overlap its neighbours.
package struct MisplacedSizeChunk: StoredStateInconsistency, Equatable {
    /// The chunk's section.
    package var section: Int
    /// The item its text starts at.
    package var firstItem: Int
    /// The number of letters in its text.
    package var letterCount: Int

    package init(section: Int, firstItem: Int, letterCount: Int) {
        self.section = section
        self.firstItem = firstItem
        self.letterCount = letterCount
    }

    /// What is wrong, for a ``GridError/corrupted(_:)`` message about the grid.
    package var description: String {
        "has a size chunk for section \(section) at item \(firstItem) with \(letterCount) sizes "
            + "(a chunk starts at a multiple of \(SizeChunks.size) and holds at most \(SizeChunks.size))"
    }
}
