import GridLayout

/// A sync register one change of a synced grid wrote, with its value before and after: what
/// undo writes back, and redo writes again, on the item or section it belongs to wherever that
/// is now. Kept with the change's history entry (``text(_:)``, ``changes(in:revision:grid:)``).
///
/// Values are the registers' winning values: a register never written stands for a new grid's
/// option, an item's default size, no key, and an item or section that exists. An item or
/// section the change made is one change of its existence (`false` before, `true` after), so
/// that undo deletes it and redo brings it back.
struct RegisterChange: Equatable {
    /// A register's value, which also names the register.
    enum Value: Equatable {
        case columns(Int)
        case direction(ScrollDirection)
        case defaultSize(TileSize)
        case honeycomb(HoneycombConfiguration?)
        case sectionOrder(OrderKey)
        case sectionAlive(Bool)
        case place(ReplicatedGrid.Place)
        case size(TileSize?)
        case key(String?)
        case alive(Bool)
    }

    /// The item or section; `nil` for one of the grid's options.
    var entity: SyncEntityID?
    var before: Value
    var after: Value

    /// The most registers a history entry keeps: as many as the inserts, deletes and moves its
    /// delta may hold (``HistoryDelta/maximumPositionalEditsPerEntry``), about 6 MB of text. A
    /// change that writes more keeps none, and is taken back by position, so only while no sync
    /// came after it.
    static let maximumCount = HistoryDelta.maximumPositionalEditsPerEntry

    /// The longest text of registers an entry may hold.
    static let maximumBytes = StoredHistoryEntry.maximumRegistersBytes

    /// `changes` as the history keeps them (``text(_:)``); `nil` when there are more than
    /// ``maximumCount``.
    static func kept(_ changes: [RegisterChange]) -> String? {
        guard changes.count <= maximumCount else { return nil }
        let text = text(changes)
        return text.utf8.count <= maximumBytes ? text : nil
    }
}

extension RegisterChange.Value {
    /// The register's kind, entity field and JSON value, as a format 1 bundle writes them.
    fileprivate var stored: (kind: String, field: String, json: String) {
        switch self {
        case .columns(let value): ("grid", "columns", RegisterJSON.columns(value))
        case .direction(let value): ("grid", "direction", RegisterJSON.direction(value))
        case .defaultSize(let value): ("grid", "defaultSize", RegisterJSON.defaultSize(value))
        case .honeycomb(let value): ("grid", "honeycomb", RegisterJSON.honeycomb(value))
        case .sectionOrder(let value): ("section", "o", RegisterJSON.order(value))
        case .sectionAlive(let value): ("section", "a", RegisterJSON.alive(value))
        case .place(let value): ("item", "p", RegisterJSON.place(value))
        case .size(let value): ("item", "s", RegisterJSON.size(value))
        case .key(let value): ("item", "k", RegisterJSON.key(value))
        case .alive(let value): ("item", "a", RegisterJSON.alive(value))
        }
    }

}

extension RegisterChange {
    /// `changes` as the history stores them: a line each (kind, entity, field, the JSON value
    /// before, the JSON value after, separated by tabs, which JSON text never holds unescaped).
    ///
    /// - Complexity: O(*n*) for the *n* changes.
    static func text(_ changes: [RegisterChange]) -> String {
        var text = ""
        for change in changes {
            let before = change.before.stored, after = change.after.stored
            if !text.isEmpty { text += "\n" }
            text += before.kind + "\t" + (change.entity?.description ?? "") + "\t" + before.field + "\t" + before.json + "\t" + after.json
        }
        return text
    }

    /// Appends to `text` the line ``text(_:)`` writes for a change of the size of `item`.
    static func appendSizeLine(to text: inout String, item: SyncEntityID, before: TileSize?, after: TileSize?) {
        if !text.isEmpty { text += "\n" }
        text += "item\t"
        text += item.description
        text += "\ts\t"
        text += RegisterJSON.size(before)
        text += "\t"
        text += RegisterJSON.size(after)
    }

    /// The changes ``text(_:)`` wrote, each value checked as a bundle's is.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` for text ``text(_:)`` does not write.
    /// - Complexity: O(*m*) for the *m* bytes of `text`.
    static func changes(in text: String, revision: Int, grid: String) throws(GridError) -> [RegisterChange] {
        func refused(_ why: String) -> GridError {
            .corrupted("grid '\(grid)' has a history entry for revision \(revision) whose sync registers gridstore cannot read: \(why)")
        }
        guard !text.isEmpty else { return [] }
        guard text.utf8.count <= maximumBytes else { throw refused("it is longer than \(NumberText.count(maximumBytes)) bytes") }
        var changes: [RegisterChange] = []
        // Line by line, never split whole: a text of many short lines is refused at the
        // ``maximumCount``th, before its lines take memory.
        let bytes = Substring(text).utf8
        var rest = bytes[...]
        while true {
            guard changes.count < maximumCount else { throw refused("more than \(NumberText.count(maximumCount)) registers") }
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            let line = rest[..<end]
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 5 else { throw refused("line \(changes.count + 1) does not have five fields") }
            let kind = String(decoding: fields[0], as: UTF8.self), entityText = String(decoding: fields[1], as: UTF8.self)
            let field = String(decoding: fields[2], as: UTF8.self)
            let entity: SyncEntityID?
            if kind == "grid" {
                guard entityText.isEmpty else { throw refused("an option names an entity") }
                entity = nil
            } else {
                guard let id = SyncEntityID(entityText) else { throw refused("'\(SyncError.excerpt(entityText))' is not a sync id") }
                entity = id
            }
            do {
                let before = try value(kind: kind, field: field, json: fields[3])
                let after = try value(kind: kind, field: field, json: fields[4])
                changes.append(RegisterChange(entity: entity, before: before, after: after))
            } catch {
                throw refused("its register \(SyncError.excerpt(kind)) \(SyncError.excerpt(field)): \(error)")
            }
            guard end < rest.endIndex else { return changes }
            rest = rest[rest.index(after: end)...]
        }
    }

    /// The replica the values are read as written by: a value alone carries no stamp.
    private static let reader = ReplicaID(high: 0, low: 1)

    /// One value of the register `kind` / `field`, read as a bundle's register holding it.
    private static func value(kind: String, field: String, json: Substring.UTF8View.SubSequence) throws -> Value {
        guard json.count <= StoredSyncRegisters.maximumRegisterBytes else { throw SyncError(.tooLarge, "a value is too long") }
        var reader = BundleReader(reader: JSONReader(Array("[[".utf8) + Array(json) + Array(",1,0]]".utf8)), replicas: [Self.reader])
        let value: Value?
        switch kind {
        case "grid":
            var options = ReplicatedGrid.Options()
            try reader.option(field, into: &options)
            switch field {
            case "columns": value = options.columns.winner.map { .columns($0.value) }
            case "direction": value = options.direction.winner.map { .direction($0.value) }
            case "defaultSize": value = options.defaultSize.winner.map { .defaultSize($0.value) }
            default: value = options.honeycomb.winner.map { .honeycomb($0.value) }
            }
        case "section":
            var section = ReplicatedGrid.Section()
            try reader.sectionField(field, into: &section)
            value = field == "o" ? section.order.winner.map { .sectionOrder($0.value) } : section.alive.winner.map { .sectionAlive($0.value) }
        case "item":
            var item = ReplicatedGrid.Item()
            try reader.itemField(field, into: &item)
            switch field {
            case "p": value = item.place.winner.map { .place($0.value) }
            case "s": value = item.size.winner.map { .size($0.value) }
            case "k": value = item.key.winner.map { .key($0.value) }
            default: value = item.alive.winner.map { .alive($0.value) }
            }
        default:
            throw SyncError(.malformed, "it is of no kind gridstore writes")
        }
        try reader.reader.expectEnd()
        guard let value else { throw SyncError(.malformed, "it holds no value") }
        return value
    }
}
