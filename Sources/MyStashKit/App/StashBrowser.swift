import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

/// The app's main screen: a navigation bar, the Notes/Passwords tabs, the
/// current list, and a status line that turns into the `/` search field.
///
/// Keys (the rest go to the table: moving, `{`/`}`, `f`, `d` for the inline
/// Delete button, Enter): `a` adds, `e` (or Enter) edits, `u` undoes the last
/// change, `/` searches titles and names (`n`/`N` next/previous match), Tab,
/// Shift-Tab, `1` and `2` switch tabs. `q` and `?` are left to the run loop.
///
///     let browser = try StashBrowser(stash: stash, loop: loop, animated: true)
///     loop.push(browser)
///     loop.helpBindings = StashBrowser.helpBindings
///     _ = loop.run()
final class StashBrowser: View {
    let stash: Stash
    unowned let loop: TerminalRunLoop
    let navigationBar = NavigationBar(title: "MyStash")
    let tabBar = TabBar(titles: ["Notes", "Passwords"])
    let statusLine = StatusLine(hints: "a add · e edit · d delete · u undo · / search · ? help · q quit")
    let searchField = SearchField()
    private(set) var tabs: [StashListTab] = []
    /// What each undoable save did, newest last ("Deleted “Bank”"), with the object it concerned.
    private var undoLog: [(description: String, id: ObjectID)] = []
    private var lastSearch = ""
    /// Locks the app at once (`L`); set by `StashApp`.
    var onLock: (() -> Void)?
    /// Where `c`/`C`/`t` copy to; set by `StashApp`.
    var clipboard: ClipboardSession?

    init(stash: Stash, loop: TerminalRunLoop, animated: Bool) throws {
        self.stash = stash
        self.loop = loop
        tabs = [try StashListTab(kind: .notes, stash: stash, animated: animated),
                try StashListTab(kind: .passwords, stash: stash, animated: animated)]
        for tab in tabs {
            tab.onSelect = { [unowned self] object in self.edit(object) }
            tab.onDelete = { [unowned self] object in self.delete(object) }
        }
        tabBar.onSelect = { [unowned self] _ in self.searchField.deactivate() }
        searchField.onChange = { [unowned self] text in self.search(text, from: nil, forward: true, inclusive: true) }
        searchField.onCommit = { [unowned self] text in self.lastSearch = text }
        searchField.onCancel = { [unowned self] in self.searchField.trailingText = nil }
    }

    /// The keys `?` shows.
    static let helpBindings: [(keys: String, description: String)] = [
        ("", "Lists"),
        ("↑/↓ j/k", "move"),
        ("PgUp/PgDn b/Space", "page"),
        ("g/G Home/End", "first / last"),
        ("{ }", "previous / next letter"),
        ("f + letter", "jump to a letter"),
        ("Tab 1 2", "Notes / Passwords"),
        ("a", "add"),
        ("Enter e", "edit"),
        ("d", "delete (Enter or d confirms, Esc cancels)"),
        ("u", "undo the last change"),
        ("L", "lock now (also after --lock-after idle seconds)"),
        ("c C t · h", "copy password / user ID / TOTP code · history"),
        ("/", "search; n/N next/previous match"),
        ("q", "quit"),
        ("", "Forms"),
        ("Tab Shift-Tab", "next / previous field"),
        ("Ctrl-S", "save"),
        ("Esc", "cancel (asks when edited)"),
        ("Ctrl-R", "reveal the password"),
        ("Ctrl-G", "generate a strong password"),
    ]

    var currentTab: StashListTab { tabs[tabBar.selectedIndex] }

    private var now: Double { loop.clock.now }

    // MARK: Actions

    /// Opens the form for a new note or password, depending on the tab.
    func add() {
        present(editor(for: nil))
    }

    /// Opens the form for `object`.
    func edit(_ object: ManagedObject) {
        present(editor(for: object))
    }

    private func editor(for object: ManagedObject?) -> View {
        switch currentTab.kind {
        case .notes:
            let editor = NoteEditor(stash: stash, note: object)
            editor.onSaved = { [unowned self] saved, verb in self.didSave(saved, verb: verb, kind: .notes) }
            return EditorHost(form: editor.form, owner: editor)
        case .passwords:
            let editor = PasswordEditor(stash: stash, object: object)
            editor.onSaved = { [unowned self] saved, verb in self.didSave(saved, verb: verb, kind: .passwords) }
            return editor
        }
    }

    private func present(_ view: View) {
        searchField.deactivate()
        loop.push(view)
    }

    private func didSave(_ object: ManagedObject, verb: String, kind: StashKind) {
        let name = object.string(kind.nameKey) ?? ""
        undoLog.append(("\(verb) “\(name)”", object.objectID))
        tabs[kind == .notes ? 0 : 1].adapter.select(object.objectID)
        statusLine.showMessage("\(verb) “\(name)”", at: now)
    }

    /// Deletes `object` (the inline Delete button was confirmed).
    func delete(_ object: ManagedObject) {
        let kind: StashKind = object.entity.name == StashModel.note ? .notes : .passwords
        let name = object.string(kind.nameKey) ?? ""
        let id = object.objectID
        do {
            try stash.delete(object)
            undoLog.append(("Deleted “\(name)”", id))
            statusLine.showMessage("Deleted “\(name)” — u to undo", at: now)
        } catch {
            statusLine.showMessage("Not deleted: \(error)", at: now, style: .error)
        }
    }

    /// Undoes the last save (a delete, an edit or an add).
    func undo() {
        do {
            guard try stash.undo() else {
                statusLine.showMessage("Nothing to undo", at: now)
                return
            }
            let entry = undoLog.popLast()
            if let id = entry?.id {
                let tabIndex = id.entity == StashModel.note ? 0 : 1
                tabs[tabIndex].adapter.select(id)
            }
            statusLine.showMessage("Undone: \(entry?.description ?? "last change")", at: now)
        } catch {
            statusLine.showMessage("Cannot undo: \(error)", at: now, style: .error)
        }
    }

    // MARK: Clipboard

    /// Copies a field of `object` (the password, the user ID or the current TOTP code); the
    /// status line counts down to the clearing. The secret never appears on screen.
    func copy(_ field: EntryField, of object: ManagedObject) {
        guard let clipboard else { return }
        let name = object.string("name") ?? ""
        do {
            let value = try stash.copyableValue(field, of: object, at: Date())
            clipboard.copy(value, description: "\(field.phrase) of “\(name)”", at: now)
            updateClipboardStatus(at: now)
        } catch {
            statusLine.showMessage("Not copied: \(error)", at: now, style: .error)
        }
    }

    /// Shows the countdown, and clears the clipboard when the time is up (the app's ticker calls it).
    func updateClipboardStatus(at time: Double) {
        guard let clipboard, clipboard.isPending else { return }
        if clipboard.tick(at: time) {
            statusLine.showMessage("Clipboard cleared", at: time)
        } else if let text = clipboard.statusText(at: time) {
            statusLine.showMessage(text, at: time, duration: 1.5)
        }
    }

    // MARK: Search

    /// Index paths of the current list whose title/name (or note body, user ID, URL) contains `text`, in order.
    func matches(for text: String) -> [IndexPath] {
        guard !text.isEmpty else { return [] }
        let tab = currentTab
        guard let ids = try? stash.objectIDs(of: tab.kind, matching: text) else { return [] }
        return ids.compactMap { tab.controller.indexPath(for: $0) }
            .sorted { ($0.section, $0.row) < ($1.section, $1.row) }
    }

    /// Selects the next (or previous) match of `text` after the selection
    /// (at it when `inclusive`), wrapping around; reports "k of n".
    @discardableResult
    func search(_ text: String, from start: IndexPath?, forward: Bool, inclusive: Bool) -> Bool {
        let found = matches(for: text)
        guard !found.isEmpty else {
            searchField.trailingText = text.isEmpty ? nil : "no match"
            return false
        }
        let origin = start ?? currentTab.tableView.selection ?? IndexPath(row: 0, section: 0)
        func key(_ p: IndexPath) -> (Int, Int) { (p.section, p.row) }
        let target: IndexPath
        if forward {
            target = found.first { inclusive ? key($0) >= key(origin) : key($0) > key(origin) } ?? found[0]
        } else {
            target = found.last { inclusive ? key($0) <= key(origin) : key($0) < key(origin) } ?? found[found.count - 1]
        }
        currentTab.tableView.selectRow(at: target)
        let position = (found.firstIndex(of: target) ?? 0) + 1
        searchField.trailingText = "\(position) of \(found.count)"
        return true
    }

    // MARK: View

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        let tab = currentTab
        let noun = tab.kind == .notes ? (tab.count == 1 ? "note" : "notes") : (tab.count == 1 ? "password" : "passwords")
        navigationBar.trailingText = "\(tab.count) \(noun)"
        navigationBar.render(into: &canvas, frame: frame.row(0), at: time)
        tabBar.render(into: &canvas, frame: frame.row(1), at: time)
        let tableFrame = frame.inset(top: 2, bottom: 1)
        tab.tableView.render(into: &canvas, frame: tableFrame, at: time)
        let bottom = frame.row(frame.height - 1)
        if searchField.isActive {
            searchField.render(into: &canvas, frame: bottom, at: time)
        } else {
            if let position = tab.adapter.selectedPosition { statusLine.trailingText = "\(position)/\(tab.count)" }
            else { statusLine.trailingText = nil }
            statusLine.render(into: &canvas, frame: bottom, at: time)
        }
    }

    func handle(_ event: InputEvent) -> EventResult {
        if searchField.isActive {
            _ = searchField.handle(event)
            return .handled
        }
        let table = currentTab.tableView
        // While the Delete button shows, or an index jump is typed, the table has the keys.
        if table.editingIndexPath != nil || table.indexSearchText != nil {
            return table.handle(event) ? .handled : .ignored
        }
        switch event {
        case .tab, .backTab, .character("1"), .character("2"):
            _ = tabBar.handle(event)
            return .handled
        case .character("a"):
            add()
            return .handled
        case .character("e"):
            if let object = currentTab.selectedObject { edit(object) }
            return .handled
        case .character("u"):
            undo()
            return .handled
        case .character("L"):
            onLock?()
            return .handled
        case .character("h"):
            guard currentTab.kind == .passwords, let object = currentTab.selectedObject else { return .handled }
            do {
                present(PasswordHistoryView(name: object.string("name") ?? "", history: try stash.entry(for: object).history))
            } catch {
                statusLine.showMessage("Cannot show the history: \(error)", at: now, style: .error)
            }
            return .handled
        case .character("c"), .character("C"), .character("t"):
            guard currentTab.kind == .passwords, let object = currentTab.selectedObject else { return .handled }
            let field: EntryField = event == .character("c") ? .password : event == .character("C") ? .user : .totp
            copy(field, of: object)
            return .handled
        case .character("/"):
            searchField.activate()
            searchField.trailingText = nil
            return .handled
        case .character("n"), .character("N"):
            if lastSearch.isEmpty {
                statusLine.showMessage("No search yet — press / to search", at: now)
            } else if !search(lastSearch, from: nil, forward: event == .character("n"), inclusive: false) {
                statusLine.showMessage("No match for “\(lastSearch)”", at: now)
            }
            return .handled
        default:
            return table.handle(event) ? .handled : .ignored
        }
    }

    func needsTick(at time: Double) -> Bool { currentTab.tableView.isAnimating(at: time) }

    func nextWakeTime(after time: Double) -> Double? { statusLine.nextWakeTime(after: time) }
}

/// Hosts a `Form` on the run loop and keeps its owner (the editor) alive while it shows.
final class EditorHost: View {
    let form: Form
    let owner: AnyObject

    init(form: Form, owner: AnyObject) {
        self.form = form
        self.owner = owner
    }

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) { form.render(into: &canvas, frame: frame, at: time) }
    func handle(_ event: InputEvent) -> EventResult { form.handle(event) }
}
