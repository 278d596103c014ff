/// A grid dropped after it took part in sync, as stored (`sync_drops`): checked by the engine
/// before use (``SyncDrop``).
package struct StoredSyncDrop: Sendable, Equatable {
    /// The grid's name.
    package var name: String
    /// What the grid knew of every replica's changes when it was dropped, as
    /// ``StoredSyncState/versions`` holds it.
    package var versions: String
    /// When it was dropped, in milliseconds since 1970: for people, sync never reads it.
    package var droppedAt: Int64

    package init(name: String, versions: String, droppedAt: Int64) {
        self.name = name
        self.versions = versions
        self.droppedAt = droppedAt
    }

    /// The most ``versions`` may hold, in bytes: ``SyncBundle/maximumReplicas`` entries.
    package static let maximumVersionsBytes = 530_000
}
