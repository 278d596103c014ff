/// A grid's sync state as stored (see `migrations/sqlite/0009_sync_rows.sql`), without its
/// registers: checked by the engine before use.
package struct StoredSyncState: Sendable, Equatable {
    /// The replica id the grid's changes here are made as: 32 lowercase hexadecimal digits.
    package var replica: String
    /// The database's replica id when ``replica`` was minted.
    package var databaseReplica: String
    /// The grid's revision the state is of: changes after it are read from the history.
    package var revision: Int64
    /// The hybrid clock's latest reading.
    package var clock: Int64
    /// What the replica knows of every replica's changes: `<replica>:<time>` entries, comma-separated.
    package var versions: String
    /// How many conflicts the registers hold.
    package var conflicts: Int64
    /// The latest sync version a register changed at (0 before any did).
    package var version: Int64
    /// The latest time of the replica's own writes that left the database; `nil` when not known.
    package var sent: Int64?
    /// The peers the grid met in syncs, and the sync version each holds (`<replica>:<version>:<time>`
    /// entries, comma-separated; empty for none); `nil` when none were recorded. Read with the
    /// state, cut after ``maximumPeersBytes`` plus one byte; written only by
    /// ``StoredSyncWrite/peers``.
    package var peers: String?

    /// The longest ``peers`` text gridstore writes: 64 entries of a replica id, a version and a
    /// time, each number of at most 19 digits, and their separators.
    package static let maximumPeersBytes = 64 * (32 + 1 + 19 + 1 + 19 + 1)

    package init(replica: String, databaseReplica: String, revision: Int64, clock: Int64, versions: String, conflicts: Int64,
                 version: Int64, sent: Int64? = nil, peers: String? = nil) {
        self.sent = sent
        self.peers = peers
        self.replica = replica
        self.databaseReplica = databaseReplica
        self.revision = revision
        self.clock = clock
        self.versions = versions
        self.conflicts = conflicts
        self.version = version
    }
}

/// One register of a grid's sync state as stored: checked by the engine before use.
package struct StoredSyncRegister: Sendable, Equatable {
    /// `grid`, `section` or `item`.
    package var kind: String
    /// The section's or item's sync id; empty for the grid's options.
    package var entity: String
    /// Which of the entity's registers: `columns`, `direction`, `defaultSize`, `honeycomb`; `o`, `a`; `p`, `s`, `k`, `a`.
    package var field: String
    /// The register's writes, as JSON text naming replicas by number.
    package var register: String
    /// The sync version it last changed at.
    package var version: Int64

    package init(kind: String, entity: String, field: String, register: String, version: Int64) {
        self.kind = kind
        self.entity = entity
        self.field = field
        self.register = register
        self.version = version
    }
}

/// A register row as the bytes of its columns (``StoredSyncRegister``'s, UTF-8), valid only
/// inside the call that gives it: what a read of many rows hands on without making strings.
package struct StoredSyncRegisterBytes {
    package var kind: UnsafeBufferPointer<UInt8>
    package var entity: UnsafeBufferPointer<UInt8>
    package var field: UnsafeBufferPointer<UInt8>
    package var register: UnsafeBufferPointer<UInt8>
    package var version: Int64

    package init(kind: UnsafeBufferPointer<UInt8>, entity: UnsafeBufferPointer<UInt8>, field: UnsafeBufferPointer<UInt8>,
                 register: UnsafeBufferPointer<UInt8>, version: Int64) {
        self.kind = kind
        self.entity = entity
        self.field = field
        self.register = register
        self.version = version
    }

    /// The row as strings, its register cut after ``StoredSyncRegisters/maximumRegisterBytes``
    /// plus one byte.
    package var row: StoredSyncRegister {
        func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        let cut = UnsafeBufferPointer(rebasing: register.prefix(StoredSyncRegisters.maximumRegisterBytes + 1))
        return StoredSyncRegister(kind: text(kind), entity: text(entity), field: text(field), register: text(cut), version: version)
    }
}

extension StoredSyncRegister {
    /// Calls `body` with the row's bytes.
    package func withBytes<T>(_ body: (StoredSyncRegisterBytes) throws -> T) rethrows -> T {
        var kind = kind, entity = entity, field = field, register = register
        return try kind.withUTF8 { kind in
            try entity.withUTF8 { entity in
                try field.withUTF8 { field in
                    try register.withUTF8 { register in
                        try body(StoredSyncRegisterBytes(kind: kind, entity: entity, field: field, register: register, version: version))
                    }
                }
            }
        }
    }
}

/// A replica a grid's registers name, by its number.
package struct StoredSyncReplica: Sendable, Equatable {
    package var number: Int64
    package var id: String

    package init(number: Int64, id: String) {
        self.number = number
        self.id = id
    }
}

/// What ``GridStorageTransaction/syncRegisters(gridID:changedAfter:limit:)`` reads.
package struct StoredSyncRegisters: Sendable {
    /// The longest register text read whole: a longer one is damaged.
    package static let maximumRegisterBytes = 4 * 1024 * 1024

    /// In the order of their numbers.
    package var replicas: [StoredSyncReplica]
    package var registers: [StoredSyncRegister]

    package init(replicas: [StoredSyncReplica], registers: [StoredSyncRegister]) {
        self.replicas = replicas
        self.registers = registers
    }

    /// `ids` as one literal a statement binds (a JSON array for SQLite, an array literal for
    /// PostgreSQL): each between `quote`s, comma-separated, between `open` and `close`, keeping
    /// only its hexadecimal digits, so no id can end the literal.
    ///
    /// - Complexity: O(*n*) in the ids' length.
    package static func idList(_ ids: [String], open: Unicode.Scalar, close: Unicode.Scalar, quote: Unicode.Scalar?) -> String {
        var text: [UInt8] = [UInt8(ascii: open)]
        text.reserveCapacity(ids.count * 19 + 2)
        for (position, id) in ids.enumerated() {
            if position > 0 { text.append(UInt8(ascii: ",")) }
            if let quote { text.append(UInt8(ascii: quote)) }
            for byte in id.utf8 where (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20) { text.append(byte) }
            if let quote { text.append(UInt8(ascii: quote)) }
        }
        text.append(UInt8(ascii: close))
        return String(decoding: text, as: UTF8.self)
    }
}

/// What a grid's registers knew at a sync version.
package struct StoredSyncVersion: Sendable, Equatable {
    package var version: Int64
    /// `<replica>:<time>` entries, comma-separated.
    package var versions: String

    package init(version: Int64, versions: String) {
        self.version = version
        self.versions = versions
    }
}

/// One write of a grid's sync state, in one transaction.
package struct StoredSyncWrite: Sendable {
    package var state: StoredSyncState
    /// Whether every register, replica and version entry stored is deleted first.
    package var replacing: Bool
    /// Replicas numbered since the last write.
    package var replicas: [StoredSyncReplica]
    /// Registers inserted or replaced.
    package var registers: [StoredSyncRegister]
    /// Registers deleted: kind, entity and field.
    package var removed: [(kind: String, entity: String, field: String)]
    /// The entry for ``StoredSyncState/version``, when registers changed.
    package var log: StoredSyncVersion?
    /// Every chunk of the items' sync ids, replacing those stored; `nil` to leave them.
    package var itemIDs: [StoredSyncItemIDs]?
    /// Whether every version entry stored is deleted before ``log`` is written.
    package var replacingLog = false
    /// The peers the grid met (``StoredSyncState/peers``), replacing those stored; `nil` to leave them.
    package var peers: String?
    /// How many version entries are kept.
    package static let keptVersions: Int64 = 64

    package init(state: StoredSyncState, replacing: Bool, replicas: [StoredSyncReplica], registers: [StoredSyncRegister],
                 removed: [(kind: String, entity: String, field: String)], log: StoredSyncVersion?,
                 itemIDs: [StoredSyncItemIDs]? = nil) {
        self.itemIDs = itemIDs
        self.state = state
        self.replacing = replacing
        self.replicas = replicas
        self.registers = registers
        self.removed = removed
        self.log = log
    }
}

/// The sync ids of up to ``chunkSize`` consecutive items of a section, as stored.
package struct StoredSyncItemIDs: Sendable, Equatable {
    package static let chunkSize = 256
    /// The longest text a chunk holds: its ids, then its seal.
    package static let maximumTextLength = (chunkSize + 1) * 16

    package var section: Int
    package var firstItem: Int
    /// 16 hexadecimal digits an item, in order, then 16 of the chunk's seal.
    package var ids: String

    package init(section: Int, firstItem: Int, ids: String) {
        self.section = section
        self.firstItem = firstItem
        self.ids = ids
    }
}
