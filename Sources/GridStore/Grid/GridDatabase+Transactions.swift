extension GridDatabase {
    /// Runs `body` in one read transaction: every grid it reads through the transaction it is
    /// handed is read from one consistent state of the database.
    ///
    /// ```swift
    /// let names = try database.read { transaction in try transaction.grids().map(\.name) }
    /// ```
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, unchanged, or ``GridError``: ``GridError/reentrantCall``
    ///   inside another call's closure on this database, ``GridError/storage(_:)`` when the
    ///   database cannot be read.
    public func read<T>(_ body: (GridReadTransaction) throws -> T) throws -> T {
        let thrown = ThrownByBody()
        do {
            return try storageRead { storage in
                let transaction = GridReadTransaction(database: self, storage: storage)
                defer { transaction.close() }
                return try thrown.run { try body(transaction) }
            }
        } catch {
            throw thrown.translated(error)
        }
    }

    /// Runs `body` in one write transaction: every change it makes through the transaction it
    /// is handed is committed together when it returns, or none when it throws.
    ///
    /// ```swift
    /// try database.write { transaction in
    ///     try transaction.update(phone) { try $0.toggle(at: GridIndexPath(item: 3)) }
    ///     try transaction.update(tablet) { try $0.toggle(at: GridIndexPath(item: 3)) }
    /// }
    /// ```
    ///
    /// The one-grid calls (``Grid/update(operation:_:)``, ``Grid/toggle(at:)`` and the others)
    /// are shorthands for a transaction of one change.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, unchanged (nothing is written then), or ``GridError``:
    ///   ``GridError/reentrantCall`` inside another call's closure on this database,
    ///   ``GridError/storage(_:)`` when the write fails.
    public func write<T>(_ body: (GridWriteTransaction) throws -> T) throws -> T {
        let thrown = ThrownByBody()
        do {
            return try storageWrite { storage in
                let transaction = GridWriteTransaction(database: self, storage: storage)
                defer { transaction.close() }
                let result = try thrown.run { try body(transaction) }
                // A failure the closure caught still rolls the transaction back.
                if let failure = transaction.failure { throw failure }
                return result
            }
        } catch {
            throw thrown.translated(error)
        }
    }
}
