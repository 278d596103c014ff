import GridLayout

/// Why a grid operation was refused.
///
/// A refused operation changes nothing: not the sizes, not the placements, not the revision.
public enum GridError: Codable, Error, Sendable, Equatable, CustomStringConvertible {
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
    /// The text cannot be an item's key.
    case invalidKey(String, reason: String)
    /// The text cannot name a database as its peers show it (``GridDatabase/setReplicaName(_:)``).
    case invalidReplicaName(String, reason: String)
    /// No item of the grid has this key.
    case keyNotFound(String, grid: String)
    /// The key is given to two items; a key names one item of its grid.
    case duplicateKey(String, GridIndexPath)
    /// A list of keys given for a grid names one key more than once.
    case repeatedKey(String)
    /// Undo or redo was asked for a number of steps below 1.
    case invalidStepCount(Int)
    /// Undo or redo was asked for more changes than there are to undo or redo.
    case nothingToUndo(requested: Int, available: Int)
    /// Redo was asked for more changes than were undone since the last change.
    case nothingToRedo(requested: Int, available: Int)
    /// The history that an undo, a redo or an older revision needs was trimmed (see
    /// ``Grid/setHistoryRetention(_:)``); `oldestKept` is the oldest revision that can still be
    /// reached, if any.
    case historyTrimmed(oldestKept: Int?, grid: String)
    /// The revision is not one of the grid's: from 0 to its current revision.
    case revisionOutOfRange(Int, current: Int)
    /// The database could not carry out the operation (a lock held too long, a file that is
    /// not a gridstore database, a full disk, a lost server).
    case storage(GridStorageFailure)
    /// A sync bundle was refused (see ``SyncError``), or a sync could not be made.
    case sync(SyncError)
    /// The stored grid is inconsistent (for example, edited by hand).
    case corrupted(String)
    /// A call on a database was made inside another call's closure on the same database (a
    /// `Grid` or repository call inside a change, or inside ``GridDatabase/write(_:)``), which
    /// would wait for itself or silently join a transaction; or a grid was changed inside its
    /// own change's closure. Work inside a transaction goes through the transaction it hands.
    case reentrantCall

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
        case .invalidReplicaName(let name, let reason):
            return "'\(name)' cannot name a database: \(reason)"
        case .invalidKey(let key, let reason):
            return "'\(key)' cannot be an item's key: \(reason)"
        case .keyNotFound(let key, let grid):
            return "no item of grid '\(grid)' has the key '\(key)'"
        case .duplicateKey(let key, let path):
            return "the key '\(key)' belongs to item \(path.item) of section \(path.section) already; a key names one item of its grid"
        case .repeatedKey(let key):
            return "the key '\(key)' is given more than once; a key names one item of its grid"
        case .invalidStepCount(let count):
            return "undo and redo take a number of changes from 1, not \(count)"
        case .nothingToUndo(let requested, let available):
            return available == 0 ? "there is nothing to undo"
                : "only \(available) change(s) can be undone, not \(requested)"
        case .nothingToRedo(let requested, let available):
            return available == 0 ? "there is nothing to redo: nothing was undone since the last change"
                : "only \(available) change(s) can be redone, not \(requested)"
        case .historyTrimmed(let oldest, let grid):
            let reach = oldest.map { "; revision \($0) is the oldest that can be reached" } ?? ""
            return "the history of grid '\(grid)' before that was trimmed\(reach) (it keeps a set number of changes)"
        case .revisionOutOfRange(let revision, let current):
            return "revision \(revision) does not exist: the grid's revisions are 0 to \(current)"
        case .storage(let failure):
            return failure.message
        case .corrupted(let reason):
            return "the stored grid is inconsistent: \(reason)"
        case .sync(let error):
            return error.message
        case .reentrantCall:
            return "a call on the database was made inside another call's closure on the same database; make it through "
                + "the transaction or editor that closure was given (database.write { transaction in … }), or after it returns"
        }
    }
}
