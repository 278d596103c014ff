import GridStore
import Synchronization

/// A one-line progress report on standard error for work that takes over a second, as git
/// shows while it clones: `importing grid.json: writing 1,000,000 items… 3 s`.
///
/// Only when standard error is a terminal; nothing is written for quick work, to a pipe or
/// a file. A thread of its own redraws the line when its seconds change, so a long step still shows
/// its time; ``finish()`` clears the line before the command's own output is written.
final class ProgressLine: Sendable {
    /// How long work runs before the line appears.
    static let delayMilliseconds = 1_000

    private struct State {
        var step: String
        var started: ContinuousClock.Instant
        var shown = false
        var finished = false
    }

    private let title: String
    private let state: Mutex<State>

    /// Starts reporting `title` (such as `importing grid.json`), if standard error is a terminal.
    init(_ title: String, enabled: Bool = Platform.isTerminal(.standardError)) {
        self.title = title
        state = Mutex(State(step: "starting", started: .now))
        guard enabled else { return }
        Task.detached { [self] in await redrawUntilFinished() }
    }

    /// Names the step now running: `reading`, `checking 812 items`, `writing`.
    func step(_ step: String) {
        state.withLock { $0.step = step }
    }

    /// Ends the report, clearing the line if it was shown.
    func finish() {
        state.withLock { state in
            state.finished = true
            // Under the lock: no redraw can follow the clearing.
            if state.shown { Self.write("\r\u{1B}[K") }
        }
    }

    private func redrawUntilFinished() async {
        var last = ""
        while true {
            try? await Task.sleep(for: .milliseconds(250))
            let running: Bool = state.withLock { state in
                if state.finished { return false }
                let elapsed = ContinuousClock.now - state.started
                guard elapsed >= .milliseconds(Self.delayMilliseconds) else { return true }
                state.shown = true
                // Cut to the terminal's width, with room for a `^C` the terminal echoes: a line
                // that wrapped could not be cleared whole.
                let width = max(Platform.terminalSize()?.columns ?? 80, 6)
                var text = "\(title): \(state.step)… \(elapsed.components.seconds) s"
                if text.count > width - 3 { text = String(text.prefix(width - 4)) + "…" }
                let line = "\r\u{1B}[K" + text
                if line != last { Self.write(line) }
                last = line
                return true
            }
            guard running else { return }
        }
    }

    private static func write(_ text: String) {
        try? Platform.writeAll(Array(text.utf8), to: .standardError)
    }
}
