import Foundation

/// Counts what the suite did and collects what went wrong.
final class Report: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var processes = 0
    private(set) var commands = 0
    private(set) var crashesInjected = 0
    private(set) var hostileFiles = 0
    private(set) var fuzzCases = 0
    private(set) var failures: [String] = []

    func count(processes: Int = 0, commands: Int = 0, crashes: Int = 0, hostileFiles: Int = 0, fuzzCases: Int = 0) {
        lock.lock()
        defer { lock.unlock() }
        self.processes += processes
        self.commands += commands
        crashesInjected += crashes
        self.hostileFiles += hostileFiles
        self.fuzzCases += fuzzCases
    }

    /// Records a failure; the suite fails if there is any.
    func fail(_ message: String) {
        lock.lock()
        defer { lock.unlock() }
        failures.append(message)
        if failures.count <= 50 { print("FAILURE: \(message)") }
    }

    /// Records a failure unless `condition` holds.
    func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }
}
