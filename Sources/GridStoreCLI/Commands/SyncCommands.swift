import GridLayout
import GridStore

/// `gridstore sync <other-db> [--grid NAME] [--dry-run] [--format json]`.
struct SyncCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "sync",
        abstract: "Sync every grid, or one, with another database, both ways, merging changes item by item.",
        discussion: """
            Both databases end with every change either made: a size, a place, a key, an option changed on one
            side is taken by the other; where both changed one thing, the later change wins and the other is kept
            as a conflict (gridstore conflicts lists them). Each side is written in one transaction; a sync cut
            short is completed by running it again, and a second sync moves nothing. --dry-run says what would
            move and writes nothing. The rules are in docs/sync.md. Either database may be an SQLite file or a
            postgresql:// URI (a server many devices sync with). Both files must exist: --create makes a missing
            one, a new device that starts with the other's grids, so a mistyped name is an error, not a new file.
            """,
        arguments: [.init(name: "other-db", help: "The database to sync with: a file or a postgresql:// URI.")],
        options: [dryRun, create, allowUnrelated, ValueFormat.option])

    /// `--dry-run`.
    static let dryRun = CommandSpec.Option(name: "dry-run", help: "Say what would move; write nothing.")
    /// `--allow-unrelated`.
    static let allowUnrelated = CommandSpec.Option(name: "allow-unrelated",
                                                   help: "Merge grids that never synced and cannot be one grid (docs/sync.md).")
    /// `--create`.
    static let create = CommandSpec.Option(name: "create", help: "Make a database file that does not exist (a new device).")

    let other: DatabaseArgument
    let dryRunning: Bool
    let creating: Bool
    let allowingUnrelated: Bool
    let format: ValueFormat

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        other = try DatabaseArgument(arguments.positionals[0], from: "<other-db>", command: Self.spec)
        dryRunning = arguments.flag(Self.dryRun)
        creating = arguments.flag(Self.create)
        allowingUnrelated = arguments.flag(Self.allowUnrelated)
        if dryRunning, creating { throw .usage("give --dry-run or --create, not both: a dry run makes no file", command: Self.spec) }
        format = try ValueFormat(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        let peer: GridDatabase
        let database: GridDatabase
        if dryRunning {
            // A dry run writes nothing: neither database is created or migrated.
            for argument in [try context.databaseArgument(), other] where try !argument.exists() {
                throw CommandLineError.failure("no database at '\(CommandLineOutput.printable(argument.location))'; a dry run creates none")
            }
            database = try context.databaseArgument().openReadingOnly()
            peer = try other.openReadingOnly()
            InterruptCleanup.arm(removing: [], message: "sync --dry-run interrupted; nothing was written")
        } else {
            // Seeding a new device is asked for: a mistyped name makes no file and copies nothing into one.
            for (argument, naming) in [(try context.databaseArgument(), context.databaseNaming), (other, "<other-db>")]
                where try !creating && argument.server == nil && !argument.exists() {
                throw CommandLineError.failure("no database at '\(CommandLineOutput.printable(argument.location))' (\(naming)); "
                                               + "to start a new device from the other one, give --create")
            }
            // The other first: one that cannot be reached leaves no file made for this side.
            let creatingOther = try other.server == nil && !other.exists()
            let here = try context.databaseArgument()
            let creatingHere = try here.server == nil && !here.exists()
            // Stopped (Ctrl-C), it removes a file it made: a new device is made whole or not at all.
            let made = (creatingOther ? [other.location] : []) + (creatingHere ? [here.location] : [])
            InterruptCleanup.arm(removing: made, message: "sync interrupted" + made.map {
                "; '\(CommandLineOutput.printable($0))', which it made, is removed"
            }.joined() + "; each grid is as before or after its sync on each side, and syncing again completes it")
            do {
                // A missing file is made by the first change that commits to it: a sync refused,
                // or killed, before it wrote to a new device leaves no file of it.
                peer = try other.open(creatingOnFirstChange: true)
                database = try context.openDatabase()
                if let name = context.explicitGridName, try !Grid.exists(named: name, in: database), try !Grid.exists(named: name, in: peer) {
                    throw context.missingGrid(name)
                }
            } catch {
                // Refused before it synced anything: no file is left of the new device.
                InterruptCleanup.disarm()
                InterruptCleanup.remove(made)
                throw error
            }
            if creatingOther { context.noteCreatedDatabase(at: other.location, namedBy: "<other-db>") }
        }
        defer { InterruptCleanup.disarm() }
        if dryRunning, let name = context.explicitGridName, try !Grid.exists(named: name, in: database),
           try !Grid.exists(named: name, in: peer) {
            throw context.missingGrid(name)
        }
        let progress = ProgressLine("syncing with \(CommandLineOutput.printable(peer.location))")
        let outcomes: [GridSyncOutcome]
        do {
            defer { progress.finish() }
            outcomes = try database.syncEach(with: peer, grids: context.explicitGridName.map { [$0] }, dryRun: dryRunning,
                                             allowingUnrelated: allowingUnrelated) { name, index, count in
                progress.step("grid '\(CommandLineOutput.printable(name))'" + (count > 1 ? " (\(index + 1) of \(count))" : ""))
            }
        }
        let results = outcomes.compactMap { outcome -> GridSyncResult? in
            if case .synced(let result) = outcome { return result }
            return nil
        }
        if !dryRunning, results.contains(where: { $0.sent + $0.received > 0 }) {
            context.noteCommitted("synced \(results.count) grid(s) with \(peer.location)")
        }
        // Each grid refused is one line of its own; the others synced.
        let refusals = outcomes.compactMap { outcome -> (grid: String, error: CommandLineError)? in
            guard case .refused(let grid, let error) = outcome else { return nil }
            return (grid, CommandLineErrorTranslator.translate(error, command: Self.spec))
        }
        let place = CommandLineOutput.printable(peer.location)
        if format == .json {
            let grids = outcomes.map { outcome in
                switch outcome {
                case .synced(let result):
                    return SyncReport.Grid(synced: result)
                case .refused(let grid, _):
                    return SyncReport.Grid(grid: grid, refusal: refusals.first { $0.grid == grid }?.error.message ?? "")
                }
            }
            context.console.write(JSONOutput.text(SyncReport(other: peer.location, dryRun: dryRunning, grids: grids),
                                                  layout: .listsOnLines))
        } else {
            let verb = dryRunning ? (sent: "would send", received: "would receive") : (sent: "sent", received: "received")
            for result in results {
                let name = CommandLineOutput.printable(result.grid)
                let dropped = dryRunning ? "would be dropped" : "dropped"
                let whereDropped = result.drop == .droppedHere ? "here" : "in \(place)"
                if result.drop == .droppedHere || result.drop == .droppedThere,
                   result.revision.after == nil && result.otherRevision.after == nil || dryRunning {
                    // Dropped where it was left; in a dry run, the line says what the sync would do after.
                    let other = result.drop == .droppedHere ? result.otherRevision.after : result.revision.after
                    let takes = other == nil ? "" : ", and the grid of that name \(result.drop == .droppedHere ? "in \(place)" : "here") "
                        + "would take its place"
                    context.console.write("grid '\(name)': \(dropped) \(whereDropped), as a drop of it knew every change it held\(takes)\n")
                    continue
                }
                var line = "grid '\(name)': \(verb.sent) \(result.sent) change(s) to \(place)\(revisions(result.otherRevision)), "
                    + "\(verb.received) \(result.received)\(revisions(result.revision))"
                if result.conflicts > 0 {
                    line += "; \(result.conflicts) conflict(s), see gridstore\(context.databaseOption)"
                        + " --grid \(ShellWord.quoted(result.grid)) conflicts"
                }
                switch result.drop {
                case .kept?: line += "; it was dropped on one side and changed on the other since: kept on both"
                case .droppedHere?, .droppedThere?:
                    line += "; the grid of that name \(whereDropped) was dropped first, as a drop of it knew every change it held"
                case nil: break
                }
                if result.mergedUnrelated, let before = result.revision.before, !dryRunning {
                    line += "; merged with an unrelated grid: 'gridstore\(context.databaseOption) --grid \(ShellWord.quoted(result.grid)) "
                        + "revert --to \(before)' brings back the layout it had here (a change that syncs: copy the grid first to keep both)"
                }
                context.console.write(line + "\n")
            }
            if outcomes.isEmpty { context.console.write("no grids on either side\n") }
        }
        // Synced and reported: a Ctrl-C from here on removes no file it made.
        InterruptCleanup.disarm()
        GridDatabase.closeAtOnce([database, peer])
        guard let last = refusals.last else { return }
        for refusal in refusals.dropLast() {
            context.console.writeError("Error: grid '\(CommandLineOutput.printable(refusal.grid))' was not synced: \(refusal.error.message)\n")
        }
        var error = last.error
        error = CommandLineError(kind: error.kind, message: "grid '\(CommandLineOutput.printable(last.grid))' was not synced: \(error.message)",
                                 printsUsage: false)
        throw error
    }


    /// ` (revision 3 → 4)`, ` (a new grid)`, or nothing when the revision stays.
    private func revisions(_ change: (before: Int?, after: Int?)) -> String {
        switch change {
        case (nil, let after?): " (a new grid at revision \(after))"
        case (let before?, let after?) where before != after: " (revision \(before) → \(after))"
        default: ""
        }
    }
}

/// `gridstore conflicts [--format json]`.
struct ConflictsCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "conflicts",
        abstract: "List the values concurrent changes on other replicas overwrote, kept since the last sync.",
        discussion: """
            When two databases changed one thing without seeing each other's change (a size, a place, a key, an
            option), the later change wins on both and the other is listed here, with the replica that made each
            and the name its database goes by (gridstore name), until a database that has seen both changes it
            again. With --format json: {"grid":"default","conflicts":[{"field":"size","section":0,"item":3,
            "key":null,"kept":"big","keptBy":"…","keptByName":"Anna's iPad","overwritten":"middle",
            "overwrittenBy":"…","overwrittenByName":null}]}.
            """,
        options: [ValueFormat.option])

    let format: ValueFormat

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        format = try ValueFormat(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        let grid = try Grid(named: context.gridName, in: context.openExistingDatabase(), creatingWith: nil)
        let conflicts = try grid.syncConflicts()
        if format == .json {
            let items = conflicts.map { conflict in
                ConflictList.Conflict(field: conflict.field.rawValue, section: conflict.item?.section, item: conflict.item?.item,
                                      key: conflict.key, kept: conflict.kept, keptBy: "\(conflict.keptBy)", keptByName: conflict.keptByName,
                                      overwritten: conflict.overwritten, overwrittenBy: "\(conflict.overwrittenBy)",
                                      overwrittenByName: conflict.overwrittenByName)
            }
            context.console.write(JSONOutput.text(ConflictList(grid: grid.name, conflicts: items), layout: .listsOnLines))
            return
        }
        guard !conflicts.isEmpty else {
            context.console.write("no conflicts in grid '\(CommandLineOutput.printable(grid.name))'\n")
            return
        }
        for conflict in conflicts { context.console.write(CommandLineOutput.printable(conflict.description) + "\n") }
    }
}

/// `gridstore sync-cursor`.
struct SyncCursorCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "sync-cursor",
        abstract: "Print what this database knows of every replica's changes to the grid, for a peer's sync-export.",
        discussion: """
            An app that moves sync bundles itself (over HTTP, a file) sends this line to the peer, which answers
            with gridstore sync-export --since <cursor>. With --format json, the cursor and each replica it names, with
            the name its database goes by, when its latest change known here was made, and when a sync with it (or a
            bundle it made) was last merged here, for the peers this grid met (milliseconds since 1970):
            {"grid":"default","cursor":"…","replicas":[{"replica":"…","name":"Anna's iPad","here":false,
            "latestChange":1764790000000,"lastSynced":1764790100000}]}.
            """,
        options: [ValueFormat.option])

    let format: ValueFormat

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        format = try ValueFormat(arguments, command: Self.spec)
    }

    func run(in context: CommandContext) throws {
        let grid = try Grid(named: context.gridName, in: context.openExistingDatabase(), creatingWith: nil)
        let cursor = try grid.syncCursor()
        guard format == .json else { return context.console.write(cursor.description + "\n") }
        let replicas = try grid.syncReplicas().map { replica in
            CursorReport.Replica(replica: "\(replica.id)", name: replica.name, here: replica.isHere, latestChange: replica.latestChange,
                                 lastSynced: replica.lastSynced)
        }
        context.console.write(JSONOutput.text(CursorReport(grid: grid.name, cursor: cursor.description, replicas: replicas),
                                              layout: .listsOnLines))
    }
}

/// `gridstore sync-export [--since CURSOR] [--format binary|json]`.
struct SyncExportCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "sync-export",
        abstract: "Write a sync bundle of the grid's changes a peer lacks to standard output.",
        discussion: """
            --since gives the peer's cursor (gridstore sync-cursor on the peer); without it the bundle holds
            everything. The changes made here since the last sync are recorded first. The bundle is binary, format
            2 of docs/sync.md, and is not written to a terminal; --format json writes format 1, JSON text a person
            can read, which gridstore sync-import takes as well (gridstore sync-show prints any bundle that way).
            """,
        options: [since, format])

    /// `--since CURSOR`.
    static let since = CommandSpec.Option(name: "since", valueName: "cursor", help: "The peer's cursor, from its sync-cursor.")
    /// `--format binary|json`.
    static let format = CommandSpec.Option(name: "format", valueName: "binary|json",
                                           help: "binary, format 2 (the default), or json, format 1.")

    let cursor: SyncCursor
    let json: Bool

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        let text = arguments.value(Self.since) ?? ""
        guard let cursor = SyncCursor(text) else {
            throw .usage("'\(CommandLineOutput.printable(String(text.prefix(60))))' is not a cursor; give what sync-cursor printed "
                         + "on the peer", command: Self.spec)
        }
        self.cursor = cursor
        json = try arguments.value(Self.format).map { text throws(CommandLineError) in
            try ValueParser.choice(text, name: "--format", choices: [("binary", false), ("json", true)], command: Self.spec)
        } ?? false
    }

    func run(in context: CommandContext) throws {
        // Checked before anything is recorded: a bundle shown on a terminal is lost, and garbles it.
        if !json, Platform.isTerminal(.standardOutput) {
            throw CommandLineError.usage("a sync bundle is binary and standard output is a terminal; redirect it to a file "
                                         + "(> bundle.gsync) or a pipe, or give --format json", command: Self.spec)
        }
        let grid = try Grid(named: context.gridName, in: context.openDatabase(), creatingWith: nil)
        let bundle = try grid.syncBundle(since: cursor)
        // The grid's changes since its last sync are recorded for sync first: output that then
        // fails must not say that nothing was changed.
        context.noteCommitted("any changes of grid '\(grid.name)' since its last sync were recorded for sync")
        context.console.write(bytes: json ? bundle.encodedAsJSON() : bundle.encoded())
    }
}

/// `gridstore sync-show <file|->`.
struct SyncShowCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "sync-show",
        abstract: "Print a sync bundle, in either format, as JSON text (format 1) a person can read.",
        discussion: """
            Reads no database: the bundle is checked as sync-import checks it, and a bundle it refuses is refused
            here in the same line. The JSON is what sync-export --format json writes, and sync-import takes it.
            """,
        arguments: [.init(name: "file", help: "The bundle, or - for standard input.")])

    let source: String

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        source = arguments.positionals[0]
    }

    func run(in context: CommandContext) throws {
        let bytes = try InputFile.read(source, limit: SyncBundle.maximumBytes)
        do {
            context.console.write(bytes: try SyncBundle(decoding: bytes).encodedAsJSON())
        } catch {
            throw CommandLineError.badInput("\(InputFile.displayName(source)) is not a bundle gridstore reads: \(error)")
        }
    }
}

/// `gridstore sync-import <file|->`.
struct SyncImportCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "sync-import",
        abstract: "Merge a sync bundle another replica exported into the grid, creating the grid if missing.",
        discussion: """
            One transaction: a bundle that is malformed, from a newer gridstore, larger than 256 MiB, holding changes
            its sender stamped more than five minutes ahead of this database's clock, made as this database's own
            changes, or for another grid is refused whole, in one line, and nothing is applied. So is a bundle of
            the whole grid from replicas this grid never synced with that cannot be the same grid (a honeycomb and
            tiles, or four or more keys each and none in common), unless --allow-unrelated. Applying a bundle
            again changes nothing. A database file that does not exist is made from the bundle (a new device).
            """,
        arguments: [.init(name: "file", help: "The bundle, or - for standard input.")],
        options: [SyncCommand.allowUnrelated, QuietOption.option])

    let source: String
    let quiet: Bool
    let allowingUnrelated: Bool

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        source = arguments.positionals[0]
        quiet = arguments.flag(QuietOption.option)
        allowingUnrelated = arguments.flag(SyncCommand.allowUnrelated)
    }

    func run(in context: CommandContext) throws {
        let bytes = try InputFile.read(source, limit: SyncBundle.maximumBytes)
        let result: GridSyncResult
        do {
            // Checked before a missing database file is created, so a refused bundle leaves none.
            let bundle = try SyncBundle(decoding: bytes)
            if bundle.grid != context.gridName {
                throw SyncError.wrongGrid(bundle.grid, expected: context.gridName)
            }
            // A new device starts from a bundle: the grid, and the file, are made from it; a bundle
            // refused makes no file.
            result = try Grid(named: context.gridName, in: context.openDatabase(), creatingWith: GridOptions())
                .applySyncBundle(bundle, allowingUnrelated: allowingUnrelated)
        } catch let error as SyncError {
            throw CommandLineError.badInput("\(InputFile.displayName(source)) cannot be applied: \(error)")
        } catch let GridError.sync(error) {
            throw CommandLineError.badInput("\(InputFile.displayName(source)) cannot be applied: \(error)")
        }
        if result.received > 0 { context.noteCommitted("applied a sync bundle to grid '\(result.grid)'") }
        if quiet { return }
        let revision = switch result.revision {
        case (nil, let after?): " (a new grid at revision \(after))"
        case (let before?, let after?) where before != after: " (revision \(before) → \(after))"
        default: ""
        }
        context.console.write("grid '\(CommandLineOutput.printable(result.grid))': took \(result.received) change(s)\(revision)"
                              + (result.conflicts > 0 ? "; \(result.conflicts) conflict(s)" : "")
                              + (result.drop == .droppedHere ? "; it was dropped here, and the bundle holds no change made since: "
                                 + "it stays dropped" : "")
                              + (result.drop == .kept ? "; it was dropped here, and the bundle brings changes made since: it is back" : "")
                              + (result.leftOut > 0 ? "; \(result.leftOut) tile(s) or section(s) it changes are not in this database, "
                                 + "which no longer has the state the bundle was made for (a restore from a backup): a sync with "
                                 + "the database it came from brings them" : "")
                              + "\n")
    }
}
