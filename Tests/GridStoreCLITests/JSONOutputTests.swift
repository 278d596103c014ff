@testable import GridStore
@testable import GridStoreCLI
import SeededRandom
import Testing

/// The command line's one JSON encoder, against the engine's JSON reader.
@Suite struct JSONOutputTests {
    /// A result of every shape the commands print: strings, integers, booleans, `null`, lists
    /// and objects in objects.
    struct Sample: Encodable, Equatable {
        var name: String
        var count: Int
        var flag: Bool
        var note: String?
        var tags: [String?]
        var children: [Sample]

        static func random(depth: Int, using random: inout SeededGenerator) -> Sample {
            Sample(name: randomText(using: &random), count: Int.random(in: Int.min...Int.max, using: &random),
                   flag: Bool.random(using: &random), note: Bool.random(using: &random) ? randomText(using: &random) : nil,
                   tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                       Bool.random(using: &random) ? randomText(using: &random) : nil
                   },
                   children: depth == 0 ? [] : (0..<Int.random(in: 0...3, using: &random)).map { _ in
                       Sample.random(depth: depth - 1, using: &random)
                   })
        }

        /// Reads what ``JSONOutput/text(_:layout:)`` wrote of a sample.
        static func read(_ reader: inout JSONReader) throws -> Sample {
            var sample = Sample(name: "", count: 0, flag: false, note: nil, tags: [], children: [])
            var keys: [String] = []
            try reader.beginObject()
            while let key = try reader.nextKey() {
                keys.append(key)
                switch key {
                case "name": sample.name = try reader.readString()
                case "count": sample.count = try reader.readInteger()
                case "flag": sample.flag = try reader.readBoolean()
                case "note": sample.note = try reader.isNull() ? nil : reader.readString()
                case "tags":
                    try reader.beginArray()
                    while try reader.nextElement() { sample.tags.append(try reader.isNull() ? nil : reader.readString()) }
                case "children":
                    try reader.beginArray()
                    while try reader.nextElement() { sample.children.append(try read(&reader)) }
                default: Issue.record("unexpected key \(key)")
                }
            }
            #expect(keys == ["name", "count", "flag", "note", "tags", "children"], "keys in declaration order, nil ones as null")
            return sample
        }
    }

    /// Text of up to 12 scalars, drawn so that quotes, backslashes, control characters (C0, C1,
    /// bidirectional) and characters outside the basic plane come often.
    static func randomText(using random: inout SeededGenerator) -> String {
        let awkward: [Unicode.Scalar] = ["\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{7F}", "\u{9B}", "\u{202E}", "\u{2066}",
                                         "é", "😀", "/", "\u{FEFF}"]
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            if Bool.random(using: &random) {
                text.append(awkward.randomElement(using: &random)!)
            } else {
                text.append(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &random)))
            }
        }
        return String(text)
    }

    @Test("what the encoder writes reads back as the same values, with no control character left unescaped", arguments: 0..<200)
    func roundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let sample = Sample.random(depth: 2, using: &random)
        for layout in [JSONOutput.Layout.compact, .listsOnLines] {
            let text = JSONOutput.text(sample, layout: layout)
            #expect(text.hasSuffix("\n"), "seed \(seed)")
            #expect(!text.dropLast().unicodeScalars.contains { GridLimits.isControlCharacter($0) && $0 != "\n" }, "seed \(seed): \(text)")
            var reader = JSONReader(Array(text.utf8))
            let read = try Sample.read(&reader)
            try reader.expectEnd()
            #expect(read == sample, "seed \(seed)")
        }
    }

    @Test("lists of objects in the outermost object take a line an element; everything else stays on one line")
    func layout() {
        struct Inner: Encodable { let a: Int; let b: [Int] }
        struct Outer: Encodable { let grid: String; let numbers: [Int]; let entries: [Inner]; let nested: [[Inner]] }
        let value = Outer(grid: "g", numbers: [1, 2], entries: [Inner(a: 1, b: [1, 2]), Inner(a: 2, b: [])],
                          nested: [[Inner(a: 3, b: [])], []])
        #expect(JSONOutput.text(value) == #"{"grid":"g","numbers":[1,2],"entries":[{"a":1,"b":[1,2]},{"a":2,"b":[]}],"nested":[[{"a":3,"b":[]}],[]]}"# + "\n")
        #expect(JSONOutput.text(value, layout: .listsOnLines)
                == #"{"grid":"g","numbers":[1,2],"entries":[{"a":1,"b":[1,2]},"# + "\n " + #"{"a":2,"b":[]}],"nested":[[{"a":3,"b":[]}],[]]}"# + "\n")
    }

    @Test("a sync's report: a refused grid has its error alone; mergedUnrelated and drop only where they apply")
    func syncReport() {
        var merged = GridSyncResult(grid: "a", sent: 2, otherRevision: (nil, 0), received: 1, revision: (3, 4), conflicts: 1)
        merged.mergedUnrelated = true
        merged.drop = .droppedThere
        let plain = GridSyncResult(grid: "b", sent: 0, otherRevision: (1, 1), received: 0, revision: (1, 1), conflicts: 0)
        let report = SyncReport(other: "o.sqlite", dryRun: false, grids: [
            SyncReport.Grid(synced: merged), SyncReport.Grid(synced: plain), SyncReport.Grid(grid: "c\u{1B}", refusal: "it \"failed\""),
        ])
        #expect(JSONOutput.text(report, layout: .listsOnLines) == #"{"other":"o.sqlite","dryRun":false,"grids":["#
                + #"{"grid":"a","sent":2,"received":1,"revision":{"before":3,"after":4},"otherRevision":{"before":null,"after":0},"#
                + #""conflicts":1,"mergedUnrelated":true,"drop":"there"},"# + "\n "
                + #"{"grid":"b","sent":0,"received":0,"revision":{"before":1,"after":1},"otherRevision":{"before":1,"after":1},"conflicts":0},"#
                + "\n " + #"{"grid":"c\u001b","error":"it \"failed\""}]}"# + "\n")
    }

    @Test("every integer type and Float are numbers; a key encoded twice keeps its last value; a long list is written in linear time")
    func valuesOfEveryKind() {
        struct Numbers: Encodable {
            let values: (UInt8, Int16, UInt32, UInt, Int8, Float, Float)
            func encode(to encoder: any Encoder) throws {
                var list = encoder.unkeyedContainer()
                try list.encode(values.0); try list.encode(values.1); try list.encode(values.2); try list.encode(values.3)
                try list.encode(values.4); try list.encode(values.5); try list.encode(values.6)
            }
        }
        #expect(JSONOutput.text(Numbers(values: (255, -300, 70_000, UInt.max, -128, 2, 0.5))) == "[255,-300,70000,\(UInt.max),-128,2,0.5]\n")
        struct Twice: Encodable {
            private enum CodingKeys: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode([1, 2], forKey: .a)
                try container.encode("b", forKey: .b)
                try container.encode(["x": 1], forKey: .a)
                try container.encode(3, forKey: .a)
            }
        }
        #expect(JSONOutput.text(Twice()) == #"{"a":3,"b":"b"}"# + "\n")
        struct Long: Encodable { let keys: [String?] }
        let text = JSONOutput.text(Long(keys: Array(repeating: "k", count: 200_000)))
        #expect(text.utf8.count == #"{"keys":[]}"#.utf8.count + 200_000 * 4 - 1 + 1)
    }

    @Test("a nil optional of every standard type is written as null, not left out")
    func nilsOfEveryType() {
        struct Nils: Encodable {
            var a: Bool?, b: String?, c: Double?, d: Float?, e: Int?, f: Int8?, g: Int16?, h: Int32?, i: Int64?
            var j: UInt?, k: UInt8?, l: UInt16?, m: UInt32?, n: UInt64?, o: [Int]?
        }
        let keys = "abcdefghijklmno".map { "\"\($0)\":null" }.joined(separator: ",")
        #expect(JSONOutput.text(Nils()) == "{\(keys)}\n")
    }

    @Test("control characters, C1 and bidirectional controls are written as \\u escapes")
    func escapes() {
        #expect(JSONOutput.quoted("a\u{202E}b\u{9B}c\u{1B}\"\\\n") == #""a\u202eb\u009bc\u001b\"\\\n""#)
    }

    @Test("printed counts set thousands apart, as the engine's messages do", arguments: [0, 7, 999, 1_000, 1_000_001, -12_345, Int.min, Int.max])
    func counts(value: Int) {
        #expect(PrintedNumber.count(value) == NumberText.count(value))
    }
}
