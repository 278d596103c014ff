import CLibPQ

/// The rows a statement returned, in PostgreSQL's text format.
package final class PostgreSQLResult {
    private let handle: OpaquePointer
    private let libpq: LibPQ

    init(_ handle: OpaquePointer, _ libpq: LibPQ) {
        self.handle = handle
        self.libpq = libpq
    }

    deinit {
        libpq.clear(handle)
    }

    /// The number of rows.
    package var count: Int { Int(libpq.ntuples(handle)) }

    /// Whether the value at `row`, `column` is `NULL`.
    package func isNull(_ row: Int, _ column: Int) -> Bool {
        libpq.getisnull(handle, Int32(row), Int32(column)) == 1
    }

    /// The value at `row`, `column` as text (empty for `NULL`, or where the server sent no such column).
    package func string(_ row: Int, _ column: Int) -> String {
        withUTF8(row, column) { String(decoding: $0, as: UTF8.self) }
    }

    /// The value at `row`, `column` as an integer (0 when it is not one).
    package func int(_ row: Int, _ column: Int) -> Int64 {
        withUTF8(row, column) { Self.parseInteger($0) }
    }

    /// The value at `row`, `column` as a floating-point number sent as the 16 hex digits of
    /// its big-endian bits (`encode(float8send(x), 'hex')`): exact; NaN when it is not that.
    package func float8Bits(_ row: Int, _ column: Int) -> Double {
        withUTF8(row, column) { digits in
            guard digits.count == 16 else { return .nan }
            var bits: UInt64 = 0
            for digit in digits {
                let value: UInt8
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = digit - UInt8(ascii: "a") + 10
                default: return .nan
                }
                bits = bits << 4 | UInt64(value)
            }
            return Double(bitPattern: bits)
        }
    }

    /// Calls `body` with the UTF-8 bytes of the value at `row`, `column` (none for a cell the
    /// result does not have: a server's answer is input, and may lack a column asked for).
    package func withUTF8<T>(_ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        guard let value = libpq.getvalue(handle, Int32(row), Int32(column)) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        let length = max(0, Int(libpq.getlength(handle, Int32(row), Int32(column))))
        return try value.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            try body(UnsafeBufferPointer(start: bytes, count: length))
        }
    }

    /// A decimal integer's value; 0 for anything else or on overflow.
    private static func parseInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64 {
        guard !bytes.isEmpty else { return 0 }
        let negative = bytes[0] == UInt8(ascii: "-")
        var value: Int64 = 0
        for byte in bytes.dropFirst(negative ? 1 : 0) {
            guard byte >= 48, byte <= 57 else { return 0 }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? shifted.subtractingReportingOverflow(Int64(byte - 48))
                                             : shifted.addingReportingOverflow(Int64(byte - 48))
            if overflow1 || overflow2 { return 0 }
            value = next
        }
        return value
    }
}
