/// Stored rows of a grid that a backend found not to fit together while reading them (a chunk
/// overlapping its neighbour): the engine reports it as ``GridError/corrupted(_:)`` about the grid.
package protocol StoredStateInconsistency: Error, Sendable {
    /// What is wrong, as it follows the grid's name: `has a size chunk for section 0 at item 5 …`.
    var description: String { get }
}
