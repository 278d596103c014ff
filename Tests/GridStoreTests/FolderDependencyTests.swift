import Foundation
import Testing
import TestSupport

/// The engine's folders depend one way, in the order docs/library.md maps them.
@Suite("The engine's folders")
struct FolderDependencyTests {
    static let engine = repositoryRoot + "/Sources/GridStore"

    @Test("no folder of the engine uses a type of a folder that uses one of its own, however indirectly")
    func foldersDependOneWay() throws {
        let graph = try FolderGraph(folder: Self.engine)
        if let cycle = graph.cycle() {
            Issue.record("the folders lean on each other: \(graph.describe(cycle))")
        }
    }

    @Test("docs/library.md lists every folder, each after every folder whose types it uses")
    func mapFollowsTheCode() throws {
        let graph = try FolderGraph(folder: Self.engine)
        let text = try String(contentsOfFile: repositoryRoot + "/docs/library.md", encoding: .utf8)
        // The map's lines: "1. **`Model/`** …", bottom to top.
        let listed = text.split(separator: "\n").compactMap { line -> String? in
            guard line.first?.isNumber == true, let start = line.range(of: "**`"), let end = line.range(of: "/`**") else { return nil }
            return String(line[start.upperBound..<end.lowerBound])
        }
        #expect(Set(listed) == Set(graph.folders), "docs/library.md lists \(listed.sorted()); the engine has \(graph.folders.sorted())")
        for (position, folder) in listed.enumerated() {
            for used in graph.uses[folder, default: [:]].keys where !listed.prefix(position).contains(used) {
                Issue.record("docs/library.md lists \(folder)/ before \(used)/, whose types it uses: \(graph.describe([folder, used]))")
            }
        }
    }
}

/// Which folders' types the Swift files of each folder mention, by name: a type is the
/// folder's that declares it at the top level of a file, and a static member an extension
/// declares (`GridDatabase.maximumSyncDrops`) is the extension's folder's.
struct FolderGraph {
    /// The folders under the root that hold Swift files.
    var folders: [String] = []
    /// For each folder, the folders whose types it mentions, with the types and the files.
    var uses: [String: [String: Set<String>]] = [:]

    init(folder root: String) throws {
        var files: [(folder: String, path: String, code: String)] = []
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".swift") && $0.contains("/") }
        for path in paths.sorted() {
            let source = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
            files.append((String(path.prefix { $0 != "/" }), path, Self.code(of: source)))
        }
        folders = Array(Set(files.map(\.folder))).sorted()
        var owner: [String: String] = [:]
        for file in files {
            for name in Self.declaredTypes(in: file.code) where owner[name] == nil { owner[name] = file.folder }
        }
        var memberOwner: [String: String] = [:]
        for file in files {
            for member in Self.extensionStaticMembers(in: file.code) where memberOwner[member] == nil { memberOwner[member] = file.folder }
        }
        for file in files {
            let names = Self.typeNames(in: file.code)
            for name in names {
                guard let other = owner[name], other != file.folder else { continue }
                uses[file.folder, default: [:]][other, default: []].insert("\(name) in \(file.path)")
            }
            for member in Self.memberReferences(in: file.code) {
                guard let other = memberOwner[member], other != file.folder else { continue }
                uses[file.folder, default: [:]][other, default: []].insert("\(member) in \(file.path)")
            }
        }
    }

    /// Folders that reach back to the first, ending with it; `nil` when there are none.
    func cycle() -> [String]? {
        var finished: Set<String> = []
        func visit(_ folder: String, _ path: [String]) -> [String]? {
            if let start = path.firstIndex(of: folder) { return Array(path[start...]) + [folder] }
            guard !finished.contains(folder) else { return nil }
            for next in uses[folder, default: [:]].keys.sorted() {
                if let found = visit(next, path + [folder]) { return found }
            }
            finished.insert(folder)
            return nil
        }
        for folder in folders { if let found = visit(folder, []) { return found } }
        return nil
    }

    /// Each step of `path` with a few of the types that make it.
    func describe(_ path: [String]) -> String {
        zip(path, path.dropFirst()).map { from, to in
            "\(from)/ -> \(to)/ (" + (uses[from]?[to] ?? []).sorted().prefix(3).joined(separator: ", ") + ")"
        }.joined(separator: "; ")
    }

    /// A line's words, its attributes' arguments (`@available(…)`) left out.
    private static func words(_ line: Substring) -> [Substring] {
        var text = "", depth = 0, inAttribute = false
        for character in line {
            if character == "@" { inAttribute = true }
            if inAttribute && character == "(" { depth += 1 }
            if depth == 0 { text.append(character) }
            if inAttribute && character == ")" { depth -= 1; if depth == 0 { inAttribute = false } }
            if inAttribute && depth == 0 && character == " " { inAttribute = false }
        }
        return text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" && $0 != "@" })
    }

    private static func isModifier(_ word: Substring) -> Bool {
        word.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate", "open", "final", "indirect", "nonisolated",
                                "unchecked", "Sendable", "MainActor", "static", "class", "mutating", "nonmutating",
                                "override", "convenience", "required", "lazy", "dynamic", "weak", "unowned"].contains(word)
    }

    /// The names a file's top-level declarations give (`struct X`, `final class X`, `enum X`…).
    static func declaredTypes(in code: String) -> [String] {
        code.split(separator: "\n").compactMap { line in
            guard let first = line.first, first != " " else { return nil }
            let words = Self.words(line)
            guard let keyword = words.firstIndex(where: { ["struct", "class", "enum", "protocol", "actor", "typealias"].contains($0) }),
                  keyword + 1 < words.count, words[..<keyword].allSatisfy(Self.isModifier) else { return nil }
            return String(words[keyword + 1])
        }
    }

    /// `Type.member` for every static member a top-level `extension Type` of the file declares.
    static func extensionStaticMembers(in code: String) -> [String] {
        var members: [String] = [], extended: Substring?
        for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.first == "}" { extended = nil; continue }
            let words = Self.words(line)
            if line.first.map({ $0 != " " }) == true, let keyword = words.firstIndex(of: "extension"), keyword + 1 < words.count,
               words[..<keyword].allSatisfy(Self.isModifier) {
                extended = words[keyword + 1]
                continue
            }
            guard let extended, line.hasPrefix("    "), !line.hasPrefix("     "), words.contains("static") || words.contains("class"),
                  let keyword = words.firstIndex(where: { ["let", "var", "func"].contains($0) }), keyword + 1 < words.count,
                  words[..<keyword].allSatisfy(Self.isModifier) else { continue }
            members.append("\(extended).\(words[keyword + 1])")
        }
        return members
    }

    /// Every identifier that starts with a capital letter.
    static func typeNames(in code: String) -> Set<String> {
        Set(code.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).filter { $0.first?.isUppercase == true }.map(String.init))
    }

    /// Every `Type.member` written out: a capitalized identifier, a dot and an identifier.
    static func memberReferences(in code: String) -> Set<String> {
        var references: Set<String> = []
        let characters = Array(code)
        func isIdentifier(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }
        for (index, character) in characters.enumerated() where character == "." && index > 0 {
            var start = index
            while start > 0, isIdentifier(characters[start - 1]) { start -= 1 }
            var end = index + 1
            while end < characters.count, isIdentifier(characters[end]) { end += 1 }
            guard start < index, end > index + 1, characters[start].isUppercase, start == 0 || characters[start - 1] != "." else { continue }
            references.insert(String(characters[start..<end]))
        }
        return references
    }

    /// `source` without its comments and the text of its string literals; the code of their
    /// interpolations stays.
    static func code(of source: String) -> String {
        var scanner = CodeScanner(characters: Array(source))
        return scanner.code(inInterpolation: false)
    }
}

/// Reads Swift source as code, comments and string literals.
private struct CodeScanner {
    let characters: [Character]
    var index = 0

    func starts(_ text: String) -> Bool {
        var position = index
        for character in text {
            guard position < characters.count, characters[position] == character else { return false }
            position += 1
        }
        return true
    }

    /// The code up to the end, or in an interpolation up to the `)` that closes it (consumed).
    mutating func code(inInterpolation: Bool) -> String {
        var code = "", depth = 0
        while index < characters.count {
            let character = characters[index]
            if starts("//") {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if starts("/*") {
                index += 2
                while index < characters.count, !starts("*/") { index += 1 }
                index += 2
            } else if starts("\"") || starts("#\"") {
                code += literal()
            } else {
                if character == "(" { depth += 1 }
                if character == ")" {
                    if depth == 0, inInterpolation { index += 1; return code }
                    depth -= 1
                }
                code.append(character)
                index += 1
            }
        }
        return code
    }

    /// Skips a string literal (raw, multi-line or not), giving back the code of its interpolations.
    mutating func literal() -> String {
        let raw = starts("#")
        if raw { index += 1 }
        let quotes = starts("\"\"\"") ? "\"\"\"" : "\""
        index += quotes.count
        let closing = quotes + (raw ? "#" : ""), interpolation = raw ? "\\#(" : "\\("
        var code = "\"\""
        while index < characters.count, !starts(closing) {
            if starts(interpolation) {
                index += interpolation.count
                code += " " + self.code(inInterpolation: true) + " "
            } else {
                index += !raw && characters[index] == "\\" ? 2 : 1
            }
        }
        index += closing.count
        return code
    }
}
