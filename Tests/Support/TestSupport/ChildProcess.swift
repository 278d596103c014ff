import Foundation

/// A program the tests run, waited for on the calling thread alone.
///
/// Foundation's `Process` learns that a child ended, and a test's helper read its pipes, through
/// work items on Dispatch's shared queues. In a parallel test run those queues also hold every
/// test the run has yet to start, so the item waited behind them while the waiting test held a
/// thread of the pool: the run went on at the speed of one core, and stopped for a minute at a
/// time. Here the child is started with `posix_spawn`, its pipes are read with `poll` and its
/// end is taken with `waitpid`, all on the thread that waits.
public final class ChildProcess: @unchecked Sendable {
    /// How a child ended, with everything it wrote.
    public struct Ended: Sendable {
        /// The exit status; for a child a signal ended, the signal's number (as `Process` gives
        /// it); -1 when the status could not be had.
        public var status: Int32
        public var standardOutput: [UInt8]
        public var standardError: [UInt8]
    }

    /// The child's process id.
    public let pid: pid_t
    private let lock = NSLock()
    private var waitStatus: Int32?
    /// The parent's ends of the pipes (-1 once closed, or for a terminal's child).
    private var input: Int32, output: Int32, error: Int32
    private var pendingInput: [UInt8]

    /// Starts `program` (a path) with `arguments` and exactly `environment`, in `directory` when
    /// given. Its standard input reads `input` and then ends; its output and error are read by
    /// ``wait()``. With `terminal`, all three are that descriptor instead (a pseudo-terminal's
    /// slave end) and ``wait()`` returns no output.
    public init(program: String, arguments: [String], environment: [String: String], directory: String? = nil,
                input: [UInt8] = [], terminal: Int32? = nil) throws {
        _ = Self.ignoreBrokenPipes
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var childEnds: [Int32] = []
        var parentEnds: [Int32] = [-1, -1, -1]
        if let terminal {
            for target in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, terminal, target) }
        } else {
            for target in Int32(0)...2 {
                let ends: (read: Int32, write: Int32)
                do {
                    ends = try SpawnExtras.closeOnExecPipe()
                } catch {
                    (childEnds + parentEnds).filter { $0 >= 0 }.forEach { close($0) }
                    throw error
                }
                // The child reads its input from the pipe's read end and writes to the write ends.
                let (child, parent) = target == 0 ? (ends.read, ends.write) : (ends.write, ends.read)
                childEnds.append(child)
                parentEnds[Int(target)] = parent
                posix_spawn_file_actions_adddup2(&actions, child, target)
            }
            // Feeding the input never blocks, so output is read meanwhile.
            _ = fcntl(parentEnds[0], F_SETFL, fcntl(parentEnds[0], F_GETFL) | O_NONBLOCK)
        }
        SpawnExtras.closeInheritedDescriptors(&actions)
        if let directory { SpawnExtras.changeDirectory(&actions, to: directory) }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // As `Process` starts it: a process group of its own (a signal it sends its group, as
        // Ctrl-Z's stop does, reaches no test), every signal at its default (the tests ignore
        // SIGPIPE, which a child would inherit) and none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), none = sigset_t()
        sigemptyset(&defaults)
        sigemptyset(&none)
        for signal in Int32(1)..<32 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let code = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        childEnds.forEach { close($0) }
        guard code == 0 else {
            parentEnds.filter { $0 >= 0 }.forEach { close($0) }
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        self.pid = pid
        (self.input, self.output, self.error) = (parentEnds[0], parentEnds[1], parentEnds[2])
        pendingInput = input
        if self.input >= 0 && input.isEmpty {
            close(self.input)
            self.input = -1
        }
    }

    /// A child not waited for is killed with the processes it started (its process group).
    deinit {
        if isRunning { kill(-pid, SIGKILL) }
        _ = reap(blocking: true)
        [input, output, error].filter { $0 >= 0 }.forEach { close($0) }
    }

    /// Whether the child has not ended yet.
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// Sends `signal` to the child, if it has not been waited for.
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Feeds the child its input, reads its output and error to their ends, and waits for it.
    public func wait() -> Ended {
        var standardOutput: [UInt8] = [], standardError: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while input >= 0 || output >= 0 || error >= 0 {
            var descriptors = [pollfd(fd: input, events: Int16(POLLOUT), revents: 0),
                               pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: error, events: Int16(POLLIN), revents: 0)]
            if poll(&descriptors, 3, -1) < 0 {
                if errno == EINTR { continue }
                // Never seen; rather than wait on a child that may be stuck on a full pipe:
                kill(-pid, SIGKILL)
                [input, output, error].filter { $0 >= 0 }.forEach { close($0) }
                (input, output, error) = (-1, -1, -1)
                break
            }
            if descriptors[0].revents != 0 {
                let written = pendingInput.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
                if written > 0 { pendingInput.removeFirst(written) }
                if pendingInput.isEmpty || (written < 0 && errno != EINTR && errno != EAGAIN) {
                    close(input)
                    input = -1
                }
            }
            for (index, descriptor) in [(1, output), (2, error)] where descriptors[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    if index == 1 { standardOutput += buffer[0..<count] } else { standardError += buffer[0..<count] }
                } else if count == 0 || errno != EINTR {
                    close(descriptor)
                    if index == 1 { output = -1 } else { error = -1 }
                }
            }
        }
        var status: Int32 = -1
        if let waitStatus = reap(blocking: true), waitStatus != Self.lost {
            let signal = waitStatus & 0x7F
            status = signal != 0 && signal != 0x7F ? signal : (waitStatus >> 8) & 0xFF
        }
        return Ended(status: status, standardOutput: standardOutput, standardError: standardError)
    }

    /// The child's wait status once it has ended (reaped once, then remembered; ``lost`` when
    /// it cannot be had); `nil` while it runs, when not `blocking`. A blocking call waits for the
    /// end outside the lock, so ``send(_:)`` and ``isRunning`` answer meanwhile.
    private func reap(blocking: Bool) -> Int32? {
        if blocking {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        }
        lock.lock()
        defer { lock.unlock() }
        if let waitStatus { return waitStatus }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                waitStatus = status
                return status
            }
            if result < 0 && errno == EINTR { continue }
            if result < 0 {
                // Reaped elsewhere, or SIGCHLD ignored: the end is known, its status is not.
                waitStatus = Self.lost
                return Self.lost
            }
            return nil
        }
    }

    /// The status kept for a child whose end was seen but whose status could not be had.
    private static let lost = Int32.min

    /// Writing to a child that has ended fails with `EPIPE` rather than ending the tests.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()
}
