import Foundation
import SeededRandom

/// Import documents for the fuzzer: valid ones, and ones broken in every way a file can be.
enum Documents {
    static let valid = #"{"grid":"fuzzed","type":"more","columns":6,"direction":"vertical","revision":3,"defaultSize":"small","sections":[{"section":0,"extent":2,"items":[{"index":0,"size":"big","x":0,"y":0,"w":4,"h":2},{"index":1,"size":"small"},{"index":2,"size":"middle"}]},{"section":1,"items":[]}]}"#

    /// A valid document of `count` items in one section.
    static func items(_ count: Int) -> [UInt8] {
        var text = "{\"grid\":\"million\",\"type\":\"less\",\"sections\":[{\"items\":["
        text.reserveCapacity(count * 32)
        let sizes = ["small", "middle", "big"]
        for index in 0..<count {
            if index > 0 { text += "," }
            text += "{\"index\":\(index),\"size\":\"\(sizes[index % 7 == 0 ? 2 : index % 5 == 0 ? 1 : 0])\"}"
        }
        return Array((text + "]}]}").utf8)
    }

    /// A random document, most of them malformed.
    static func random(_ generator: inout SeededGenerator) -> [UInt8] {
        let base = Array(valid.utf8)
        switch generator.next() % 16 {
        case 0: return Array(base.prefix(Int(generator.next() % UInt64(base.count))))           // truncated
        case 1:
            var bytes = base                                                                      // bytes flipped
            for _ in 0..<Int(1 + generator.next() % 4) {
                bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            return bytes
        case 2: return Array(valid.replacingOccurrences(of: "\"big\"", with: "\"huge\"").utf8)         // unknown size
        case 3: return Array(valid.replacingOccurrences(of: "\"index\":1", with: "\"index\":0").utf8)  // duplicate index
        case 4: return Array(valid.replacingOccurrences(of: "\"index\":1,", with: "").utf8)           // missing index
        case 5: return Array(valid.replacingOccurrences(of: "\"columns\":6", with: "\"columns\":\"6\"").utf8)  // wrong type
        case 6: return Array(valid.replacingOccurrences(of: "\"sections\":[", with: "\"sections\":{\"a\":[").utf8)
        case 7: return Array((String(repeating: "[", count: 100_000)).utf8)                          // deep nesting
        case 8: return []                                                                             // empty
        case 9: return Array("null".utf8)
        case 10: return [0xFF, 0xFE, 0x7B, 0x22, 0xC3, 0x28, 0x22, 0x7D]                            // invalid UTF-8
        case 11: return Array(valid.replacingOccurrences(of: "\"columns\":6", with: "\"columns\":99999999999999999999999").utf8)
        case 12: return Array(valid.replacingOccurrences(of: "\"type\":\"more\",", with: "\"type\":\"less\",").utf8)  // conflict
        case 13: return Array(valid.replacingOccurrences(of: "\"grid\":\"fuzzed\"", with: "\"grid\":\"x\\u0000y\"").utf8)
        case 14: return Array(#"{"grid":"hive","layout":"honeycomb","elementWidth":-3,"items":[]}"#.utf8)
        default: return base                                                                          // valid
        }
    }
}

/// Grid names to try: quotes, semicolons, SQL, unicode and white space.
enum Names {
    static let all = [
        "it's", "say \"hi\"", "semi;colon", "DROP TABLE grids;", "'; DELETE FROM grids; --", "Robert'); DROP TABLE grids;--",
        "SELECT * FROM placements", "名前", "emoji 🧩 grid", " leading space", "trailing space ", "two  spaces", "\u{00A0}nbsp",
        "ideographic\u{3000}space", "back\\slash", "%d%s", "default",
    ]
}
