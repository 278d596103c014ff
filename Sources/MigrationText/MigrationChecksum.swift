/// The checksum gridstore records for a migration: the SHA-256 of its text with `\r\n` and
/// `\r` replaced by `\n`, as 64 lowercase hexadecimal digits.
///
/// In the `MigrationText` module so that the `MigrationEmbedder` plugin computes the checksums of the
/// migrations it compiles in at build time, with the same code the runtime uses for files.
package enum MigrationChecksum {
    /// The checksum of `sql`.
    package static func of(_ sql: String) -> String {
        var normalized: [UInt8] = []
        normalized.reserveCapacity(sql.utf8.count)
        var previousWasCarriageReturn = false
        for byte in sql.utf8 {
            if byte == UInt8(ascii: "\n") && previousWasCarriageReturn {
                previousWasCarriageReturn = false
                continue
            }
            previousWasCarriageReturn = byte == UInt8(ascii: "\r")
            normalized.append(previousWasCarriageReturn ? UInt8(ascii: "\n") : byte)
        }
        return SHA256.hexDigest(normalized)
    }
}
