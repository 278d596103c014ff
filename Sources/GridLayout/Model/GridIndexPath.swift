/// The position of an item: its section and its index within the section, both from 0.
public struct GridIndexPath: Codable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section, from 0.
    public var section: Int
    /// The item's index within its section, from 0.
    public var item: Int

    /// Creates an index path for `item` in `section`.
    public init(item: Int, section: Int = 0) {
        self.section = section
        self.item = item
    }

    public static func < (lhs: GridIndexPath, rhs: GridIndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// `section 0, item 3`.
    public var description: String { "section \(section), item \(item)" }
}
