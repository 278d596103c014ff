import Foundation
import TestSupport
import Testing
@testable import GridStorePostgreSQL

/// Arrays sent in their binary form read back on the server as exactly what was appended.
@Suite("PostgreSQL arrays", .enabled(if: PostgreSQLTestServer.shouldTest))
struct PostgreSQLArrayTests {
    @Test("integers, numbers and texts reach the server exactly, empty arrays too, prepared and unnamed",
          arguments: ["", "&pool_mode=transaction"])
    func roundTrip(mode: String) throws {
        let url = try PostgreSQLTestServer.shared().makeDatabase() + mode
        let connection = try PostgreSQLConnection(PostgreSQLLocation(url)!)
        let integers = [0, 1, -1, 255, 256, 65_536, Int(Int32.max), Int(Int32.min), Int.max, Int.min]
        let numbers = [0.0, -0.0, 1.5, -57.11, 1e300, Double.leastNonzeroMagnitude, Double.infinity, -Double.infinity, .pi]
        let texts = ["", "a", "\"quoted\" \\ back", "{,}", "NULL", "ünïcødé 🧩", String(repeating: "[1,2,1,1,\"small\"],", count: 300)]
        var bigints = PostgreSQLArray(of: .bigint), floats = PostgreSQLArray(of: .float8), strings = PostgreSQLArray(of: .text)
        integers.forEach { bigints.append($0) }
        numbers.forEach { floats.append($0) }
        texts.forEach { strings.append(text: $0.utf8) }
        let read = try connection.execute("""
            SELECT (SELECT string_agg(v::text, ',' ORDER BY n) FROM unnest($1::bigint[]) WITH ORDINALITY AS t (v, n)),
                   (SELECT string_agg(float8send(v)::text, ',' ORDER BY n) FROM unnest($2::float8[]) WITH ORDINALITY AS t (v, n)),
                   (SELECT count(*) FROM unnest($3::text[])),
                   cardinality($4::bigint[]), cardinality($5::text[])
            """, parameters: [bigints.parameter, floats.parameter, strings.parameter,
                              PostgreSQLArray(of: .bigint).parameter, PostgreSQLArray(of: .text).parameter])
        #expect(read.string(0, 0) == integers.map(String.init).joined(separator: ","))
        let bits = numbers.map { "\\x" + String(format: "%016llx", $0.bitPattern) }
        #expect(read.string(0, 1) == bits.joined(separator: ","))
        #expect(read.int(0, 2) == Int64(texts.count))
        #expect(read.int(0, 3) == 0 && read.int(0, 4) == 0)
        for (index, text) in texts.enumerated() {
            var one = PostgreSQLArray(of: .text)
            one.append(text: text.utf8)
            #expect(try connection.execute("SELECT ($1::text[])[1] = $2", parameters: [one.parameter, .text(text)]).string(0, 0) == "t",
                    "text \(index)")
        }
    }
}
