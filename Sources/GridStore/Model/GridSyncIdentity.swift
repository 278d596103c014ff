import GridLayout

/// Who a grid's sections and items are to sync: each one's sync id and its place among the
/// others, as ``GridDocument`` carries them (`"sync":{"id":…,"order":…}`).
///
/// A document exported from a grid that syncs carries them; imported into a database where
/// the grid has no sync state, the grid starts its sync state with them, so it syncs with the
/// exporter's peers item by item, as the same items: every change a peer made wins over the
/// document's values, which are the grid as it was taken, not changes.
public struct GridSyncIdentity: Sendable, Hashable {
    /// One section's or item's sync id (16 hexadecimal digits) and order key.
    public struct Entry: Sendable, Hashable {
        public var id: String
        public var order: String

        public init(id: String, order: String) {
            self.id = id
            self.order = order
        }
    }

    /// The sections', in order.
    public var sections: [Entry]
    /// Each section's items', in order.
    public var items: [[Entry]]
    /// The grid's revision they are of; `nil` when not known (read from a document).
    public var revision: Int?

    public init(sections: [Entry], items: [[Entry]], revision: Int? = nil) {
        self.sections = sections
        self.items = items
        self.revision = revision
    }

    /// What is wrong with the identity for `content`, as a sentence; `nil` when nothing is: an
    /// entry for every section and item of a grid of tiles, each id and order key well formed,
    /// no id twice, and a section's items (and the sections) in the order of their keys, then
    /// ids (two replicas that appended at once give two tiles one key).
    func problem(for content: GridContent) -> String? {
        guard content.honeycomb == nil else { return "a honeycomb's document carries no sync ids" }
        guard sections.count == content.sections.count, items.map(\.count) == content.sections.map(\.count) else {
            return "it gives sync ids for \(items.map(\.count)) items in \(sections.count) sections, not for every item of the grid"
        }
        var seen = Set<SyncEntityID>()
        for list in [sections] + items {
            var previous: (order: OrderKey, id: SyncEntityID)?
            for entry in list {
                guard let id = SyncEntityID(entry.id) else { return "'\(SyncError.excerpt(entry.id))' is not a sync id (16 hexadecimal digits)" }
                guard seen.insert(id).inserted else { return "sync id \(entry.id) is given twice" }
                guard let order = OrderKey(entry.order) else { return "'\(SyncError.excerpt(entry.order))' is not an order key" }
                if let previous, !(previous < (order, id)) {
                    return "the order keys of a section's items must ascend, ties by id ('\(entry.order)' after '\(previous.order)')"
                }
                previous = (order, id)
            }
        }
        return nil
    }
}
