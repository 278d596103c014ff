import Foundation
import Testing

/// No message prints a password from a connection URI, even where libpq quotes the URI or a
/// piece of it back.
@Suite("Passwords in PostgreSQL URIs")
struct PasswordRedactionTests {
    @Test("malformed and unreachable URIs are refused in one line that holds no password", arguments: [
        ("postgresql://u:s3cretpw@[::1:5499/gs", "s3cretpw"),
        ("postgresql://u:s3cr%zzetpw@localhost:5499/gs", "s3cr%zzetpw"),
        ("postgresql://u:s3cr%zzetpw@[::1/gs", "s3cr"),
        ("postgresql://u@localhost:1/gs?password=hunter22%zz", "hunter22"),
        ("postgresql://u@localhost:1/gs?password=hunter22&sslmode=bogus", "hunter22"),
        ("postgresql://u:p%40ss%20word@localhost:1/gs?connect_timeout=2", "p@ss word"),
        ("postgres://u:topsecret@/gs?host=/nonexistent&port=notaport", "topsecret"),
        ("postgresql://u:pa/ss?w@rd9@localhost:1/gs?connect_timeout=2", "pa/ss?w@rd9"),
        ("postgresql://u@localhost:1/gs?pass%77ord=hunter22&sslmode=bogus", "hunter22"),
    ])
    func redacted(uri: String, secret: String) throws {
        let result = try CommandRunner.run(["--db", uri, "show"])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("Error: "))
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(!result.standardError.contains(secret), "\(result.standardError)")
        #expect(!result.standardError.contains(uri), "\(result.standardError)")
    }
}
