import GridLayout

/// Why a grid operation was refused.
///
/// A refused operation changes nothing: not the sizes, not the placements, not the revision.
public enum GridError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No grid has this name.
    case gridNotFound(String)
    /// A grid with this name exists already.
    case gridExists(String)
    /// The name cannot be used for a grid.
    case invalidName(String, reason: String)
    /// The section does not exist.
    case sectionOutOfRange(Int, sectionCount: Int)
    /// The item does not exist (or, for an insertion, is past the end).
    case itemOutOfRange(GridIndexPath, itemCount: Int, allowsEnd: Bool)
    /// An item count is negative or above ``GridLimits/maximumItems``.
    case invalidItemCount(Int)
    /// The grid would have more items or sections than gridstore allows.
    case limitExceeded(String)
    /// The columns, spans or direction do not make a valid grid.
    case invalidConfiguration(LayoutConfigurationError)
    /// The operation needs a grid of type `less` or `more`, but this one has custom columns.
    case customColumns(Int)
    /// The operation needs a grid of tiles, but the grid is a honeycomb, whose items have no
    /// sizes and which has one section.
    case notTiles(operation: String, grid: String?)
    /// The stored grid is inconsistent (for example, edited by hand).
    case corrupted(String)

    public var description: String {
        switch self {
        case .gridNotFound(let name):
            return "no grid named '\(name)'"
        case .gridExists(let name):
            return "a grid named '\(name)' exists already"
        case .invalidName(let name, let reason):
            return "'\(name)' cannot name a grid: \(reason)"
        case .sectionOutOfRange(let section, let count):
            return count == 0
                ? "section \(section) does not exist: the grid has no sections"
                : "section \(section) does not exist: the grid has \(count) section(s), 0 to \(count - 1)"
        case .itemOutOfRange(let path, let count, let allowsEnd):
            let last = allowsEnd ? count : count - 1
            if last < 0 {
                return "item \(path.item) does not exist: section \(path.section) has no items"
            }
            return "item \(path.item) does not exist: section \(path.section) has \(count) item(s), so the index is 0 to \(last)"
        case .invalidItemCount(let count):
            return "an item count is 0 to \(GridLimits.maximumItems), not \(count)"
        case .limitExceeded(let what):
            return what
        case .invalidConfiguration(let error):
            return error.description
        case .customColumns(let columns):
            return "the grid has \(columns) custom columns, not a less (4) or more (6) type"
        case .notTiles(let operation, let grid):
            let name = grid.map { "'\($0)'" } ?? "the grid"
            return "\(name) is a honeycomb: its items have no sizes and it has one section, so it cannot \(operation)"
        case .corrupted(let reason):
            return "the stored grid is inconsistent: \(reason)"
        }
    }
}

/// The largest grids gridstore accepts.
public enum GridLimits {
    /// The most items a grid may hold, over all its sections.
    public static let maximumItems = 1_000_000
    /// The most sections a grid may have.
    public static let maximumSections = 10_000
    /// The longest grid name, in Unicode scalars.
    public static let maximumNameLength = 255

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
