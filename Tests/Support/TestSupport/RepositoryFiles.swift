import Foundation

/// The bytes of a file, or `nil` when it cannot be read.
public func fileBytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

/// The repository's top-level folder.
public let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            return url.path
        }
    }
    fatalError("Package.swift not found above \(#filePath)")
}()

/// The repository's top-level folder, as a file URL.
public var repositoryRootURL: URL { URL(fileURLWithPath: repositoryRoot) }

/// README.md and every Markdown document under docs/, in name order, as paths from the root.
public var markdownDocuments: [String] {
    let docs = (try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/docs")) ?? []
    return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
}
