import GridLayout

extension GridChangeSet {
    /// The size chunks (see ``SizeChunks``) the change writes, each named by its section and
    /// first item: `rewrites`, in order, get ``withSizeText(section:firstItem:_:)`` (an empty
    /// text deletes the chunk), and every chunk of `truncations`' section from its first item
    /// on is deleted first.
    ///
    /// - Complexity: O(*k*) for the *k* size rows of the change.
    package func sizeChunkEdits() -> (rewrites: [(section: Int, firstItem: Int)], truncations: [(section: Int, firstItem: Int)]) {
        var touched: [(section: Int, firstItem: Int)] = []
        func touch(_ section: Int, _ item: Int) {
            let first = SizeChunks.firstItem(ofChunkHolding: item)
            if let last = touched.last, last.section == section && last.firstItem == first { return }
            touched.append((section, first))
        }
        for row in sizeUpserts { touch(row.section, row.item) }
        for (section, item) in sizeDeletions { touch(section, item) }
        var truncations: [(section: Int, firstItem: Int)] = []
        for (section, count) in sizeTruncations {
            let kept = SizeChunks.firstItem(ofChunkHolding: count)
            if kept == count {
                truncations.append((section, count))
            } else {
                truncations.append((section, kept + SizeChunks.size))
                touch(section, count)
            }
        }
        touched.sort { ($0.section, $0.firstItem) < ($1.section, $1.firstItem) }
        var rewrites: [(section: Int, firstItem: Int)] = []
        rewrites.reserveCapacity(touched.count)
        for chunk in touched where rewrites.last.map({ $0.section != chunk.section || $0.firstItem != chunk.firstItem }) ?? true {
            rewrites.append(chunk)
        }
        return (rewrites, truncations)
    }

    /// Calls `body` with the text of the size chunk of `section` from `firstItem` after the
    /// change, empty when it holds no explicit size; valid only during the call.
    package func withSizeText<Result>(section: Int, firstItem: Int,
                                      _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try SizeChunks.withText(from: firstItem, of: explicitSizes(afterChangeOfSection: section), body)
    }
}
