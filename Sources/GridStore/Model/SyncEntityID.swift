/// The identity of an item or a section across replicas: 64 bits, written as 16 hexadecimal digits.
///
/// An item keeps its id wherever it moves, so a move, a resize and a delete made on different
/// replicas meet on the same item. Items and sections a grid had before its first sync get ids
/// derived from what they were then (an item's key, else its position), so two replicas that
/// started from the same grid agree on them without having talked; items made since get random
/// ids, and an item inserted with a key takes the key's id when no item holds it.
struct SyncEntityID: Hashable, Comparable, Sendable, CustomStringConvertible {
    let rawValue: UInt64

    init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// A new random id.
    static func random(using generator: inout some RandomNumberGenerator) -> SyncEntityID {
        SyncEntityID(rawValue: generator.next())
    }

    /// The id of the item with the key `key`, as every replica derives it.
    static func item(key: String) -> SyncEntityID { derived("key\u{0}" + key) }

    /// The id of the keyless item at `item` of section `section` of a grid's first sync.
    static func item(section: Int, item: Int) -> SyncEntityID { derived("item\u{0}\(section)\u{0}\(item)") }

    /// The id of section `section` of a grid's first sync.
    static func section(_ section: Int) -> SyncEntityID { derived("section\u{0}\(section)") }

    /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes.
    private static func derived(_ text: String) -> SyncEntityID {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return SyncEntityID(rawValue: hash)
    }

    /// The id written as 16 lowercase hexadecimal digits; `nil` for anything else.
    init?(_ text: String) {
        // A string's own bytes, read in place: walking its UTF-8 view takes ten times as long.
        var text = text
        guard let value = text.withUTF8({ $0.count == 16 ? ReplicaID.parseHex($0) : nil }) else { return nil }
        rawValue = value
    }

    /// The id whose 16 lowercase hexadecimal digits are `digits`' UTF-8 bytes; `nil` for anything else.
    init?(digits: some Collection<UInt8>) {
        guard digits.count == 16, let value = ReplicaID.parseHex(digits) else { return nil }
        rawValue = value
    }

    var description: String { ReplicaID.hex(rawValue) }

    static func < (lhs: SyncEntityID, rhs: SyncEntityID) -> Bool { lhs.rawValue < rhs.rawValue }
}
