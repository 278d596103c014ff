import Testing
@testable import GridStoreCLI

@Suite("JSONReader")
struct JSONReaderTests {
    /// Reads any value into a comparable description, using only the reader's calls.
    func describe(_ text: String) throws(JSONError) -> String {
        var reader = JSONReader(Array(text.utf8))
        let result = try value(&reader)
        try reader.expectEnd()
        return result
    }

    func value(_ reader: inout JSONReader) throws(JSONError) -> String {
        switch try reader.peekKind() {
        case .object:
            try reader.beginObject()
            var members: [String] = []
            while let key = try reader.nextKey() { members.append("\(key)=\(try value(&reader))") }
            return "{" + members.joined(separator: ",") + "}"
        case .array:
            try reader.beginArray()
            var elements: [String] = []
            while try reader.nextElement() { elements.append(try value(&reader)) }
            return "[" + elements.joined(separator: ",") + "]"
        case .string:
            return "'" + (try reader.readString()) + "'"
        case .number:
            return String(try reader.readInteger())
        default:
            try reader.skipValue()
            return "literal"
        }
    }

    @Test("reads nested values, escapes and white space")
    func values() throws {
        #expect(try describe(#" { "a" : [1, -2, {"b": "c\n\u00e9\ud83d\ude00\/"}], "d": true, "e": null } "#)
                == "{a=[1,-2,{b='c\né😀/'}],d=literal,e=literal}")
        #expect(try describe("[]") == "[]")
        #expect(try describe("{}") == "{}")
        #expect(try describe("\u{FEFF}[0]") == "[0]")
    }

    @Test("skips values of any shape, including deep nesting within the limit")
    func skipping() throws {
        var reader = JSONReader(Array(#"{"skip": {"x": [1.5e3, "s", [true, false, null, {"y": -0.25}]]}, "keep": 7}"#.utf8))
        try reader.beginObject()
        #expect(try reader.nextKey() == "skip")
        try reader.skipValue()
        #expect(try reader.nextKey() == "keep")
        #expect(try reader.readInteger() == 7)
        #expect(try reader.nextKey() == nil)
        try reader.expectEnd()
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        var deepReader = JSONReader(Array(deep.utf8))
        try deepReader.skipValue()
    }

    @Test("refuses malformed input with a position", arguments: [
        ("[1,]", "line 1, column 4: unexpected character ']' where a value was expected"),
        ("[01]", "line 1, column 2: a number cannot have leading zeros"),
        ("[1.5]", "line 1, column 2: expected a whole number"),
        ("[99999999999999999999]", "line 1, column 2: the number is too large"),
        ("\"a\u{01}\"", "line 1, column 3: a control character must be escaped in a string"),
        (#""\x""#, #"line 1, column 2: \x is not a JSON escape"#),
        (#""\ud800""#, #"line 1, column 8: a \u escape has a high surrogate without its low surrogate"#),
        ("[1 2]", "line 1, column 4: expected ',' or ']' after an array element"),
        ("{\"a\" 1}", "line 1, column 6: expected ':' after the key \"a\""),
        ("[1]\n[2]", "line 2, column 1: unexpected text after the document's end"),
        ("", "line 1, column 1: the document ends where a value was expected"),
        ("[tru]", "line 1, column 2: expected true, false or null"),
    ])
    func malformed(text: String, message: String) {
        #expect(throws: JSONError.self) { try describe(text) }
        do {
            _ = try describe(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("refuses nesting deeper than the limit instead of overflowing the stack")
    func tooDeep() {
        let deep = String(repeating: "[", count: 100_000)
        var reader = JSONReader(Array(deep.utf8))
        #expect(throws: JSONError.self) { try reader.skipValue() }
    }

    @Test("invalid UTF-8 in a string is refused")
    func invalidUTF8() {
        var reader = JSONReader([0x22, 0xFF, 0xFE, 0x22])
        #expect(throws: JSONError.self) { try reader.readString() }
    }
}

@Suite("PropertyListReader")
struct PropertyListReaderTests {
    @Test("reads every value type, entities, CDATA and comments")
    func values() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <!-- a comment -->
            <dict>
                <key>s</key><string>a &amp; b &lt;&#65;&#x42;&gt;</string>
                <key>c</key><string><![CDATA[<raw>]]></string>
                <key>n</key><integer>-3</integer>
                <key>r</key><real>1.5</real>
                <key>t</key><true/>
                <key>e</key><string/>
                <key>a</key><array><false/><date>2026-01-01T00:00:00Z</date><data>AAE=</data></array>
                <key>d</key><dict/>
            </dict>
            </plist>
            """
        let value = try PropertyListReader.read(Array(text.utf8))
        guard case .dictionary(let entries) = value else { Issue.record("not a dictionary"); return }
        #expect(entries.map(\.key) == ["s", "c", "n", "r", "t", "e", "a", "d"])
        #expect(entries[0].value == .string("a & b <AB>"))
        #expect(entries[1].value == .string("<raw>"))
        #expect(entries[2].value == .scalar(kind: "integer", text: "-3"))
        #expect(entries[4].value == .boolean(true))
        #expect(entries[5].value == .string(""))
        #expect(entries[6].value == .array([.boolean(false), .scalar(kind: "date", text: "2026-01-01T00:00:00Z"), .data("AAE=")]))
        #expect(entries[7].value == .dictionary([]))
    }

    @Test("refuses malformed documents", arguments: [
        "<plist><dict><key>a</key>",
        "<plist><dict><string>no key</string></dict></plist>",
        "<plist><string>a</strong></plist>",
        "<html></html>",
        "<plist><string>&bogus;</string></plist>",
        "<plist><integer>1</integer></plist><extra/>",
        "bplist00...",
        "",
    ])
    func malformed(text: String) {
        #expect(throws: PropertyListError.self) { try PropertyListReader.read(Array(text.utf8)) }
    }

    @Test("the original's keys and values are recognised exactly")
    func legacyKeys() {
        #expect(LegacySizeKey.indexPath(of: "r:12_s:3_grid_item_size") == .init(item: 12, section: 3))
        #expect(LegacySizeKey.indexPath(of: "r:12_s:3_grid_item_sizes") == nil)
        #expect(LegacySizeKey.indexPath(of: "r:-1_s:0_grid_item_size") == nil)
        #expect(LegacySizeKey.indexPath(of: "r:_s:0_grid_item_size") == nil)
        #expect(LegacySizeKey.indexPath(of: "r:1_s:2_s:3_grid_item_size") == nil)
        #expect(LegacySizeKey.size(named: "grid_size_middle") == .middle)
        #expect(LegacySizeKey.size(named: "middle") == nil)
    }
}
