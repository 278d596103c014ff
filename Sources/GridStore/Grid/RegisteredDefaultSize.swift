import GridLayout

/// A repository's registration domain, as `UserDefaults.register(defaults:)` keeps one: a
/// default size that lives only in this repository instance, is never written, adds no
/// revision and wakes no observer, and packs the items without a size of their own in the
/// snapshots this instance returns.
final class RegisteredDefaultSize: Sendable {
    private struct State {
        var size: TileSize?
        /// The last stored snapshot seen and the one derived from it with `size`.
        var cache: (stored: GridSnapshot, derived: GridSnapshot)?
    }

    private let state = Locked(State())

    /// The registered size, if any.
    var size: TileSize? { state.withLock { $0.size } }

    /// Registers `size` (`nil` forgets the registration).
    func register(_ size: TileSize?) {
        state.withLock { $0 = State(size: size, cache: nil) }
    }

    /// `stored` as this instance sees it: packed with the registered default where items have
    /// no size of their own. Unchanged without a registration, or for a honeycomb.
    func apply(to stored: GridSnapshot) -> GridSnapshot {
        state.withLock { state in
            guard let size = state.size, size != stored.defaultSize, stored.kind == .tiles else { return stored }
            // The same stored state (cheap when it is the very same value, as a grid's cache
            // hands out: arrays compare their storage first). A revision alone is not enough:
            // a grid dropped and made again counts its revisions from 0 again.
            if let cache = state.cache, cache.stored.revision == stored.revision, cache.stored.name == stored.name,
               cache.stored.configuration == stored.configuration, cache.stored.defaultSize == stored.defaultSize,
               cache.stored.explicitSizes == stored.explicitSizes, cache.stored.itemKeys == stored.itemKeys {
                return cache.derived
            }
            let derived = stored.withDefaultSize(size)
            state.cache = (stored, derived)
            return derived
        }
    }

    /// Keeps `seen` as what ``apply(to:)`` returns for `stored`: a change made both, each
    /// re-packed only from the items it touched.
    func remember(stored: GridSnapshot, seen: GridSnapshot) {
        state.withLock { state in
            guard state.size == seen.defaultSize else { return }
            state.cache = (stored, seen)
        }
    }
}
