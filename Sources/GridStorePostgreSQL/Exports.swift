// `import GridStorePostgreSQL` is enough to open a server and work with its grids.
@_exported import GridStore
