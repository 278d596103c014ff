import GridStore

/// `gridstore check [--repair]`.
struct CheckCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Check that every grid's stored placements equal a fresh pack of its sizes, and its sync state.",
        discussion: """
            gridstore re-packs from the sizes and never reads placements back, so placements edited by hand
            only mislead readers of the placements view. A synced grid's sync state is read, and values stamped
            by a device whose clock was fast are found. Without --repair nothing is written and problems exit 1;
            with it placements are rewritten and such values written again at this database's time, in one
            transaction each (revisions stay). --grid checks one grid.
            """,
        options: [repair, QuietOption.option])

    /// `--repair`.
    static let repair = CommandSpec.Option(name: "repair", help: "Rewrite the placements that differ.")

    let repairing: Bool
    let quiet: Bool

    init(parsing arguments: ParsedArguments) throws(CommandLineError) {
        repairing = arguments.flag(Self.repair)
        quiet = arguments.flag(QuietOption.option)
    }

    func run(in context: CommandContext) throws {
        let database = try context.openExistingDatabase(toChange: repairing)
        let checks = try Grid.checkPlacements(in: database, names: context.explicitGridName.map { [$0] }, repairing: repairing)
        let repaired = checks.count { $0.repaired }
        if repaired > 0 { context.noteCommitted("the placements of \(repaired) grid(s) are rewritten") }
        var damaged = 0
        for check in checks where !check.problems.isEmpty {
            damaged += 1
            if quiet { continue }
            for problem in check.problems {
                context.console.write("grid '\(CommandLineOutput.printable(check.grid))': \(problem)\n")
            }
            if check.repaired {
                context.console.write("grid '\(CommandLineOutput.printable(check.grid))': placements rewritten\n")
            }
        }
        let syncChecks = try Grid.checkSyncStates(in: database, names: context.explicitGridName.map { [$0] }, repairing: repairing)
        let syncRepaired = syncChecks.count { $0.repaired }
        if syncRepaired > 0 { context.noteCommitted("the sync states of \(syncRepaired) grid(s) are mended") }
        let syncDamaged = syncChecks.count { !$0.problems.isEmpty }
        let unmended = syncChecks.count { !$0.problems.isEmpty && !$0.repaired }
        for check in syncChecks where !check.problems.isEmpty && !quiet {
            let name = CommandLineOutput.printable(check.grid)
            for problem in check.problems { context.console.write("grid '\(name)': \(CommandLineOutput.printable(problem))\n") }
            if check.repaired { context.console.write("grid '\(name)': sync state mended\n") }
        }
        if !quiet {
            context.console.write("checked \(checks.count) grid(s): "
                                  + (damaged == 0 ? "every placement equals a fresh pack\n"
                                     : repairing ? "\(damaged) repaired\n" : "\(damaged) with placements that differ\n"))
            if syncDamaged > 0 {
                context.console.write("sync states: \(syncDamaged) with problems" + (repairing ? ", \(syncRepaired) mended\n" : "\n"))
            }
        }
        if damaged > 0 && !repairing {
            throw CommandLineError.failure("\(damaged) grid(s) have placements that differ from a fresh pack; "
                                           + "'gridstore check --repair' rewrites them")
        }
        if unmended > 0 {
            throw CommandLineError.failure("\(unmended) grid(s) have sync states with problems; "
                                           + (repairing ? "'gridstore check' says how to mend them" : "'gridstore check --repair' mends what it can"))
        }
    }
}
