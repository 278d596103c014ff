import Foundation
import TestSupport

/// A Swift snippet of the README or a document under docs/, and the Swift file that compiles
/// every one of them.
///
/// A snippet is compiled as the body of an `async throws` function, its imports moved to the
/// file's top. An HTML comment on the line before its fence says more:
/// `<!-- snippet: given database: GridDatabase -->` makes `database` a parameter (a value an
/// earlier snippet or the surrounding text made), and `<!-- snippet: manifest -->` marks
/// lines of a `Package.swift`, which are checked by SwiftPM instead.
struct MarkdownSnippet {
    enum Kind: Equatable {
        case code(parameters: String)
        case manifest
    }

    /// The document's path from the repository's root.
    let document: String
    /// The line of the opening fence, from 1.
    let line: Int
    let kind: Kind
    let lines: [String]

    /// Every ```swift block of `document`.
    static func snippets(in document: String) throws -> [MarkdownSnippet] {
        let text = try String(contentsOf: repositoryRootURL.appendingPathComponent(document), encoding: .utf8)
        var found: [MarkdownSnippet] = []
        var open: (line: Int, kind: Kind, lines: [String])?
        var previous = ""
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if var current = open {
                if line.hasPrefix("```") {
                    found.append(MarkdownSnippet(document: document, line: current.line, kind: current.kind, lines: current.lines))
                    open = nil
                } else {
                    current.lines.append(line)
                    open = current
                }
            } else if line.hasPrefix("```swift") {
                open = (index + 1, try kind(of: previous, at: "\(document):\(index)"), [])
            }
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { previous = line }
        }
        return found
    }

    /// The kind an HTML comment before a fence gives.
    static func kind(of comment: String, at place: String) throws -> Kind {
        guard let match = comment.wholeMatch(of: /<!-- snippet: (.*) -->/) else { return .code(parameters: "") }
        let directive = String(match.output.1)
        if directive == "manifest" { return .manifest }
        if directive.hasPrefix("given ") { return .code(parameters: String(directive.dropFirst(6))) }
        throw SnippetError(message: "\(place): unknown snippet directive '\(directive)'")
    }

    /// The function's name: `readme_3`, `docs_sync_1`.
    func functionName(number: Int) -> String {
        let stem = document.replacingOccurrences(of: ".md", with: "").lowercased()
            .map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        return "\(stem)_\(number)"
    }

    /// The Swift files that compile the code snippets of `snippets`, by file name: one file
    /// a snippet, since imports are a file's own. A snippet without imports continues the one
    /// before it in its document, and has its imports.
    static func render(_ snippets: [MarkdownSnippet]) -> [String: String] {
        var files: [String: String] = [:]
        var numbers: [String: Int] = [:]
        var imports: [String: [String]] = [:]
        for snippet in snippets {
            numbers[snippet.document, default: 0] += 1
            guard case .code(let parameters) = snippet.kind else { continue }
            var own: [String] = []
            var body: [String] = []
            for line in snippet.lines {
                if line.hasPrefix("import ") { own.append(String(line.dropFirst(7))) } else { body.append(line) }
            }
            if !own.isEmpty { imports[snippet.document] = own }
            while body.first?.isEmpty == true { body.removeFirst() }
            let importLines = (imports[snippet.document] ?? []).map { module in
                switch module {
                case "UIKit": "#if canImport(UIKit)\nimport UIKit\n#else\nimport Foundation  // with the stand-ins of AppleStandIns.swift\n#endif"
                case "SwiftUI": "#if canImport(SwiftUI)\nimport SwiftUI\n#else\nimport Foundation  // with the stand-ins of AppleStandIns.swift\n#endif"
                // On Linux, URLSession is in FoundationNetworking.
                case "Foundation": "import Foundation\n#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif"
                default: "import \(module)"
                }
            }
            let name = snippet.functionName(number: numbers[snippet.document]!)
            let indented = body.map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
            files[name + ".swift"] = """
                // Generated from Swift snippet \(numbers[snippet.document]!) of \(snippet.document) by SnippetTests: do not edit.
                // After changing a snippet: GRIDSTORE_UPDATE_SNIPPETS=1 swift test --filter SnippetTests

                \(importLines.joined(separator: "\n"))

                func \(name)(\(parameters)) async throws {
                \(indented)
                }

                """
        }
        return files
    }
}

struct SnippetError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
