import GridStore

/// The turns of files' writers, one scheduler per file (its device and inode), shared by every
/// database of the process while one of them has the file open: SQLite allows one writer per
/// file, and its busy handler sleeps and retries, so among threads of one process a writer
/// could lose every race for the lock until its timeout; in one scheduler they take turns in
/// the order they came.
///
/// A list searched in order rather than a dictionary: a process opens few files, and a
/// dictionary keyed by ``FileIdentity`` costs every process a search of the runtime's
/// conformance records when it is first made.
enum FileSchedulers {
    private final class Registry: @unchecked Sendable {
        // @unchecked: `schedulers` is only touched while `lock` is held.
        let lock = PlatformLock()
        var schedulers: [(identity: FileIdentity, scheduler: ConnectionScheduler, users: Int)] = []
    }

    private static let registry = Registry()

    /// The scheduler of the file `identity`'s writers, for one more user; give it back
    /// with ``release(_:)``.
    static func scheduler(for identity: FileIdentity) -> ConnectionScheduler {
        registry.lock.withLock {
            if let index = registry.schedulers.firstIndex(where: { $0.identity == identity }) {
                registry.schedulers[index].users += 1
                return registry.schedulers[index].scheduler
            }
            let scheduler = ConnectionScheduler()
            registry.schedulers.append((identity, scheduler, 1))
            return scheduler
        }
    }

    /// Gives back a scheduler from ``scheduler(for:)``: the last user's leaving removes it.
    static func release(_ scheduler: ConnectionScheduler) {
        registry.lock.withLock {
            guard let index = registry.schedulers.firstIndex(where: { $0.scheduler === scheduler }) else { return }
            registry.schedulers[index].users -= 1
            if registry.schedulers[index].users == 0 { registry.schedulers.remove(at: index) }
        }
    }
}
