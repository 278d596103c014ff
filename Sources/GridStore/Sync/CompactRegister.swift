import GridLayout

/// The shape nearly every stored size register has, one write seen by its writer alone,
/// `[[<size>,<time>,<index>]]` exactly as ``BundleWriter`` writes it, read without a JSON reader.
///
/// It accepts only text the JSON reading of a register (``BundleReader``) accepts, and reads it
/// to the same register; anything else (spaces, a second write, a `seen` object, a number with a
/// sign or leading zeros, a time before ``HybridTime/origin``, an index no replica has) gives
/// `nil`, and the caller reads the text with ``BundleReader``, which says what is wrong.
enum CompactRegister {
    /// The size register `row` holds when it is an item's size (kind `item`, field `s`) in the
    /// compact shape, numbering replicas by `replicas`; `nil` for any other row.
    ///
    /// - Complexity: O(*m*) for the *m* bytes of its text.
    static func size(of row: StoredSyncRegister, replicas: [ReplicaID]) -> MergeRegister<TileSize?>? {
        guard row.kind == "item", row.field == "s" else { return nil }
        return size(row.register, replicas: replicas)
    }

    /// The size register `text` holds, numbering replicas by `replicas`; `nil` when it is not
    /// in the compact shape.
    ///
    /// - Complexity: O(*m*) for the *m* bytes of `text`.
    static func size(_ text: String, replicas: [ReplicaID]) -> MergeRegister<TileSize?>? {
        var text = text
        guard let write = text.withUTF8({ sizeWrite($0) }), write.number < replicas.count else { return nil }
        let stamp = SyncStamp(time: write.time, replica: replicas[write.number])
        return MergeRegister(heads: [.init(value: write.size, stamp: stamp)], context: [])
    }

    /// The one write a size register's text `bytes` holds in the compact shape, its replica by
    /// number (not checked against a table); `nil` when the text is not in that shape.
    ///
    /// - Complexity: O(*m*) for the *m* bytes.
    static func sizeWrite(_ bytes: UnsafeBufferPointer<UInt8>) -> (size: TileSize?, time: HybridTime, number: Int)? {
        var cursor = Cursor(bytes: bytes)
        guard cursor.take("[["), let size = cursor.size(), cursor.take(","),
              let time = cursor.number(), time >= HybridTime.origin.rawValue, cursor.take(","),
              let index = cursor.number(), cursor.take("]]"), cursor.atEnd else { return nil }
        return (size, HybridTime(rawValue: time), Int(index))
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var atEnd: Bool { position == bytes.count }

        /// Steps over `literal` when the text goes on with it.
        mutating func take(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - position >= count else { return false }
            let expected = literal.utf8Start
            for offset in 0..<count where bytes[position + offset] != expected[offset] { return false }
            position += count
            return true
        }

        /// `null` or a size between quotes: `.some(nil)` for `null`, `nil` for anything else.
        mutating func size() -> TileSize?? {
            if take("null") { return .some(nil) }
            if take("\"small\"") { return .some(.small) }
            if take("\"middle\"") { return .some(.middle) }
            if take("\"big\"") { return .some(.big) }
            return nil
        }

        /// A whole number of 1 to 18 digits, no sign, no leading zero: one a JSON reader reads
        /// to the same value, and that cannot overflow.
        mutating func number() -> Int64? {
            let start = position
            var value: Int64 = 0
            while position < bytes.count, position - start < 18, (0x30...0x39).contains(bytes[position]) {
                value = value * 10 + Int64(bytes[position] - 0x30)
                position += 1
            }
            let digits = position - start
            guard digits > 0, digits == 1 || bytes[start] != 0x30 else { return nil }
            // A 19th digit, or a fraction or an exponent after the digits, is left to the JSON reader.
            if position < bytes.count, (0x30...0x39).contains(bytes[position]) || bytes[position] == 0x2E
                || bytes[position] | 0x20 == 0x65 { return nil }
            return value
        }
    }
}
