extension GridDatabase {
    /// The name this database goes by as a replica, which its peers show with its changes
    /// (conflicts, history, JSON): the one given with ``setReplicaName(_:)``, else the host name
    /// of the machine that first synced it, else the host name of this machine; `nil` when
    /// none of them can be one (see ``GridLimits/validate(replicaName:)``).
    public func replicaName() throws(GridError) -> String? {
        try GridError.catching {
            try storageRead { transaction in try SyncSide.databaseName(in: transaction, storing: false) }
        }
    }

    /// Names this database for its peers ("Anna's iPad"), in one transaction: every grid that
    /// syncs records the name now, and each grid's next sync that moves a change carries it.
    /// The name is a label: it changes no grid, and is not counted as a change.
    ///
    /// - Parameter name: 1 to 64 Unicode scalars, one visible at least, no control characters
    ///   (see ``GridLimits/validate(replicaName:)``); stored in its canonical form (NFC).
    /// - Throws: ``GridError/invalidReplicaName(_:reason:)``, changing nothing.
    public func setReplicaName(_ name: String) throws(GridError) {
        let name = GridLimits.canonical(name)
        try GridLimits.validate(replicaName: name)
        try GridError.catching {
            try storageWrite { transaction in
                try transaction.setReplicaName(name)
                for grid in try transaction.listGrids() {
                    guard let header = try transaction.header(named: grid.name)?.header(),
                          try transaction.syncState(gridID: header.id) != nil else { continue }
                    var side: SyncSide
                    do {
                        side = try SyncSide.prepare(grid.name, in: transaction, minting: true)
                    } catch GridError.corrupted, GridError.sync {
                        // A grid whose sync state cannot be read is refused by every sync until
                        // `gridstore check` mends it; the name reaches it at its next sync.
                        continue
                    }
                    side.write(name: name)
                    try side.store(in: transaction, origin: nil, sending: false)
                }
            }
        }
    }
}
