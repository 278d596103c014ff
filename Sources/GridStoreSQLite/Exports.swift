// `import GridStoreSQLite` is enough to open a file and work with its grids.
@_exported import GridStore
