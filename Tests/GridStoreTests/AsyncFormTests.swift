import Foundation
import Testing

/// The `async` forms of ``Grid`` and ``GridSizeRepository`` are written beside the synchronous
/// ones; this keeps the two lists from drifting apart, read from the sources themselves.
@Suite("Sync and async forms")
struct AsyncFormTests {
    /// A function's name and argument labels, and whether it is `async`.
    struct Signature: Hashable, CustomStringConvertible {
        var name: String
        var labels: [String]
        var description: String { "\(name)(\(labels.map { $0 + ":" }.joined()))" }
    }

    /// The functions declared in `type`'s declaration and extensions under `Sources/GridStore`,
    /// public ones and a protocol's requirements, split into synchronous and `async`.
    static func functions(of type: String) throws -> (sync: Set<Signature>, async: Set<Signature>) {
        let root = URL(fileURLWithPath: repositoryRoot).appendingPathComponent("Sources/GridStore")
        let files = FileManager.default.enumerator(atPath: root.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        let declaration = try NSRegularExpression(pattern: #"^(?:public )?(?:final )?(?:extension|class|protocol|struct|enum) (\w+)"#)
        let function = try NSRegularExpression(pattern: #"^    (?:public )?(?:static )?func (\w+)\(([^)]*)\)([^{]*)"#)
        var sync: Set<Signature> = [], async: Set<Signature> = []
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            var current: String?
            var isProtocol = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                let range = NSRange(line.startIndex..., in: line)
                if let match = declaration.firstMatch(in: line, range: range) {
                    current = String(line[Range(match.range(at: 1), in: line)!])
                    isProtocol = line.contains("protocol ")
                    continue
                }
                // Public functions, and a protocol's requirements (which have no modifier).
                guard current == type, line.contains("throws"), line.contains("public ") || isProtocol,
                      let match = function.firstMatch(in: line, range: range) else { continue }
                let name = String(line[Range(match.range(at: 1), in: line)!])
                let parameters = String(line[Range(match.range(at: 2), in: line)!])
                let labels = parameters.split(separator: ",").compactMap { parameter -> String? in
                    let first = parameter.split(separator: ":")[0].trimmingCharacters(in: .whitespaces)
                    return first.split(separator: " ").first.map(String.init)
                }
                let signature = Signature(name: name, labels: labels)
                if line[Range(match.range(at: 3), in: line)!].contains("async") { async.insert(signature) } else { sync.insert(signature) }
            }
        }
        return (sync, async)
    }

    @Test("every synchronous read and change of Grid and GridSizeRepository has an async form, and no async form is alone",
          arguments: ["Grid", "GridSizeRepository"])
    func parity(type: String) throws {
        let (sync, async) = try Self.functions(of: type)
        #expect(sync.count > 10 && async.count > 10)
        // A synchronous form is matched by the async one of its name whose labels start with its
        // own (`undo()` by `undo(_ count: Int = 1)`).
        func matched(_ signature: Signature, in forms: Set<Signature>) -> Bool {
            forms.contains { $0.name == signature.name && $0.labels.starts(with: signature.labels) }
        }
        // Registering a default size touches no storage and never waits.
        let exempt: Set<Signature> = [Signature(name: "register", labels: ["defaultSize"])]
        let withoutAsync = sync.filter { !matched($0, in: async) && !exempt.contains($0) }
        let withoutSync = async.filter { form in !sync.contains { $0.name == form.name && form.labels.starts(with: $0.labels) } }
        #expect(withoutAsync.isEmpty, "no async form: \(withoutAsync.sorted { $0.description < $1.description })")
        #expect(withoutSync.isEmpty, "no synchronous form: \(withoutSync.sorted { $0.description < $1.description })")
    }
}
