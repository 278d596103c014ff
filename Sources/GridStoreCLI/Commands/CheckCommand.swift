import GridStore

/// `gridstore check [--repair]`.
struct CheckCommand: GridStoreCommand {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Check that every grid's stored placements equal a fresh pack of its sizes.",
        discussion: """
            gridstore re-packs from the sizes and never reads placements back, so placements edited by hand
            only mislead readers of the placements view. Without --repair nothing is written and differences
            exit 1; with it they are rewritten in one transaction (revisions stay). --grid checks one grid.
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
        if !quiet {
            context.console.write("checked \(checks.count) grid(s): "
                                  + (damaged == 0 ? "every placement equals a fresh pack\n"
                                     : repairing ? "\(damaged) repaired\n" : "\(damaged) with placements that differ\n"))
        }
        if damaged > 0 && !repairing {
            throw CommandLineError.failure("\(damaged) grid(s) have placements that differ from a fresh pack; "
                                           + "'gridstore check --repair' rewrites them")
        }
    }
}
