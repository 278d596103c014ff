import GridLayout

/// The JSON document of a grid: what `gridstore show --format json` and `export` write and
/// `import` reads, for apps that export, import and validate grids without the command line.
///
/// ```
/// {"grid":"default","type":"more","columns":6,"direction":"vertical","revision":7,"defaultSize":"small",
///  "sections":[{"section":0,"extent":5,"items":[
///   {"index":0,"size":"small","x":0,"y":0,"w":1,"h":1},
///   ...]}]}
/// ```
///
/// Positions are in cells; for a horizontal grid `x` runs along the scroll axis. `type` is
/// `custom` for a column count other than 4 and 6.
public enum GridDocument {
    /// A tile grid's document, ending with a newline; with `frames`, each item also gets its
    /// pixel `"frame"` and the document the `"contentSize"` and the `"metrics"` they were computed with.
    private static func encodeTiles(_ snapshot: GridSnapshot, frames: GridFrames<DensePacking>?,
                                    syncIdentity identity: GridSyncIdentity? = nil) -> String {
        // Written only when it is of the grid's revision (a change between the two reads leaves it out).
        let identity = identity.flatMap { $0.revision == snapshot.revision && $0.items.map(\.count) == snapshot.layout.sections.map(\.count) ? $0 : nil }
        var text = "{\"grid\":\(JSONText.quoted(snapshot.name)),\"type\":\"\(snapshot.type?.rawValue ?? "custom")\","
        text += "\"columns\":\(snapshot.columns),\"direction\":\"\(snapshot.direction.rawValue)\","
        text += "\"revision\":\(snapshot.revision),\"defaultSize\":\"\(snapshot.defaultSize.rawValue)\",\n"
        if let frames { text += encodeMetrics(frames) }
        text += " \"sections\":["
        for (index, section) in snapshot.layout.sections.enumerated() {
            if index > 0 { text += "," }
            text += "{\"section\":\(index),"
            if let identity { text += "\"sync\":" + encodeSync(identity.sections[index]) + "," }
            text += "\"extent\":\(section.extent),\"items\":["
            let keys = snapshot.itemKeys[index]
            for item in 0..<section.count {
                let rect = section[item]
                text += item == 0 ? "\n  " : ",\n  "
                text += "{\"index\":\(item),"
                if let identity { text += "\"sync\":" + encodeSync(identity.items[index][item]) + "," }
                if !keys.isEmpty, let key = keys[item] { text += "\"key\":\(JSONText.quoted(key))," }
                text += "\"size\":\"\(section.sizes[item].rawValue)\","
                text += "\"x\":\(rect.x),\"y\":\(rect.y),\"w\":\(rect.width),\"h\":\(rect.height)"
                if let frames { text += ",\"frame\":" + encodeRect(frames.frame(at: GridIndexPath(item: item, section: index))) }
                text += "}"
            }
            text += "]}"
        }
        return text + "]}\n"
    }

    /// The most bytes a document ``encode(_:)`` writes can hold, and so the most an import of
    /// one takes: a million items, each with a key of 255 four-byte characters, come to about
    /// 1.1 GB. Whatever gridstore exports, it imports.
    public static let maximumDocumentBytes = 1_280 * 1024 * 1024

    /// The document of `snapshot`, ending with a newline.
    public static func encode(_ snapshot: GridSnapshot) -> String {
        snapshot.kind == .honeycomb ? encodeHoneycomb(snapshot, viewport: nil) : encodeTiles(snapshot, frames: nil)
    }

    /// The document of `snapshot` with each section's and item's sync id and place
    /// (`"sync":{"id":…,"order":…}`), from ``Grid/syncIdentity()``, of the same
    /// revision as `snapshot` (else it is left out): what `gridstore export` writes for a grid that syncs, and
    /// ``Grid/importDocument(_:operation:)`` takes up. Without an identity, as ``encode(_:)``.
    public static func encode(_ snapshot: GridSnapshot, syncIdentity: GridSyncIdentity?) -> String {
        snapshot.kind == .honeycomb ? encodeHoneycomb(snapshot, viewport: nil) : encodeTiles(snapshot, frames: nil, syncIdentity: syncIdentity)
    }

    private static func encodeSync(_ entry: GridSyncIdentity.Entry) -> String {
        "{\"id\":\(JSONText.quoted(entry.id)),\"order\":\(JSONText.quoted(entry.order))}"
    }

    /// The document of `snapshot` with each item's pixel `"frame"`, the `"contentSize"` and the
    /// `"metrics"`, as ``GridFrames`` computes them for `metrics`.
    ///
    /// - Throws: ``LayoutConfigurationError`` when `metrics` leave no room for the columns.
    public static func encode(_ snapshot: GridSnapshot, frames metrics: FrameMetrics) throws(LayoutConfigurationError) -> String {
        guard snapshot.kind == .tiles else { return encodeHoneycomb(snapshot, viewport: nil) }
        return encodeTiles(snapshot, frames: try GridFrames(grid: snapshot.layout, metrics: metrics))
    }

    /// The document of `snapshot`; for a honeycomb, each item inside `viewport` also gets the
    /// `"scale"` that `scaling` gives it there (a tile grid's document has no scales).
    public static func encode(_ snapshot: GridSnapshot, visibleIn viewport: LayoutRect, scaling: EdgeScaling) -> String {
        snapshot.kind == .honeycomb ? encodeHoneycomb(snapshot, viewport: (viewport, scaling)) : encodeTiles(snapshot, frames: nil)
    }

    /// ` "metrics":{…},"contentSize":{…},` and a line break.
    private static func encodeMetrics<Strategy>(_ frames: GridFrames<Strategy>) -> String {
        let number = { (value: Double) in NumberText.number(value, decimals: 4) }
        let metrics = frames.metrics, insets = metrics.sectionInsets
        return " \"metrics\":{\"width\":\(number(metrics.crossAxisLength)),\"spacing\":\(number(metrics.spacing)),"
            + "\"insets\":{\"top\":\(number(insets.top)),\"left\":\(number(insets.left)),\"bottom\":\(number(insets.bottom)),"
            + "\"right\":\(number(insets.right))},\"cell\":\(number(frames.cellLength))},\n"
            + " \"contentSize\":{\"width\":\(number(frames.contentSize.width)),\"height\":\(number(frames.contentSize.height))},\n"
    }

    /// `{"x":…,"y":…,"width":…,"height":…}`, to 4 decimals.
    private static func encodeRect(_ rect: LayoutRect) -> String {
        let number = { (value: Double) in NumberText.number(value, decimals: 4) }
        return "{\"x\":\(number(rect.minX)),\"y\":\(number(rect.minY)),\"width\":\(number(rect.size.width)),"
            + "\"height\":\(number(rect.size.height))}"
    }

    /// A honeycomb grid's document:
    ///
    /// ```
    /// {"grid":"hive","layout":"honeycomb","revision":1,"elementWidth":60,"itemSpacing":6,
    ///  "orientation":"pointy-top","center":"first","contentSize":{"width":198,"height":184.75},
    ///  "items":[{"index":0,"ring":0,"q":0,"r":0,"frame":{"x":69,"y":57.11,"width":60,"height":69.28}}, ...]}
    /// ```
    private static func encodeHoneycomb(_ snapshot: GridSnapshot, viewport: (rect: LayoutRect, scaling: EdgeScaling)?) -> String {
        guard let layout = snapshot.honeycombLayout, let configuration = snapshot.honeycomb else { return "{}\n" }
        let number = { (value: Double) in NumberText.number(value, decimals: 4) }
        var text = "{\"grid\":\(JSONText.quoted(snapshot.name)),\"layout\":\"honeycomb\",\"revision\":\(snapshot.revision),"
        // The stored values, exactly: rounded, they would not read back as they are.
        text += "\"elementWidth\":\(NumberText.exact(configuration.elementWidth)),"
            + "\"itemSpacing\":\(NumberText.exact(configuration.itemSpacing)),"
        text += "\"orientation\":\"\(configuration.orientation.rawValue)\",\"center\":\"\(configuration.centerItem.rawValue)\","
        // Left out at their defaults, so documents of grids without them read as before.
        if configuration.ringOrder != .standard { text += "\"ringOrder\":\"\(configuration.ringOrder.rawValue)\"," }
        if configuration.scalingCurve != .linear { text += "\"scaling\":\"\(configuration.scalingCurve.rawValue)\"," }
        text += "\n"
        text += " \"contentSize\":{\"width\":\(number(layout.contentSize.width)),\"height\":\(number(layout.contentSize.height))},"
        var visible = Set<Int>()
        if let viewport {
            let rect = viewport.rect
            text += "\n \"viewport\":{\"x\":\(number(rect.minX)),\"y\":\(number(rect.minY)),\"width\":\(number(rect.size.width)),"
                + "\"height\":\(number(rect.size.height)),\"edgeDistance\":\(number(viewport.scaling.edgeDistance)),"
                + "\"minimumScaleFactor\":\(number(viewport.scaling.minimumScaleFactor)),"
                + "\"curve\":\"\(viewport.scaling.curve.rawValue)\"},"
            visible = Set(layout.items(in: rect))
        }
        text += "\n \"items\":["
        let frames = layout.frames()
        let cells = layout.cells()
        for item in 0..<layout.itemCount {
            let frame = frames[item], cell = cells[item]
            text += item == 0 ? "\n  " : ",\n  "
            text += "{\"index\":\(item),"
            if let keys = snapshot.itemKeys.first, !keys.isEmpty, let key = keys[item] { text += "\"key\":\(JSONText.quoted(key))," }
            text += "\"ring\":\(cell.ring),\"q\":\(cell.q),\"r\":\(cell.r),"
            text += "\"frame\":{\"x\":\(number(frame.minX)),\"y\":\(number(frame.minY)),"
            text += "\"width\":\(number(frame.size.width)),\"height\":\(number(frame.size.height))}"
            if let viewport, visible.contains(item) {
                text += ",\"scale\":\(number(viewport.scaling.scale(at: frame.center, in: viewport.rect)))"
            }
            text += "}"
        }
        return text + "]}\n"
    }

    /// A grid read from a document: its name, if it gives one, and its content.
    public struct Decoded: Sendable, Hashable {
        /// The document's `"grid"`, if it has one.
        public var name: String?
        /// The settings and sizes, ready for ``Grid/replaceContent(_:)``.
        public var content: GridContent
        /// The sections' and items' sync ids and places, when the document carries them (every
        /// section and item does, or none).
        public var syncIdentity: GridSyncIdentity?

        public init(name: String?, content: GridContent, syncIdentity: GridSyncIdentity? = nil) {
            self.name = name
            self.content = content
            self.syncIdentity = syncIdentity
        }

        /// Checks the content as a grid (limits, columns, spans, a honeycomb's one section),
        /// as storing it would, without storing it.
        public func validate() throws(GridError) {
            _ = try content.validatedConfiguration()
            if let name { try GridLimits.validate(name: name) }
            if let problem = syncIdentity?.problem(for: content) {
                throw .sync(SyncError(.malformed, "the document's sync ids do not fit its grid: \(problem)"))
            }
        }
    }

    /// Reads a document. Positions, extents and the revision are ignored: they are recomputed.
    /// Unknown keys are ignored, so documents of later versions still import.
    ///
    /// - Throws: ``GridDocumentError`` for malformed JSON, wrong types, unknown sizes, and
    ///   sections or items out of order.
    public static func decode(_ text: String) throws(GridDocumentError) -> Decoded {
        try decode(Array(text.utf8))
    }

    /// Reads a document from its UTF-8 bytes, as ``decode(_:)`` reads its text.
    public static func decode(_ bytes: [UInt8]) throws(GridDocumentError) -> Decoded {
        var reader = JSONReader(bytes)
        var fields = Fields()
        do throws(JSONError) {
            try reader.beginObject()
            while let key = try reader.nextKey() {
                try read(key, from: &reader, into: &fields)
            }
            try reader.expectEnd()
        } catch {
            throw .malformed(error)
        }
        return try fields.decoded()
    }

    /// The top-level values of a document, as read so far.
    private struct Fields {
        var name: String?
        var type: String?
        var columns: Int?
        var direction = ScrollDirection.vertical
        var defaultSize = TileSize.small
        var sections: [[TileSize?]]?
        var keys: [[String?]] = []
        /// Each section's `"sync"`, and each item's, as read.
        var sync = SyncEntries()
        var totalItems = 0
        var layout = GridKind.tiles
        var elementWidth = 60.0, itemSpacing = 6.0
        var orientation = HoneycombConfiguration.Orientation.pointyTop
        var center = HoneycombConfiguration.CenterItem.first
        var ringOrder = HoneycombConfiguration.RingOrder.standard
        var scaling = EdgeScaling.Curve.linear
        var honeycombItems: Int?
        var honeycombKeys: [String?] = []

        /// The grid the fields describe.
        func decoded() throws(GridDocumentError) -> Decoded {
            if layout == .honeycomb {
                guard let honeycombItems else { throw .invalid("the honeycomb document has no \"items\" array") }
                let configuration: HoneycombConfiguration
                do {
                    configuration = try HoneycombConfiguration(elementWidth: elementWidth, itemSpacing: itemSpacing,
                                                               orientation: orientation, centerItem: center,
                                                               ringOrder: ringOrder, scalingCurve: scaling)
                } catch {
                    throw .invalid(error.description)
                }
                var content = GridContent(honeycomb: configuration, itemCount: honeycombItems)
                if honeycombKeys.contains(where: { $0 != nil }) { content.keys = [honeycombKeys] }
                return Decoded(name: name, content: content)
            }
            guard let sections else { throw .invalid("the document has no \"sections\" array") }
            let resolvedColumns = try resolveColumns(type: type, columns: columns)
            // Items of the default size keep no size of their own, as in a grid made by gridstore.
            var content = GridContent(columns: resolvedColumns, direction: direction, defaultSize: defaultSize,
                                      sections: sections.map { $0.map { $0 == defaultSize ? nil : $0 } })
            if keys.contains(where: { $0.contains { $0 != nil } }) { content.keys = keys }
            return Decoded(name: name, content: content, syncIdentity: try sync.identity())
        }
    }

    /// Reads the value of the top-level `key` into `fields`; unknown keys are skipped.
    private static func read(_ key: String, from reader: inout JSONReader, into fields: inout Fields) throws(JSONError) {
        switch key {
        case "grid": fields.name = try reader.readString()
        case "type": fields.type = try reader.readString()
        case "columns": fields.columns = try reader.readInteger()
        case "direction": fields.direction = try readChoice(&reader, key: key, choices: "vertical or horizontal")
        case "defaultSize": fields.defaultSize = try readSize(&reader, what: "\"defaultSize\"")
        case "sections": fields.sections = try readSections(&reader, keys: &fields.keys, sync: &fields.sync, totalItems: &fields.totalItems)
        case "layout": fields.layout = try readChoice(&reader, key: key, choices: "tiles or honeycomb")
        case "elementWidth": fields.elementWidth = try reader.readNumber()
        case "itemSpacing": fields.itemSpacing = try reader.readNumber()
        case "orientation": fields.orientation = try readChoice(&reader, key: key, choices: "pointy-top or flat-top")
        case "center": fields.center = try readChoice(&reader, key: key, choices: "first or last")
        case "ringOrder": fields.ringOrder = try readChoice(&reader, key: key, choices: "standard or original")
        case "scaling": fields.scaling = try readChoice(&reader, key: key, choices: "linear, smooth or original")
        case "items": fields.honeycombItems = try readHoneycombItems(&reader, keys: &fields.honeycombKeys)
        default: try reader.skipValue()
        }
    }

    /// A string that is one of `T`'s raw values; `choices` lists them for the error.
    private static func readChoice<T: RawRepresentable>(_ reader: inout JSONReader, key: String, choices: String)
        throws(JSONError) -> T where T.RawValue == String {
        let start = reader.mark()
        let value = try reader.readString()
        guard let parsed = T(rawValue: value) else {
            throw reader.error("\"\(key)\" is \(choices), not \"\(TextExcerpt.abbreviated(value))\"", at: start)
        }
        return parsed
    }

    private static func readSections(_ reader: inout JSONReader, keys: inout [[String?]], sync: inout SyncEntries,
                                     totalItems: inout Int) throws(JSONError) -> [[TileSize?]] {
        var sections: [[TileSize?]] = []
        try reader.beginArray()
        while try reader.nextElement() {
            var items: [TileSize?]?
            var sectionSync: GridSyncIdentity.Entry?
            var itemSync: [GridSyncIdentity.Entry?] = []
            let start = reader.mark()
            try reader.beginObject()
            while let key = try reader.nextKey() {
                switch key {
                case "sync": sectionSync = try readSync(&reader)
                case "section":
                    let valueStart = reader.mark()
                    let number = try reader.readInteger()
                    guard number == sections.count else {
                        throw reader.error("section \(sections.count) is numbered \(number); sections must be listed in order from 0",
                                           at: valueStart)
                    }
                case "items":
                    var sectionKeys: [String?] = []
                    items = try readItems(&reader, section: sections.count, keys: &sectionKeys, sync: &itemSync, totalItems: &totalItems)
                    keys.append(sectionKeys)
                default: try reader.skipValue()
                }
            }
            guard let items else { throw reader.error("section \(sections.count) has no \"items\" array", at: start) }
            sync.sections.append(sectionSync)
            sync.items.append(itemSync)
            sections.append(items)
            guard sections.count <= GridLimits.maximumSections else {
                throw reader.error("a grid has at most \(GridLimits.maximumSections) sections", at: start)
            }
        }
        return sections
    }

    private static func readItems(_ reader: inout JSONReader, section: Int, keys: inout [String?], sync: inout [GridSyncIdentity.Entry?],
                                  totalItems: inout Int) throws(JSONError) -> [TileSize?] {
        var items: [TileSize?] = []
        try reader.beginArray()
        while try reader.nextElement() {
            var index: Int?
            var size: TileSize?
            var itemKey: String?
            var itemSync: GridSyncIdentity.Entry?
            let start = reader.mark()
            try reader.beginObject()
            while let key = try reader.nextKey() {
                switch key {
                case "index": index = try reader.readInteger()
                case "size": size = try readSize(&reader, what: "the size of item \(items.count) of section \(section)")
                case "key": itemKey = try reader.readString()
                case "sync": itemSync = try readSync(&reader)
                default: try reader.skipValue()
                }
            }
            guard let index else { throw reader.error("item \(items.count) of section \(section) has no \"index\"", at: start) }
            guard index == items.count else {
                throw reader.error("item \(items.count) of section \(section) has index \(index); "
                                   + "items must be listed in order with indices 0, 1, 2, … (no gaps, no duplicates)", at: start)
            }
            guard let size else { throw reader.error("item \(index) of section \(section) has no \"size\"", at: start) }
            if let itemKey { appendKey(itemKey, at: items.count, to: &keys) }
            sync.append(itemSync)
            items.append(size)
            totalItems += 1
            guard totalItems <= GridLimits.maximumItems else {
                throw reader.error("a grid holds at most \(GridLimits.maximumItems) items", at: start)
            }
        }
        if !keys.isEmpty, keys.count < items.count { keys.append(contentsOf: repeatElement(nil, count: items.count - keys.count)) }
        return items
    }

    /// A section's or an item's `"sync"`: `{"id":…,"order":…}`, checked when the whole document is read.
    private static func readSync(_ reader: inout JSONReader) throws(JSONError) -> GridSyncIdentity.Entry {
        let start = reader.mark()
        var id: String?, order: String?
        try reader.beginObject()
        while let key = try reader.nextKey() {
            switch key {
            case "id": id = try reader.readString()
            case "order": order = try reader.readString()
            default: try reader.skipValue()
            }
        }
        guard let id, let order else { throw reader.error("a \"sync\" object has an \"id\" and an \"order\"", at: start) }
        return GridSyncIdentity.Entry(id: id, order: order)
    }

    /// The `"sync"` objects of a document's sections and items, as read.
    private struct SyncEntries {
        var sections: [GridSyncIdentity.Entry?] = []
        var items: [[GridSyncIdentity.Entry?]] = []

        /// The identity, when every section and item has one; `nil` when none has.
        func identity() throws(GridDocumentError) -> GridSyncIdentity? {
            let given = sections.filter { $0 != nil }.count + items.reduce(0) { $0 + $1.filter { $0 != nil }.count }
            if given == 0 { return nil }
            guard given == sections.count + items.reduce(0, { $0 + $1.count }) else {
                throw .invalid("\"sync\" is given for some sections and items and not others: every one has it, or none")
            }
            return GridSyncIdentity(sections: sections.map { $0! }, items: items.map { $0.map { $0! } })
        }
    }

    /// The items of a honeycomb document: only their count and order matter.
    private static func readHoneycombItems(_ reader: inout JSONReader, keys: inout [String?]) throws(JSONError) -> Int {
        var count = 0
        try reader.beginArray()
        while try reader.nextElement() {
            let start = reader.mark()
            var index: Int?
            var itemKey: String?
            try reader.beginObject()
            while let key = try reader.nextKey() {
                switch key {
                case "index": index = try reader.readInteger()
                case "key": itemKey = try reader.readString()
                default: try reader.skipValue()
                }
            }
            guard index == count else {
                throw reader.error("honeycomb item \(count) has index \(index.map(String.init) ?? "none"); "
                                   + "items must be listed in order with indices 0, 1, 2, …", at: start)
            }
            if let itemKey { appendKey(itemKey, at: count, to: &keys) }
            count += 1
            guard count <= GridLimits.maximumItems else { throw reader.error("a grid holds at most \(GridLimits.maximumItems) items", at: start) }
        }
        if !keys.isEmpty, keys.count < count { keys.append(contentsOf: repeatElement(nil, count: count - keys.count)) }
        return count
    }

    /// Adds the key of item `item` to the keys read so far, which exist only from the first key on
    /// (so that a document without keys allocates nothing for them).
    private static func appendKey(_ key: String, at item: Int, to keys: inout [String?]) {
        if keys.count < item { keys.append(contentsOf: repeatElement(nil, count: item - keys.count)) }
        keys.append(key)
    }

    private static func readSize(_ reader: inout JSONReader, what: @autoclosure () -> String) throws(JSONError) -> TileSize {
        let start = reader.mark()
        let value = try reader.readString()
        guard let size = TileSize(rawValue: value) else {
            throw reader.error("\(what()) is \"\(TextExcerpt.abbreviated(value))\"; sizes are small, middle and big", at: start)
        }
        return size
    }

    private static func resolveColumns(type: String?, columns: Int?) throws(GridDocumentError) -> Int {
        switch (type, columns) {
        case (nil, nil):
            throw .invalid("the document gives neither \"type\" nor \"columns\"")
        case (let type?, _) where !["less", "more", "custom"].contains(type):
            throw .invalid("\"type\" is less, more or custom, not \"\(TextExcerpt.abbreviated(type))\"")
        case ("custom", nil):
            throw .invalid("a \"custom\" type needs \"columns\"")
        case (let type?, nil):
            return LayoutType(rawValue: type)!.columns
        case (let type?, let columns?) where type != "custom" && LayoutType(rawValue: type)?.columns != columns:
            throw .invalid("\"type\" \(type) has \(LayoutType(rawValue: type)!.columns) columns, but \"columns\" is \(columns)")
        case (_, let columns?):
            return columns
        }
    }
}

/// Why a grid document was refused.
public enum GridDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON is malformed or has a wrong type, size or order.
    case malformed(JSONError)
    /// The JSON is well formed but does not describe a grid.
    case invalid(String)

    /// What is wrong, with the line and column for malformed JSON.
    public var description: String {
        switch self {
        case .malformed(let error): error.description
        case .invalid(let message): message
        }
    }
}
