import GridLayout

/// Ranges the command line accepts.
enum CommandLimits {
    /// Column counts: the standard big tile is 4 cells wide, and a row holds at most 64 cells.
    static let columns = TileSpans.standard.big.width...GridConfiguration.maximumColumns
}
