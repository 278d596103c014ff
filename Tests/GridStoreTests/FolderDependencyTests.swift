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
/// folder's that declares it at the top level of a file.
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
        for file in files {
            for name in Self.typeNames(in: file.code) {
                guard let other = owner[name], other != file.folder else { continue }
                uses[file.folder, default: [:]][other, default: []].insert("\(name) in \(file.path)")
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

    /// The names a file's top-level declarations give (`struct X`, `final class X`, `enum X`…).
    static func declaredTypes(in code: String) -> [String] {
        code.split(separator: "\n").compactMap { line in
            guard let first = line.first, first != " " else { return nil }
            let words = line.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" && $0 != "@" })
            guard let keyword = words.firstIndex(where: { ["struct", "class", "enum", "protocol", "actor", "typealias"].contains($0) }),
                  keyword + 1 < words.count, words[..<keyword].allSatisfy(Self.isModifier) else { return nil }
            return String(words[keyword + 1])
        }
    }

    private static func isModifier(_ word: Substring) -> Bool {
        word.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate", "final", "indirect", "nonisolated",
                                "unchecked", "Sendable", "MainActor"].contains(word)
    }

    /// Every identifier that starts with a capital letter.
    static func typeNames(in code: String) -> Set<String> {
        Set(code.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).filter { $0.first?.isUppercase == true }.map(String.init))
    }

    /// `source` without its comments and the text of its string literals.
    static func code(of source: String) -> String {
        var code = "", characters = Array(source), index = 0
        func starts(_ text: String) -> Bool {
            var position = index
            for character in text {
                guard position < characters.count, characters[position] == character else { return false }
                position += 1
            }
            return true
        }
        while index < characters.count {
            if starts("//") {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if starts("/*") {
                index += 2
                while index < characters.count, !starts("*/") { index += 1 }
                index += 2
            } else if starts("\"\"\"") || starts("\"") {
                let closing = starts("\"\"\"") ? "\"\"\"" : "\""
                index += closing.count
                while index < characters.count, !starts(closing) { index += characters[index] == "\\" ? 2 : 1 }
                index += closing.count
                code += "\"\""
            } else {
                code.append(characters[index])
                index += 1
            }
        }
        return code
    }
}
