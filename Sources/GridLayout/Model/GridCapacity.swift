/// The largest grid gridstore lays out and stores: a grid in a view is cut to it, and
/// `GridLimits` of GridStore holds stored grids to it.
public enum GridCapacity {
    /// The most items, over all sections: 1,000,000.
    public static let maximumItems = 1_000_000
    /// The most sections: 10,000.
    public static let maximumSections = 10_000
}
