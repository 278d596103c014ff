import GridLayout

/// The text of a history entry's edits: a JSON array with one array per edit, readable in
/// `sqlite3` and `psql`.
///
/// ```
/// [["size",0,3,null,"middle"]]                     toggle 3
/// [["insert",0,0,"big","mail"]]                    insert 0 --size big --key mail
/// [["count",0,12,14,"2.",[]]]                      items 14
/// ```
///
/// Runs of sizes are written as `<count><letter>` (`s`, `m`, `b`, and `.` for the default
/// size; a count of 1 is left out), so a section of 100,000 default items is `100000.`.
/// A delta read back is input like any other: every value is checked, and a malformed one is
/// ``GridError/corrupted(_:)``.
enum HistoryDelta {
    // MARK: Encoding

    /// The delta text of `edits`.
    static func encode(_ edits: [GridEdit]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(2 + edits.count * 24)
        text.append(UInt8(ascii: "["))
        // A size edit, by far the most common (a bulk set records thousands), is written in
        // place; the others go through their string form.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longestSizeEdit) { scratch in
            for (index, edit) in edits.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                guard case .size(let path, let from, let to) = edit else {
                    text.append(contentsOf: encode(edit).utf8)
                    continue
                }
                let start = scratch.baseAddress!
                var cursor = start
                cursor.write("[\"size\",")
                cursor.writeDecimal(path.section)
                cursor.write(UInt8(ascii: ","))
                cursor.writeDecimal(path.item)
                cursor.writeOptionalName(of: from)
                cursor.writeOptionalName(of: to)
                cursor.write(UInt8(ascii: "]"))
                text.append(contentsOf: UnsafeBufferPointer(start: start, count: cursor - start))
            }
        }
        text.append(UInt8(ascii: "]"))
        return String(decoding: text, as: UTF8.self)
    }

    /// `["size",` two numbers of up to 19 digits, two names and the closing bracket.
    private static let longestSizeEdit = 8 + 19 + 1 + 19 + 2 * 9 + 1

    private static func encode(_ edit: GridEdit) -> String {
        switch edit {
        case .size(let path, let from, let to):
            return "[\"size\",\(path.section),\(path.item),\(name(from)),\(name(to))]"
        case .defaultSize(let from, let to):
            return "[\"default\",\(name(from)),\(name(to))]"
        case .columns(let from, let to):
            return "[\"columns\",\(from),\(to)]"
        case .direction(let from, let to):
            return "[\"direction\",\"\(from.rawValue)\",\"\(to.rawValue)\"]"
        case .itemCount(let section, let from, let to, let tail):
            return "[\"count\",\(section),\(from),\(to),\(contents(tail))]"
        case .insert(let path, let size, let key):
            return "[\"insert\",\(path.section),\(path.item),\(name(size)),\(quoted(key))]"
        case .delete(let path, let size, let key):
            return "[\"delete\",\(path.section),\(path.item),\(name(size)),\(quoted(key))]"
        case .move(let from, let to):
            return "[\"move\",\(from.section),\(from.item),\(to.section),\(to.item)]"
        case .insertSection(let index, let section):
            return "[\"insertSection\",\(index),\(contents(section))]"
        case .removeSection(let index, let section):
            return "[\"removeSection\",\(index),\(contents(section))]"
        case .key(let path, let from, let to):
            return "[\"key\",\(path.section),\(path.item),\(quoted(from)),\(quoted(to))]"
        case .section(let index, let from, let to):
            return "[\"section\",\(index),\(contents(from)),\(contents(to))]"
        case .content(let from, let to):
            return "[\"content\",\(content(from)),\(content(to))]"
        }
    }

    private static func name(_ size: TileSize?) -> String { size.map { "\"\($0.rawValue)\"" } ?? "null" }

    private static func quoted(_ key: String?) -> String { key.map(JSONText.quoted) ?? "null" }

    /// `"<runs>",[keys]`: a section's sizes as runs, then its keys (`[]` when none has one).
    private static func contents(_ section: GridEdit.SectionContents) -> String {
        "\"\(runs(section.sizes))\",[\(section.keys.map(quoted).joined(separator: ","))]"
    }

    /// Sizes as runs: `3.m2b` is three default items, a middle one and two big ones.
    static func runs(_ sizes: [TileSize?]) -> String {
        var text = ""
        var index = 0
        while index < sizes.count {
            let size = sizes[index]
            var end = index + 1
            while end < sizes.count, sizes[end] == size { end += 1 }
            if end - index > 1 { text += String(end - index) }
            text += letter(size)
            index = end
        }
        return text
    }

    private static func letter(_ size: TileSize?) -> String {
        switch size {
        case nil: "."
        case .small: "s"
        case .middle: "m"
        case .big: "b"
        }
    }

    private static func content(_ content: GridContent) -> String {
        var text = "{\"columns\":\(content.columns),\"direction\":\"\(content.direction.rawValue)\","
        text += "\"defaultSize\":\"\(content.defaultSize.rawValue)\",\"sections\":["
        text += content.sections.map { "\"\(runs($0))\"" }.joined(separator: ",") + "]"
        if content.keys.contains(where: { !$0.isEmpty }) {
            text += ",\"keys\":[" + content.keys.map { "[" + $0.map(quoted).joined(separator: ",") + "]" }.joined(separator: ",") + "]"
        }
        if let honeycomb = content.honeycomb {
            text += ",\"honeycomb\":{\"elementWidth\":\(honeycomb.elementWidth.description),"
                + "\"itemSpacing\":\(honeycomb.itemSpacing.description),\"orientation\":\"\(honeycomb.orientation.rawValue)\","
                + "\"centerItem\":\"\(honeycomb.centerItem.rawValue)\",\"ringOrder\":\"\(honeycomb.ringOrder.rawValue)\","
                + "\"scalingCurve\":\"\(honeycomb.scalingCurve.rawValue)\"}"
        }
        return text + "}"
    }

    // MARK: Decoding

    /// The most sizes the runs of one entry's edits may hold, all edits together: a change
    /// that replaces a full grid's content several times over, and far from what a few bytes
    /// of runs could ask for (`1000000.` a thousand times over is 10^9).
    static let maximumSizesPerEntry = 8 * GridLimits.maximumItems

    /// The most edits one entry may hold: a bulk set of every item of a full grid, and more.
    static let maximumEditsPerEntry = 4 * GridLimits.maximumItems

    /// The most edits that insert, delete or move one item an entry may hold: each costs up to
    /// a section's length to replay, so a few of them may not add up to hours.
    static let maximumPositionalEditsPerEntry = 100_000

    /// Whether `edits` can be read back: within the edits, positional edits and sizes an entry
    /// may hold, counted as ``decode(_:revision:grid:)`` counts them.
    static func fits(_ edits: [GridEdit]) -> Bool {
        guard edits.count <= maximumEditsPerEntry, edits.count(where: isPositional) <= maximumPositionalEditsPerEntry else {
            return false
        }
        var sizes = 0
        for edit in edits {
            sizes += sizeCount(of: edit)
            if sizes > maximumSizesPerEntry { return false }
        }
        return true
    }

    /// How many sizes the runs of `edit` hold when encoded: what a reader counts against
    /// ``maximumSizesPerEntry``.
    static func sizeCount(of edit: GridEdit) -> Int {
        switch edit {
        case .itemCount(_, _, _, let tail): tail.sizes.count
        case .insertSection(_, let contents), .removeSection(_, let contents): contents.sizes.count
        case .section(_, let from, let to): from.sizes.count + to.sizes.count
        case .content(let from, let to): from.sections.reduce(0) { $0 + $1.count } + to.sections.reduce(0) { $0 + $1.count }
        case .size, .defaultSize, .columns, .direction, .insert, .delete, .move, .key: 0
        }
    }

    /// Whether `edit` inserts, deletes or moves one item: one that costs a section's length to replay.
    private static func isPositional(_ edit: GridEdit) -> Bool {
        switch edit {
        case .insert, .delete, .move: true
        default: false
        }
    }

    /// The edits of delta text, every value checked.
    ///
    /// Runs are counted against ``maximumSizesPerEntry`` before they are expanded, so memory
    /// and time are bounded by that, whatever the text asks for.
    ///
    /// - Throws: ``GridError/corrupted(_:)`` naming what is wrong.
    static func decode(_ text: String, revision: Int, grid: String) throws(GridError) -> [GridEdit] {
        var reader = JSONReader(Array(text.utf8))
        var sizesLeft = maximumSizesPerEntry
        do throws(JSONError) {
            var edits: [GridEdit] = []
            var positional = 0
            try reader.beginArray()
            while try reader.nextElement() {
                guard edits.count < maximumEditsPerEntry else {
                    throw reader.error("it holds more than \(maximumEditsPerEntry) edits, more than any change makes")
                }
                let edit = try readEdit(&reader, sizesLeft: &sizesLeft)
                if isPositional(edit) {
                    positional += 1
                    guard positional <= maximumPositionalEditsPerEntry else {
                        throw reader.error("it holds more than \(maximumPositionalEditsPerEntry) inserts, deletes and moves")
                    }
                }
                edits.append(edit)
            }
            try reader.expectEnd()
            return edits
        } catch {
            throw .corrupted("grid '\(grid)' has a history entry for revision \(revision) that cannot be read: \(error)")
        }
    }

    private static func readEdit(_ reader: inout JSONReader, sizesLeft: inout Int) throws(JSONError) -> GridEdit {
        try reader.beginArray()
        guard try reader.nextElement() else { throw reader.error("an edit is an array that starts with its name") }
        let edit: GridEdit
        switch try reader.readString() {
        case "size": edit = .size(try path(&reader), from: try size(&reader), to: try size(&reader))
        case "default": edit = .defaultSize(from: try requiredSize(&reader), to: try requiredSize(&reader))
        case "columns": edit = .columns(from: try count(&reader, upTo: GridConfiguration.maximumColumns),
                                        to: try count(&reader, upTo: GridConfiguration.maximumColumns))
        case "direction": edit = .direction(from: try direction(&reader), to: try direction(&reader))
        case "count":
            let section = try index(&reader, upTo: GridLimits.maximumSections)
            edit = .itemCount(section: section, from: try count(&reader, upTo: GridLimits.maximumItems),
                              to: try count(&reader, upTo: GridLimits.maximumItems), tail: try contents(&reader, &sizesLeft))
        case "insert": edit = .insert(try path(&reader), size: try size(&reader), key: try key(&reader))
        case "delete": edit = .delete(try path(&reader), size: try size(&reader), key: try key(&reader))
        case "move": edit = .move(from: try path(&reader), to: try path(&reader))
        case "insertSection":
            edit = .insertSection(try index(&reader, upTo: GridLimits.maximumSections), try contents(&reader, &sizesLeft))
        case "removeSection":
            edit = .removeSection(try index(&reader, upTo: GridLimits.maximumSections), try contents(&reader, &sizesLeft))
        case "key": edit = .key(try path(&reader), from: try key(&reader), to: try key(&reader))
        case "section":
            edit = .section(try index(&reader, upTo: GridLimits.maximumSections), from: try contents(&reader, &sizesLeft),
                            to: try contents(&reader, &sizesLeft))
        case "content": edit = .content(from: try content(&reader, &sizesLeft), to: try content(&reader, &sizesLeft))
        case let other: throw reader.error("unknown edit '\(other.prefix(40))'")
        }
        guard try !reader.nextElement() else { throw reader.error("an edit has more values than it takes") }
        return edit
    }

    private static func next(_ reader: inout JSONReader) throws(JSONError) {
        guard try reader.nextElement() else { throw reader.error("an edit has fewer values than it takes") }
    }

    private static func index(_ reader: inout JSONReader, upTo limit: Int) throws(JSONError) -> Int {
        try next(&reader)
        let value = try reader.readInteger()
        guard value >= 0, value < limit else { throw reader.error("\(value) is not an index from 0 to \(limit - 1)") }
        return value
    }

    private static func count(_ reader: inout JSONReader, upTo limit: Int) throws(JSONError) -> Int {
        try next(&reader)
        let value = try reader.readInteger()
        guard value >= 0, value <= limit else { throw reader.error("\(value) is not a count from 0 to \(limit)") }
        return value
    }

    private static func path(_ reader: inout JSONReader) throws(JSONError) -> GridIndexPath {
        let section = try index(&reader, upTo: GridLimits.maximumSections)
        return GridIndexPath(item: try index(&reader, upTo: GridLimits.maximumItems), section: section)
    }

    private static func size(_ reader: inout JSONReader) throws(JSONError) -> TileSize? {
        try nullable(&reader, sizeValue)
    }

    /// The next element: `null`, or a value `read` reads.
    private static func nullable<Value>(_ reader: inout JSONReader,
                                        _ read: (inout JSONReader) throws(JSONError) -> Value) throws(JSONError) -> Value? {
        try next(&reader)
        if try reader.peekKind() == .null {
            try reader.skipValue()
            return nil
        }
        return try read(&reader)
    }

    private static func requiredSize(_ reader: inout JSONReader) throws(JSONError) -> TileSize {
        try next(&reader)
        return try sizeValue(&reader)
    }

    private static func sizeValue(_ reader: inout JSONReader) throws(JSONError) -> TileSize {
        let text = try reader.readString()
        guard let size = TileSize(rawValue: text) else { throw reader.error("'\(text.prefix(40))' is not a size") }
        return size
    }

    private static func direction(_ reader: inout JSONReader) throws(JSONError) -> ScrollDirection {
        try next(&reader)
        let text = try reader.readString()
        guard let direction = ScrollDirection(rawValue: text) else { throw reader.error("'\(text.prefix(40))' is not a direction") }
        return direction
    }

    private static func key(_ reader: inout JSONReader) throws(JSONError) -> String? {
        try nullable(&reader, keyValue)
    }

    private static func keyValue(_ reader: inout JSONReader) throws(JSONError) -> String {
        let key = try reader.readString()
        do {
            try GridLimits.validate(key: key)
        } catch {
            throw reader.error(error.description)
        }
        return key
    }

    /// `"<runs>",[keys]`.
    private static func contents(_ reader: inout JSONReader, _ sizesLeft: inout Int) throws(JSONError) -> GridEdit.SectionContents {
        try next(&reader)
        let sizes = try parseRuns(try reader.readString(), reader: reader, sizesLeft: &sizesLeft)
        try next(&reader)
        let keys = try keyList(&reader)
        guard keys.isEmpty || keys.count == sizes.count else { throw reader.error("the keys do not match the sizes") }
        return GridEdit.SectionContents(sizes: sizes, keys: keys)
    }

    private static func keyList(_ reader: inout JSONReader) throws(JSONError) -> [String?] {
        var keys: [String?] = []
        try reader.beginArray()
        while try reader.nextElement() {
            if try reader.peekKind() == .null {
                try reader.skipValue()
                keys.append(nil)
            } else {
                keys.append(try keyValue(&reader))
            }
            guard keys.count <= GridLimits.maximumItems else { throw reader.error("too many keys") }
        }
        return keys
    }

    /// The sizes of runs text, at most ``GridLimits/maximumItems`` of them and at most
    /// `sizesLeft`, which they are taken from.
    static func parseRuns(_ text: String, reader: JSONReader, sizesLeft: inout Int) throws(JSONError) -> [TileSize?] {
        var sizes: [TileSize?] = []
        var count = 0
        var hasCount = false
        for byte in text.utf8 {
            if byte >= 48 && byte <= 57 {
                count = count * 10 + Int(byte - 48)
                hasCount = true
                guard count <= GridLimits.maximumItems else { throw reader.error("a run of sizes is too long") }
                continue
            }
            let size: TileSize?
            switch byte {
            case UInt8(ascii: "."): size = nil
            case UInt8(ascii: "s"): size = .small
            case UInt8(ascii: "m"): size = .middle
            case UInt8(ascii: "b"): size = .big
            default: throw reader.error("runs of sizes are made of digits and s, m, b or .")
            }
            let length = hasCount ? count : 1
            guard sizes.count + length <= GridLimits.maximumItems else { throw reader.error("the runs hold too many sizes") }
            guard length <= sizesLeft else {
                throw reader.error("its edits hold more than \(maximumSizesPerEntry) sizes, more than any change makes")
            }
            sizesLeft -= length
            sizes.append(contentsOf: repeatElement(size, count: length))
            count = 0
            hasCount = false
        }
        guard !hasCount else { throw reader.error("runs of sizes end with a count") }
        return sizes
    }

    private static func content(_ reader: inout JSONReader, _ sizesLeft: inout Int) throws(JSONError) -> GridContent {
        try next(&reader)
        var columns = 0, direction = ScrollDirection.vertical, defaultSize = TileSize.small
        var sections: [[TileSize?]] = [], keys: [[String?]] = []
        var total = 0
        var honeycomb: HoneycombConfiguration?
        try reader.beginObject()
        while let field = try reader.nextKey() {
            switch field {
            case "columns": columns = try reader.readInteger()
            case "direction":
                let text = try reader.readString()
                guard let value = ScrollDirection(rawValue: text) else { throw reader.error("'\(text.prefix(40))' is not a direction") }
                direction = value
            case "defaultSize": defaultSize = try sizeValue(&reader)
            case "sections":
                try reader.beginArray()
                while try reader.nextElement() {
                    sections.append(try parseRuns(try reader.readString(), reader: reader, sizesLeft: &sizesLeft))
                    total += sections.last!.count
                    guard total <= GridLimits.maximumItems else {
                        throw reader.error("its content holds more than \(GridLimits.maximumItems) items")
                    }
                    guard sections.count <= GridLimits.maximumSections else { throw reader.error("too many sections") }
                }
            case "keys":
                try reader.beginArray()
                while try reader.nextElement() {
                    keys.append(try keyList(&reader))
                    guard keys.count <= GridLimits.maximumSections else { throw reader.error("too many sections of keys") }
                }
            case "honeycomb": honeycomb = try honeycombValue(&reader)
            default: try reader.skipValue()
            }
        }
        var content = GridContent(columns: columns, direction: direction, defaultSize: defaultSize, sections: sections)
        content.keys = keys
        content.honeycomb = honeycomb
        do {
            _ = try content.validatedConfiguration()
        } catch {
            throw reader.error(error.description)
        }
        return content
    }

    private static func honeycombValue(_ reader: inout JSONReader) throws(JSONError) -> HoneycombConfiguration {
        var width = 60.0, spacing = 6.0
        var orientation = HoneycombConfiguration.Orientation.pointyTop, center = HoneycombConfiguration.CenterItem.first
        var ringOrder = HoneycombConfiguration.RingOrder.standard, curve = EdgeScaling.Curve.linear
        func choice<T: RawRepresentable>(_ reader: inout JSONReader) throws(JSONError) -> T where T.RawValue == String {
            let text = try reader.readString()
            guard let value = T(rawValue: text) else { throw reader.error("'\(text.prefix(40))' is not a honeycomb setting") }
            return value
        }
        try reader.beginObject()
        while let field = try reader.nextKey() {
            switch field {
            case "elementWidth": width = try reader.readNumber()
            case "itemSpacing": spacing = try reader.readNumber()
            case "orientation": orientation = try choice(&reader)
            case "centerItem": center = try choice(&reader)
            case "ringOrder": ringOrder = try choice(&reader)
            case "scalingCurve": curve = try choice(&reader)
            default: try reader.skipValue()
            }
        }
        do {
            return try HoneycombConfiguration(elementWidth: width, itemSpacing: spacing, orientation: orientation,
                                              centerItem: center, ringOrder: ringOrder, scalingCurve: curve)
        } catch {
            throw reader.error(error.description)
        }
    }
}
