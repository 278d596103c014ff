import Foundation
import Testing

/// The README as a map: every section is in its contents, and every link to a section or a
/// document of the repository leads somewhere.
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

    @Test("every section and subsection is linked from the contents, and every #link and docs/ link resolves")
    func links() throws {
        let readme = try String(contentsOfFile: READMEExampleTests.readmePath, encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        var inCode = false
        var headings: [String] = []
        for line in lines {
            if line.hasPrefix("```") { inCode.toggle() }
            if !inCode, line.hasPrefix("## ") || line.hasPrefix("### ") {
                headings.append(String(line.drop { $0 == "#" }.dropFirst()))
            }
        }
        let anchors = Set(headings.map(Self.anchor))
        let contents = lines.prefix { !$0.hasPrefix("## ") }.joined(separator: "\n")
        for heading in headings {
            #expect(contents.contains("](#\(Self.anchor(heading)))"), "the contents miss '\(heading)'")
        }
        let links = readme.matches(of: /\]\(#([^)]+)\)/).map { String($0.output.1) }
        for link in links { #expect(anchors.contains(link), "no section for #\(link)") }
        let root = URL(fileURLWithPath: READMEExampleTests.readmePath).deletingLastPathComponent()
        for document in readme.matches(of: /\]\((docs\/[^)#]+)/).map({ String($0.output.1) }) {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(document).path), "\(document)")
        }
        #expect(lines.count < 1_060)
    }
}
