/// Texts by name, kept as a list: the environment variables a command consults, the values of
/// the options it was given.
///
/// Not a `[String: String]`: on the path every command takes, a process's first use of a hashed
/// collection of strings makes the Swift runtime search every conformance record of the binary
/// for `String: Hashable`, about 150,000 instructions at every start of `gridstore` (counted
/// with callgrind), for a handful of names. A name given twice keeps its last value.
struct NamedValues: ExpressibleByDictionaryLiteral, Equatable {
    /// The names given a value, each once, in the order they were first given.
    private(set) var entries: [(name: String, value: String)] = []

    init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The value of `name`, `nil` when it has none; setting `nil` removes it.
    ///
    /// - Complexity: O(*n*) for the *n* names held.
    subscript(name: String) -> String? {
        get {
            for entry in entries where entry.name == name { return entry.value }
            return nil
        }
        set {
            let index = entries.firstIndex { $0.name == name }
            switch (index, newValue) {
            case (let index?, let value?): entries[index].value = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append((name, value))
            case (nil, nil): break
            }
        }
    }

    /// The same names with the same values, in any order.
    static func == (left: NamedValues, right: NamedValues) -> Bool {
        left.entries.count == right.entries.count && left.entries.allSatisfy { right[$0.name] == $0.value }
    }
}
