import Foundation

/// A fresh folder under the system's temporary directory, removed with everything in it
/// when the value is released.
///
/// ```swift
/// let directory = TemporaryDirectory()
/// let path = directory.file("grids.sqlite")
/// ```
public final class TemporaryDirectory: @unchecked Sendable {
    /// The folder's path.
    public let path: String

    /// Creates the folder, named `prefix` followed by a unique suffix.
    public init(prefix: String = "gridstore-tests-") {
        path = FileManager.default.temporaryDirectory.path + "/" + prefix + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        // A test may have made the folder read-only to provoke an error.
        try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }
}
