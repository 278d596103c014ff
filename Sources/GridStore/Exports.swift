// The layout types the repositories' and grids' own signatures use (`GridIndexPath`, `TileSize`,
// `ScrollDirection`, `LayoutType`, frames and honeycombs), so that `import GridStore` alone is
// enough to use them.
@_exported import GridLayout
