/// The largest grids gridstore accepts.
public enum GridLimits {
    /// The most items a grid may hold, over all its sections.
    public static let maximumItems = 1_000_000
    /// The most sections a grid may have.
    public static let maximumSections = 10_000
    /// The longest grid name, in Unicode scalars.
    public static let maximumNameLength = 255

    /// The longest item key, in Unicode scalars.
    public static let maximumKeyLength = 255

    /// Throws unless `key` can be an item's key: 1 to 255 characters, no control characters.
    public static func validate(key: String) throws(GridError) {
        let scalars = key.unicodeScalars
        guard !scalars.isEmpty else { throw .invalidKey(key, reason: "a key has at least one character") }
        guard scalars.count <= maximumKeyLength else {
            throw .invalidKey(String(key.prefix(20)) + "…", reason: "a key has at most \(maximumKeyLength) characters")
        }
        if scalars.contains(where: isControlCharacter) {
            throw .invalidKey(key.unicodeScalars.map { isControlCharacter($0) ? "?" : String($0) }.joined(),
                              reason: "a key cannot contain control characters such as line breaks, tabs "
                                  + "or bidirectional overrides")
        }
    }

    /// Throws unless `name` can name a grid: 1 to 255 characters, no control characters.
    public static func validate(name: String) throws(GridError) {
        let scalars = name.unicodeScalars
        guard !scalars.isEmpty else { throw .invalidName(name, reason: "a name has at least one character") }
        guard scalars.count <= maximumNameLength else {
            throw .invalidName(String(name.prefix(20)) + "…", reason: "a name has at most \(maximumNameLength) characters")
        }
        if scalars.contains(where: isControlCharacter) {
            throw .invalidName(name, reason: "a name cannot contain control characters such as line breaks, tabs "
                               + "or bidirectional overrides")
        }
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
