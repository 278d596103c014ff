/// The two standard grid widths: `less` (4 columns) and `more` (6 columns).
public enum LayoutType: String, CaseIterable, Sendable, Hashable {
    /// Four columns.
    case less
    /// Six columns.
    case more

    /// The number of columns: 4 for `less`, 6 for `more`.
    public var columns: Int {
        switch self {
        case .less: 4
        case .more: 6
        }
    }

    /// The other type: `less` for `more`, `more` for `less`.
    public func toggled() -> LayoutType {
        self == .less ? .more : .less
    }

    /// The type with `columns` columns, or `nil` for a custom count.
    public init?(columns: Int) {
        guard let match = Self.allCases.first(where: { $0.columns == columns }) else { return nil }
        self = match
    }
}
