import GridLayout
import GridStore

/// The editor without its terminal: what is focused, picked up or being swapped, what each
/// key does to the grid (every change committed at once), and what the screen shows.
package final class EditorModel {
    /// What a key press started and has not finished.
    enum Mode: Equatable {
        case normal
        /// A tile picked up at `from`, now at `at` in the order (not committed until dropped).
        case moving(from: Int, at: Int)
        /// The first tile of a swap chosen; the focus picks the second.
        case swapping(first: Int)
        /// The help is shown until the next key.
        case help
    }

    let grid: Grid
    private(set) var snapshot: GridSnapshot
    private(set) var section = 0
    private(set) var focus: Int?
    private(set) var mode = Mode.normal
    private(set) var message: String?
    /// The first row (tiles) or line and column (honeycomb) shown.
    private var top = 0
    private var origin = (line: 0, column: 0)
    /// The tile a mouse button went down on, and whether the mouse has moved since.
    private var pressed: (item: Int, dragged: Bool)?

    /// Opens the editor on `grid`, which must exist.
    package init(grid: Grid) throws {
        self.grid = grid
        snapshot = try grid.snapshot()
        focus = snapshot.itemCounts.first.map { $0 > 0 ? 0 : nil } ?? nil
    }

    // MARK: Keys

    /// Acts on `key`.
    ///
    /// - Returns: `false` when the key asks to quit.
    package func handle(_ key: EditorKey) -> Bool {
        if mode == .help {
            mode = .normal
            return true
        }
        message = nil
        if key != .character("q") { quitWithUnsavedArmed = false }
        do {
            switch key {
            case .character("q"):
                if case .moving = mode { mode = .normal }
                try commitPending()
                if !pending.isEmpty && !quitWithUnsavedArmed {
                    quitWithUnsavedArmed = true
                    message = "\(pending.count) change(s) not saved yet: the database cannot be reached; "
                        + "wait for it, or press q again to quit without them"
                    return true
                }
                return false
            case .up, .character("k"): moveFocus(dx: 0, dy: -1)
            case .down, .character("j"): moveFocus(dx: 0, dy: 1)
            case .left, .character("h"): moveFocus(dx: -1, dy: 0)
            case .right, .character("l"): moveFocus(dx: 1, dy: 0)
            case .space, .enter: try activate()
            case .escape:
                if case .moving(let from, _) = mode {
                    focus = from
                    message = "put back"
                } else if mode != .normal {
                    message = "cancelled"
                }
                mode = .normal
            case .character("m"): try pickUp()
            case .character("s"):
                guard let focus else { break }
                try requireTiles("swap sizes")
                mode = .swapping(first: focus)
            case .character("i"): try insert()
            case .character("x"): try delete()
            case .character("t"):
                let type = try change("type toggle") { try $0.toggleType() }
                message = "type \(type?.rawValue ?? "?")"
            case .character("u"):
                guard try savedBeforeHistory() else { break }
                try reload(with: grid.undo(), note: "undid")
            case .character("U"):
                guard try savedBeforeHistory() else { break }
                try reload(with: grid.redo(), note: "redid")
            // Not while a tile is carried or a swap chosen: that would drop them unseen.
            case .character("?") where mode == .normal: mode = .help
            case .tab: nextSection()
            case .press(let column, let line): pressed = item(atColumn: column - 1, line: line - 1).map { ($0, false) }
            case .drag(let column, let line): try drag(toColumn: column - 1, line: line - 1)
            case .release(let column, let line): try release(atColumn: column - 1, line: line - 1)
            default: break
            }
        } catch let error as GridError {
            message = error.description
        } catch {
            message = "\(error)"
        }
        return true
    }

    /// Picks up the snapshot another process committed, keeping the focus on the same item.
    ///
    /// - Returns: Whether anything changed.
    /// A database that cannot be reached is shown in the status line, and tried again at the
    /// next refresh; the screen stays as it is meanwhile.
    package func refresh() throws -> Bool {
        let committedChanged = try commitPending()
        guard pending.isEmpty else { return committedChanged }
        let hadOutage = outage != nil
        let shownRevision = snapshot.revision
        let read = try reachingDatabase { () throws(GridError) -> GridSnapshot? in
            try grid.currentRevision() == shownRevision ? nil : grid.snapshot()
        }
        guard let read, let current = read else { return committedChanged || hadOutage != (outage != nil) }
        let key = focus.flatMap { try? snapshot.key(at: GridIndexPath(item: $0, section: section)) }
        snapshot = current
        if let key, let path = snapshot.indexPath(forKey: key) {
            section = path.section
            focus = path.item
        }
        clampFocus()
        if case .moving = mode { mode = .normal; message = "the grid changed; the tile was put back" }
        return true
    }

    // MARK: Changes

    /// Commits what waits, and says whether an undo or a redo may go ahead: not while changes
    /// made before it wait, since it would act on the wrong one.
    private func savedBeforeHistory() throws -> Bool {
        try commitPending()
        guard pending.isEmpty else {
            message = "\(pending.count) change(s) wait to be saved; undo and redo once they are"
            return false
        }
        return true
    }

    /// Space or enter: toggles the focused tile, drops a picked-up one, or finishes a swap.
    private func activate() throws {
        guard let focus else { return }
        switch mode {
        case .moving(let from, let at):
            mode = .normal
            guard from != at else { return }
            _ = try change("move \(from) \(at)\(sectionSuffix)") {
                try $0.moveItem(from: self.path(from), to: self.path(at))
            }
            self.focus = at
        case .swapping(let first):
            mode = .normal
            _ = try change("swap \(first) \(focus)\(sectionSuffix)") { try $0.swapItems(self.path(first), self.path(focus)) }
        default:
            try requireTiles("change sizes")
            let size = try change("toggle \(focus)\(sectionSuffix)") { try $0.toggle(at: self.path(focus)) }
            message = "item \(focus): \(size?.rawValue ?? "?")"
        }
    }

    private func pickUp() throws {
        guard let focus else { return }
        try requireTiles("move its items, which all look alike")
        mode = .moving(from: focus, at: focus)
    }

    private func insert() throws {
        let at = (focus ?? -1) + 1
        _ = try change("insert \(at)\(sectionSuffix)") { try $0.insertItem(at: self.path(at)) }
        focus = at
    }

    private func delete() throws {
        guard let focus else { return }
        _ = try change("delete \(focus)\(sectionSuffix)") { try $0.deleteItem(at: self.path(focus)) }
        clampFocus()
    }

    /// The changes shown but not committed yet, oldest first: each with its operation, its edits
    /// and the state it was shown over. More than one only while the database cannot be reached.
    private var pending: [(operation: String, body: (inout GridEditor) throws -> Void, shownOver: GridSnapshot)] = []

    /// Why the database could not be reached at the last try, while it cannot: the status line
    /// says so, and the changes made meanwhile wait in ``pending`` to be committed.
    package fileprivate(set) var outage: String?

    /// Whether `q` was pressed once while changes waited: a second one quits without them.
    private var quitWithUnsavedArmed = false

    /// How many changes wait to be committed.
    package var unsavedChangeCount: Int { pending.count }

    /// Shows the change `body` makes at once, and leaves it to ``commitPending()`` to commit as
    /// one change recorded as `operation`, so the screen answers a key before the commit's sync.
    private func change<T>(_ operation: String, _ body: @escaping (inout GridEditor) throws -> T) throws -> T? {
        try commitPending()
        var result: T?
        let shown = try GridEditor.preview(snapshot) { editor in result = try body(&editor) }
        pending.append((operation + " (edit)", { _ = try body(&$0) }, snapshot))
        snapshot = shown
        clampFocus()
        return result
    }

    /// Commits the change shown last, if any.
    ///
    /// - Returns: Whether the screen should be drawn again (the stored result differs from what
    ///   was shown, or the commit failed and the change was taken back).
    ///
    /// While the database cannot be reached (a server restarting or failing over), the changes
    /// stay shown and wait, in order, for the next try: only while nothing of them can have been
    /// committed (a database that could not be reached, or a lock held past the timeout). One
    /// the database refuses, or whose commit may or may not have happened, is taken back with
    /// those made after it, and the screen shows the database's state.
    @discardableResult
    package func commitPending() throws -> Bool {
        guard !pending.isEmpty else { return false }
        let shown = snapshot
        let hadOutage = outage != nil
        while let change = pending.first {
            switch Result(catching: { try grid.update(operation: change.operation, change.body) }) {
            case .success(let committed):
                outage = nil
                pending.removeFirst()
                if pending.isEmpty { snapshot = committed }
            case .failure(let error):
                if let failure = (error as? GridError)?.storageFailure {
                    outage = failure.message
                    return !hadOutage || snapshot != shown
                }
                pending.removeAll()
                outage = nil
                message = (error as? GridError)?.description ?? "\(error)"
                snapshot = (try? grid.snapshot()) ?? change.shownOver
            }
        }
        clampFocus()
        return hadOutage || snapshot != shown || snapshot.layout.sections.count != shown.layout.sections.count
    }

    /// Shows `changed`, an undo's or a redo's result, saying which change it acted on:
    /// `undid revision 3, 'toggle 2 (edit)'; now revision 5`.
    private func reload(with changed: GridSnapshot, note: String) throws {
        snapshot = changed
        if let target = try grid.history(limit: 1).first(where: { $0.revision == changed.revision })?.targets.first {
            // The entries from the target on: no more than the distance back.
            let entries = try grid.history(limit: max(1, changed.revision - target + 1))
            let operation = entries.first { $0.revision == target }.map { ", '\(CommandLineOutput.printable($0.operation))'" } ?? ""
            message = "\(note) revision \(target)\(operation); now revision \(changed.revision)"
        } else {
            message = "\(note); now revision \(changed.revision)"
        }
        clampFocus()
    }

    private func requireTiles(_ what: String) throws {
        if snapshot.kind == .honeycomb { throw GridError.notTiles(operation: what, grid: snapshot.name) }
    }

    private func path(_ item: Int) -> GridIndexPath { GridIndexPath(item: item, section: section) }

    private var sectionSuffix: String { section == 0 ? "" : " --section \(section)" }

    private var itemCount: Int { section < snapshot.itemCounts.count ? snapshot.itemCounts[section] : 0 }

    private func clampFocus() {
        if section >= snapshot.itemCounts.count { section = max(0, snapshot.itemCounts.count - 1) }
        let count = itemCount
        focus = count == 0 ? nil : min(max(0, focus ?? 0), count - 1)
    }

    private func nextSection() {
        guard snapshot.itemCounts.count > 1, mode == .normal else { return }
        section = (section + 1) % snapshot.itemCounts.count
        focus = nil
        top = 0
        clampFocus()
        message = "section \(section)"
    }

    // MARK: Focus

    /// Moves the focus to the nearest tile whose center lies in direction (dx, dy) on screen;
    /// a picked-up tile moves one place through the order instead.
    private func moveFocus(dx: Int, dy: Int) {
        if case .moving(let from, let at) = mode {
            let next = min(max(0, at + (dx + dy > 0 ? 1 : -1)), itemCount - 1)
            mode = .moving(from: from, at: next)
            focus = next
            return
        }
        guard let focus else { return }
        let centers = screenCenters()
        guard focus < centers.count else { return }
        let here = centers[focus]
        var best: (item: Int, score: Double)?
        for (item, center) in centers.enumerated() where item != focus {
            let along = Double(dx) * (center.x - here.x) + Double(dy) * (center.y - here.y)
            guard along > 0.01 else { continue }
            let across = abs(Double(dy) * (center.x - here.x) + Double(dx) * (center.y - here.y))
            let score = along + 1.5 * across
            if best == nil || score < best!.score { best = (item, score) }
        }
        if let best { self.focus = best.item }
    }

    /// Each item's center in screen units (a cell is about twice as wide as tall in characters).
    private func screenCenters() -> [(x: Double, y: Double)] {
        if let layout = snapshot.honeycombLayout, let configuration = snapshot.honeycomb {
            return HoneycombEditorView(layout, configuration: configuration, area: 0..<1, width: 80).centers
        }
        return snapshot.layout.sections[section].packer.map { rect in
            let x = Double(rect.x) + Double(rect.width) / 2, y = Double(rect.y) + Double(rect.height) / 2
            return snapshot.direction == .vertical ? (x, y) : (y, x)
        }
    }

    // MARK: Mouse

    private func drag(toColumn column: Int, line: Int) throws {
        guard let press = pressed, snapshot.kind == .tiles, let over = item(atColumn: column, line: line) else { return }
        pressed = (press.item, true)
        mode = .moving(from: press.item, at: over)
        focus = over
    }

    private func release(atColumn column: Int, line: Int) throws {
        defer { pressed = nil }
        guard let press = pressed else { return }
        if press.dragged, case .moving = mode {
            try activate()
        } else if item(atColumn: column, line: line) == press.item {
            focus = press.item
            mode = .normal
            if snapshot.kind == .tiles { try activate() }
        }
    }

    private func item(atColumn column: Int, line: Int) -> Int? {
        let size = lastSize
        if let layout = snapshot.honeycombLayout, let configuration = snapshot.honeycomb {
            return HoneycombEditorView(layout, configuration: configuration, area: 1..<(size.lines - 1), width: size.columns)
                .item(atColumn: column, line: line, origin: origin)
        }
        return tileView(displayed, size: size).item(atColumn: column, line: line, top: top)
    }

    // MARK: Drawing

    /// The size of the last screen drawn, for mouse positions.
    private var lastSize = (columns: 80, lines: 24)

    /// The grid as it shows: with a picked-up tile where it is being carried.
    private var displayed: GridSnapshot {
        guard case .moving(let from, let at) = mode, from != at else { return snapshot }
        return (try? GridEditor.preview(snapshot) { editor throws(GridError) in
            try editor.moveItem(from: GridIndexPath(item: from, section: section), to: GridIndexPath(item: at, section: section))
        }) ?? snapshot
    }

    private func tileView(_ shown: GridSnapshot, size: (columns: Int, lines: Int)) -> TileEditorView {
        TileEditorView(section: shown.layout.sections[min(section, shown.layout.sections.count - 1)], direction: shown.direction,
                       area: 1..<max(2, size.lines - 1), width: size.columns)
    }

    /// The screen for a terminal of `columns` by `lines`.
    package func render(columns: Int, lines: Int) -> EditorScreen {
        lastSize = (columns, lines)
        var screen = EditorScreen(width: columns, height: lines)
        let shown = displayed
        screen.bar(statusLine(shown), line: 0)
        if mode == .help {
            // Lines 2 up to the bar; on a short terminal the last shown line says there is more.
            var help = Self.helpLines(width: columns - 2)
            let room = max(0, lines - 3)
            if help.count > room, room > 0 {
                help = Array(help.prefix(room - 1)) + [Self.fitted("… more on a taller terminal; any key goes back", width: columns - 2)]
            }
            for (index, text) in help.prefix(room).enumerated() { screen.put(text, line: 2 + index, column: 2) }
        } else if let layout = snapshot.honeycombLayout, let configuration = snapshot.honeycomb {
            let view = HoneycombEditorView(layout, configuration: configuration, area: 1..<max(2, lines - 1), width: columns)
            origin = view.scrolled(origin, toShow: focus)
            view.draw(into: &screen, origin: origin, focus: focus)
        } else if !snapshot.layout.sections.isEmpty {
            let view = tileView(shown, size: (columns, lines))
            top = view.scrolled(top: top, toShow: focus)
            view.draw(into: &screen, top: top, focus: focus)
        } else {
            screen.put("(no sections)", line: 2, column: 2)
        }
        screen.bar(" " + (message.map { Self.fitted($0, width: columns - 1) } ?? Self.fittedHint(hint, width: columns - 1)), line: lines - 1)
        return screen
    }

    /// `hint`'s ` · `-separated parts that fit `width` whole, in order; where parts had to go,
    /// a hint that lists `? help` keeps it last, so no word is cut and the keys stay findable.
    static func fittedHint(_ hint: String, width: Int) -> String {
        guard DisplayWidth.columns(of: hint) > width else { return hint }
        let parts = hint.split(separator: " · ").map(String.init)
        let tail = parts.contains("? help") ? ["? help"] : []
        var kept: [String] = []
        for part in parts where part != "? help" && part != "q quit" {
            let candidate = (kept + [part] + tail).joined(separator: " · ")
            guard DisplayWidth.columns(of: candidate) <= width else { break }
            kept.append(part)
        }
        let text = (kept + tail).joined(separator: " · ")
        return DisplayWidth.columns(of: text) <= width && !text.isEmpty ? text : fitted(parts[0], width: width)
    }

    /// `text` cut at the last space that leaves it within `width`, with `…`, when it is wider.
    static func fitted(_ text: String, width: Int) -> String {
        guard DisplayWidth.columns(of: text) > width else { return text }
        let room = DisplayWidth.prefix(text, fitting: max(0, width - 1))
        let words = room.lastIndex(of: " ").map { String(room[..<$0]) } ?? room
        return words + "…"
    }

    /// ``help`` wrapped to `width`, a key's description continued under its start.
    static func helpLines(width: Int) -> [String] {
        help.flatMap { line -> [String] in
            guard DisplayWidth.columns(of: line) > width else { return [line] }
            // `  key               description`: the description starts at column 20.
            let indent = line.hasPrefix("  ") && line.count > 20 ? 20 : 0
            let head = String(line.prefix(indent)), body = String(line.dropFirst(indent))
            let wrapped = HelpFormatter.wrap(body, width: max(1, width - indent))
            return wrapped.enumerated().map { ($0.offset == 0 ? head : String(repeating: " ", count: indent)) + $0.element }
        }
    }

    /// Grid name, type, revision, and the focused item with its size.
    private func statusLine(_ shown: GridSnapshot) -> String {
        var parts = [CommandLineOutput.printable(snapshot.name)]
        if let honeycomb = snapshot.honeycomb {
            parts.append("honeycomb (\(honeycomb.orientation.rawValue))")
        } else {
            parts.append(snapshot.type.map { "\($0.rawValue) (\(snapshot.columns) columns)" } ?? "custom (\(snapshot.columns) columns)")
        }
        parts.append("revision \(snapshot.revision)")
        if let outage {
            let waiting = pending.isEmpty ? "" : ", \(pending.count) change(s) waiting"
            parts.append("database unreachable or busy\(waiting), retrying: \(CommandLineOutput.printable(outage))")
        }
        if snapshot.itemCounts.count > 1 { parts.append("section \(section) of \(snapshot.itemCounts.count)") }
        if let focus {
            let path = GridIndexPath(item: focus, section: section)
            var item = "item \(focus)"
            if snapshot.kind == .tiles, let size = try? shown.size(at: path) { item += ": \(size.rawValue)" }
            if let key = try? snapshot.key(at: path) { item += " (\(CommandLineOutput.printable(key)))" }
            parts.append(item)
        } else {
            parts.append("no items")
        }
        return " " + parts.joined(separator: " · ")
    }

    /// The keys, or what the current mode expects.
    private var hint: String {
        switch mode {
        case .moving: "carrying a tile: arrows move it through the order · enter drops it · escape puts it back"
        case .swapping(let first): "swap \(first) with…: move the focus, then enter · escape cancels"
        default: "arrows/hjkl move · space toggle · m move · s swap · i insert · x delete · t type · u undo · U redo · ? help · q quit"
        }
    }

    package static let help = [
        "gridstore edit: every key is a change committed at once; other processes' changes show here.",
        "",
        "  arrows, h j k l   move the focus to the nearest tile in that direction",
        "  space, enter      toggle the focused tile's size (small → middle → big)",
        "  m                 pick the tile up; arrows move it through the order; enter drops it, escape puts it back",
        "  s                 swap sizes: press s, move to another tile, press enter",
        "  i, x              insert a tile after the focus, delete the focused tile",
        "  t                 switch the type between less and more",
        "  u, U              undo, redo",
        "  tab               the next section",
        "  mouse             click a tile to toggle it, drag it to move it",
        "  q                 quit",
        "",
        "Press any key to go back.",
    ]
}

extension EditorModel {
    /// What `body` returns, or `nil` when the database could not be reached (``outage`` then
    /// says why, until a call reaches it again).
    private func reachingDatabase<T>(_ body: () throws(GridError) -> T) throws(GridError) -> T? {
        do {
            let value = try body()
            outage = nil
            return value
        } catch {
            guard let failure = error.storageFailure else { throw error }
            outage = failure.message
            return nil
        }
    }
}

extension GridError {
    /// The failure, when the call did nothing because the database could not be reached or its
    /// lock stayed busy: one a later try may pass, and that may be tried again without doing twice.
    fileprivate var storageFailure: GridStorageFailure? {
        guard case .storage(let failure) = self, failure.kind == .unreachable || failure.kind == .busy else { return nil }
        return failure
    }
}
