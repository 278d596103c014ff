import Foundation
import Testing
import TestSupport

/// The documentation's Swift, kept compiling: Generated/ holds every snippet as a function, so
/// the build fails when one no longer compiles, and these tests fail when Generated/ is not
/// what the documents hold now.
@Suite("The documentation's Swift snippets")
struct SnippetTests {
    static let generated = repositoryRootURL.appendingPathComponent("Tests/SnippetTests/Generated")

    @Test("Generated/ holds every snippet of README.md and docs/ as it is now, one file each")
    func current() throws {
        let snippets = try markdownDocuments.flatMap(MarkdownSnippet.snippets(in:))
        #expect(snippets.count >= 12)
        let expected = MarkdownSnippet.render(snippets)
        let manager = FileManager.default
        let names = Set(try manager.contentsOfDirectory(atPath: Self.generated.path).filter { $0.hasSuffix(".swift") })
        let existing = Dictionary(uniqueKeysWithValues: try names.map { name in
            (name, try String(contentsOf: Self.generated.appendingPathComponent(name), encoding: .utf8))
        })
        guard existing != expected else { return }
        if ProcessInfo.processInfo.environment["GRIDSTORE_UPDATE_SNIPPETS"] != nil {
            for name in names.subtracting(expected.keys) { try manager.removeItem(at: Self.generated.appendingPathComponent(name)) }
            for (name, text) in expected where existing[name] != text {
                try text.write(to: Self.generated.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
            Issue.record("Tests/SnippetTests/Generated/ was rewritten: build and test again")
        } else {
            let stale = names.symmetricDifference(expected.keys).union(expected.keys.filter { existing[$0] != nil && existing[$0] != expected[$0] })
            let advice = "run GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests, then test again"
            Issue.record("Tests/SnippetTests/Generated/ is not what README.md and docs/ hold (\(stale.sorted().joined(separator: ", "))): \(advice)")
        }
    }

    @Test("the Package.swift lines load in a package of their own, and name products gridstore has")
    func manifests() throws {
        let manifests = try markdownDocuments.flatMap(MarkdownSnippet.snippets(in:)).filter { $0.kind == .manifest }
        #expect(!manifests.isEmpty)
        let ours = try String(contentsOf: repositoryRootURL.appendingPathComponent("Package.swift"), encoding: .utf8)
        for snippet in manifests {
            let lines = snippet.lines.joined(separator: "\n")
            for product in lines.matches(of: /\.product\(name: "([^"]+)", package: "gridstore"\)/) {
                #expect(ours.contains(".library(name: \"\(product.output.1)\""), "\(snippet.document):\(snippet.line): no product \(product.output.1)")
            }
            // The platforms an app lists are the ones gridstore's own manifest needs.
            if let platforms = lines.firstMatch(of: /platforms: \[[^\]]*\]/) {
                #expect(ours.contains(String(platforms.output)), "\(snippet.document):\(snippet.line): platforms differ from Package.swift's")
            }
            // A path dependency's identity is its folder's name: the checkout is linked as `gridstore`.
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gridstore-snippet-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let package = scratch.appendingPathComponent("App")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: scratch.appendingPathComponent("gridstore"), withDestinationURL: repositoryRootURL)
            try FileManager.default.createDirectory(at: package.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
            try "".write(to: package.appendingPathComponent("Sources/App/App.swift"), atomically: true, encoding: .utf8)
            let manifest = """
                // swift-tools-version:6.0
                import PackageDescription
                let package = Package(
                    name: "App",
                \(lines)
                )
                """
            try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            let ended = try ChildProcess(program: "/usr/bin/env", arguments: ["swift", "package", "--package-path", package.path, "dump-package"],
                                         environment: ProcessInfo.processInfo.environment).wait()
            #expect(ended.status == 0, "\(snippet.document):\(snippet.line): \(String(decoding: ended.standardError, as: UTF8.self))")
        }
    }
}
