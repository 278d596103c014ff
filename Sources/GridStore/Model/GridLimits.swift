import GridLayout

/// The largest grids gridstore accepts.
public enum GridLimits {
    /// The most items a grid may hold, over all its sections.
    public static let maximumItems = GridCapacity.maximumItems
    /// The most sections a grid may have.
    public static let maximumSections = GridCapacity.maximumSections
    /// The longest grid name, in Unicode scalars.
    public static let maximumNameLength = 255

    /// The longest item key, in Unicode scalars.
    public static let maximumKeyLength = 255

    /// `text` in Unicode Normalization Form C, as every grid name and item key is stored and
    /// looked up: "café" typed as `e` and a combining accent names the same grid, and the same
    /// key, as "café" typed with `é`, as Swift's `==` says, and a byte-exact lookup in the
    /// database agrees.
    public static func canonical(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        return String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// Whether `text` is stored as gridstore stores names and keys: in ``canonical(_:)`` form,
    /// byte for byte (Swift's `==` takes "café" in either form for the other).
    static func isCanonical(_ text: String) -> Bool {
        canonical(text).utf8.elementsEqual(text.utf8)
    }

    /// Throws unless `key` can be an item's key: 1 to 255 characters, no control characters.
    public static func validate(key: String) throws(GridError) {
        if let problem = problem(with: key, noun: "key", maximum: maximumKeyLength, masksControls: true) {
            throw .invalidKey(problem.shown, reason: problem.reason)
        }
    }

    /// The longest name of a database as its peers show it (``GridDatabase/setReplicaName(_:)``), in Unicode scalars.
    public static let maximumReplicaNameLength = 64

    /// Throws unless `name` can name a database as its peers show it: 1 to 64 Unicode scalars,
    /// at least one of them visible (not a space, nor one of the invisible marks such as U+200B),
    /// and no control characters or line and paragraph separators.
    public static func validate(replicaName name: String) throws(GridError) {
        if let problem = problem(with: name, noun: "name", maximum: maximumReplicaNameLength, masksControls: true) {
            throw .invalidReplicaName(problem.shown, reason: problem.reason)
        }
        if name.unicodeScalars.contains(where: { $0.value == 0x2028 || $0.value == 0x2029 }) {
            throw .invalidReplicaName(String(name.unicodeScalars.map { $0.value == 0x2028 || $0.value == 0x2029 ? "?" : Character($0) }),
                                      reason: "a name cannot contain line or paragraph separators")
        }
        if name.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }) {
            throw .invalidReplicaName(name, reason: "a name has at least one visible character")
        }
    }

    /// Throws unless `name` can name a grid: 1 to 255 characters, no control characters.
    public static func validate(name: String) throws(GridError) {
        if let problem = problem(with: name, noun: "name", maximum: maximumNameLength, masksControls: false) {
            throw .invalidName(problem.shown, reason: problem.reason)
        }
    }

    /// Why `text` cannot be a name or key (1 to `maximum` scalars, no control characters), with
    /// the text to show in the message; `nil` when it can.
    private static func problem(with text: String, noun: String, maximum: Int,
                                masksControls: Bool) -> (shown: String, reason: String)? {
        let scalars = text.unicodeScalars
        if scalars.isEmpty { return (text, "a \(noun) has at least one character") }
        if scalars.count > maximum { return (String(text.prefix(20)) + "…", "a \(noun) has at most \(maximum) characters") }
        guard scalars.contains(where: isControlCharacter) else { return nil }
        let shown = masksControls ? scalars.map { isControlCharacter($0) ? "?" : String($0) }.joined() : text
        return (shown, "a \(noun) cannot contain control characters such as line breaks, tabs or bidirectional overrides")
    }

    /// Whether `scalar` controls a terminal or the direction of text rather than being text:
    /// C0 and C1 controls, DEL, and the bidirectional marks, embeddings, overrides and isolates
    /// (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069).
    ///
    /// Names may not contain them, and gridstore escapes them wherever it prints text it did
    /// not write itself.
    public static func isControlCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
