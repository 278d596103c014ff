import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

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

    @Test("strings read the same with and without escapes, and an unclosed one is refused")
    func strings() throws {
        let cases: [(json: String, value: String)] = [
            (#""""#, ""), (#""small""#, "small"), (#""grille · ∞ 🧱""#, "grille · ∞ 🧱"),
            (#""a\"b""#, #"a"b"#), (#""\u00e9t\u00e9 😀""#, "été 😀"), (#""tab\tend""#, "tab\tend"),
        ]
        for (json, value) in cases {
            var reader = JSONReader(Array(("[" + json + "," + json + "]").utf8))
            try reader.beginArray()
            #expect(try reader.nextElement())
            #expect(try reader.readString() == value, "\(json)")
            #expect(try reader.nextElement())
            #expect(try reader.readString() == value, "\(json)")
            #expect(try !reader.nextElement())
        }
        var unclosed = JSONReader(Array(#""abc"#.utf8))
        #expect(throws: JSONError.self) { try unclosed.readString() }
    }
}
