import Foundation
import Testing

/// The README as a map: short, every section in its contents, and every link of it and of
/// docs/ leading somewhere.
@Suite("The README's contents and links")
struct READMEMapTests {
    /// GitHub's anchor for a heading: lowercased, punctuation but `-` and `_` dropped, spaces as `-`.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().unicodeScalars.compactMap { scalar -> Character? in
            if scalar == " " { return "-" }
            if CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" { return Character(scalar) }
            return nil
        })
    }

    /// The headings (`##` and deeper) of a Markdown text, outside code blocks.
    static func headings(_ markdown: String) -> [String] {
        var inCode = false
        var headings: [String] = []
        for line in markdown.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inCode.toggle() }
            if !inCode, line.hasPrefix("#") {
                headings.append(String(line.drop { $0 == "#" }.dropFirst()))
            }
        }
        return headings
    }

    /// The text outside code blocks and code spans, where a link is a link.
    static func prose(_ markdown: String) -> String {
        var inCode = false
        var lines: [String] = []
        for line in markdown.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inCode.toggle(); continue }
            if !inCode { lines.append(line.replacing(/`[^`]*`/, with: "")) }
        }
        return lines.joined(separator: "\n")
    }

    @Test("the README is a map of at most 400 lines, every section in its contents")
    func map() throws {
        let readme = try String(contentsOfFile: READMEExampleTests.readmePath, encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        #expect(lines.count <= 401)
        let contents = readme.components(separatedBy: "\n## Contents\n").dropFirst().first?.components(separatedBy: "\n## ").first ?? ""
        let sections = Self.headings(readme).filter { heading in lines.contains("## " + heading) || lines.contains("### " + heading) }
        #expect(sections.count >= 6)
        for heading in sections where heading != "Contents" {
            #expect(contents.contains("](#\(Self.anchor(heading)))"), "the contents miss '\(heading)'")
        }
    }

    @Test("every link of the README and docs/ to a file of the repository, or to a section, resolves", arguments: markdownDocuments)
    func links(document: String) throws {
        let root = repositoryRootURL
        let url = root.appendingPathComponent(document)
        let text = Self.prose(try String(contentsOf: url, encoding: .utf8))
        let folder = url.deletingLastPathComponent()
        for match in text.matches(of: /\]\(([^)\s]+)\)/) {
            let target = String(match.output.1)
            if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let file = parts[0].isEmpty ? url : folder.appendingPathComponent(parts[0]).standardizedFileURL
            #expect(FileManager.default.fileExists(atPath: file.path), "\(document): no file for \(target)")
            guard parts.count == 2, file.pathExtension == "md",
                  let linked = try? String(contentsOf: file, encoding: .utf8) else { continue }
            #expect(Self.headings(linked).map(Self.anchor).contains(parts[1]), "\(document): no section for \(target)")
        }
    }
}
