import Foundation
import Testing
@testable import GridStore
@testable import GridStoreSQLite
import GridStoreAudit

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
        #expect(LegacySizeKey.indexPath(of: "r:01_s:0_grid_item_size") == nil)
        #expect(LegacySizeKey.indexPath(of: "r:0_s:00_grid_item_size") == nil)
        #expect(LegacySizeKey.indexPath(of: "r:0_s:0_grid_item_size") == .init(item: 0, section: 0))
        #expect(LegacySizeKey.size(named: "grid_size_middle") == .middle)
        #expect(LegacySizeKey.size(named: "middle") == nil)
    }
}

/// The binary property list reader against Foundation's writer, and against damaged files.
@Suite("BinaryPropertyListReader")
struct BinaryPropertyListReaderTests {
    func binary(_ value: Any) throws -> [UInt8] {
        Array(try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0))
    }

    @Test("reads what Foundation writes: strings in UTF-8 and UTF-16, numbers, booleans, arrays, dictionaries")
    func reads() throws {
        let value = try PropertyListReader.read(binary([
            "a": "text", "b": "Grüße 🧩", "c": 42, "d": -7, "e": 1.5, "f": true, "g": ["x", 1], "h": ["k": "v"],
            "i": 5_000_000_000,
        ] as [String: Any]))
        guard case .dictionary(let entries) = value else { Issue.record("not a dictionary"); return }
        let byKey = Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
        #expect(byKey["a"] == .string("text"))
        #expect(byKey["b"] == .string("Grüße 🧩"))
        #expect(byKey["c"] == .scalar(kind: "integer", text: "42"))
        #expect(byKey["d"] == .scalar(kind: "integer", text: "-7"))
        #expect(byKey["e"] == .scalar(kind: "real", text: "1.5"))
        #expect(byKey["f"] == .boolean(true))
        #expect(byKey["g"] == .array([.string("x"), .scalar(kind: "integer", text: "1")]))
        #expect(byKey["h"] == .dictionary([(key: "k", value: .string("v"))]))
        #expect(byKey["i"] == .scalar(kind: "integer", text: "5000000000"))
    }

    @Test("damaged files are refused, never crash: every truncation and 20,000 random byte changes")
    func damaged() throws {
        let valid = try binary(["r:0_s:0_grid_item_size": "grid_size_big", "list": [1, 2, ["deep": "x"]], "n": 3.25] as [String: Any])
        // Every truncation loses the trailer, so none is a property list.
        for length in 0..<valid.count {
            #expect(throws: PropertyListError.self, "the first \(length) bytes") { try PropertyListReader.read(Array(valid.prefix(length))) }
        }
        #expect(throws: Never.self) { try PropertyListReader.read(valid) }
        // A changed byte is refused with PropertyListError, or read, the same each time.
        var generator = SystemRandomNumberGenerator()
        var refused = 0
        for _ in 0..<20_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 8..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                let value = try PropertyListReader.read(bytes)
                #expect(try PropertyListReader.read(bytes) == value)
            } catch {
                refused += 1
            }
        }
        #expect(refused > 0)
    }

    @Test("a reference cycle and a huge declared count are refused")
    func hostile() throws {
        // One array (object 0) whose only element is itself.
        var cycle = Array("bplist00".utf8) + [0xA1, 0x00]
        let tableStart = cycle.count
        cycle += [0x08]
        cycle += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, UInt8(tableStart)]
        #expect(throws: PropertyListError.self) { try PropertyListReader.read(cycle) }
        var huge = Array("bplist00".utf8) + [0xAF, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]
        let hugeTable = huge.count
        huge += [0x08]
        huge += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, 0, UInt8(hugeTable)]
        #expect(throws: PropertyListError.self) { try PropertyListReader.read(huge) }
    }

    @Test("arrays that each refer to the next 200 times, 200^4 values from a kilobyte, are refused before they are built")
    func sharedArrays() throws {
        // Objects 0 to 3: arrays of 200 references to the next object; object 4: false.
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for next in 1...4 {
            offsets.append(bytes.count)
            bytes += [0xAF, 0x10, 200] + [UInt8](repeating: UInt8(next), count: 200)
        }
        offsets.append(bytes.count)
        bytes.append(0x08)
        let tableStart = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1] + [0, 0, 0, 0, 0, 0, 0, 5] + [UInt8](repeating: 0, count: 8)
            + [0, 0, 0, 0, 0, 0, UInt8(tableStart >> 8), UInt8(tableStart & 0xFF)]
        #expect(bytes.count < 1_000)
        #expect(throws: PropertyListError(message: "not a valid binary property list: its arrays and dictionaries refer to "
                                          + "shared ones more often than a file of its size can hold", line: 1)) {
            try PropertyListReader.read(bytes)
        }
        // A string shared by many keys, as Foundation writes it, is read.
        let shared = try binary(Dictionary(uniqueKeysWithValues: (0..<2_000).map { ("r:0_s:\($0)_grid_item_size", "grid_size_big") }))
        guard case .dictionary(let entries) = try PropertyListReader.read(shared) else { Issue.record("not a dictionary"); return }
        #expect(entries.count == 2_000)
    }
}
