/// The axis along which a grid grows.
public enum ScrollDirection: String, CaseIterable, Sendable, Hashable {
    /// Rows of a fixed number of columns, growing downwards.
    case vertical
    /// Columns of a fixed number of rows, growing to the right: the vertical packing, transposed.
    case horizontal
}
