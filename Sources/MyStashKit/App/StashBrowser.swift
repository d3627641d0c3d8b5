import CLIKit
import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI

/// The app's main screen: the generic ``ListScreen`` configured with the
/// Notes and Passwords tabs (``StashListTab``), the note and password forms
/// as its detail screens, and its own keys: `a` (add), `e` (edit), `L` (lock),
/// `h` (a password's history), `c`/`C`/`t` (copy the password, the user ID,
/// the TOTP code).
///
/// The list screen does the rest: moving, `{`/`}`, `f`, `d` for the inline
/// Delete button, `u` undo (labelled by the context: the forms' saves are
/// named "Added “Bank”", "Saved “Bank”"), `/` search of titles and names
/// (`n`/`N`), Tab, Shift-Tab, `1` and `2`, polling other processes' changes.
///
///     let browser = try StashBrowser(stash: stash, loop: loop, animated: true)
///     _ = loop.run()
final class StashBrowser {
    let stash: Stash
    unowned let loop: TerminalRunLoop
    private(set) var list: ListScreen!
    /// Locks the app at once (`L`); set by `StashApp`.
    var onLock: (() -> Void)?
    /// Where `c`/`C`/`t` copy to; set by `StashApp`.
    var clipboard: ClipboardSession?

    init(stash: Stash, loop: TerminalRunLoop, animated: Bool) throws {
        self.stash = stash
        self.loop = loop
        var configuration = ListScreenConfiguration(
            title: "MyStash",
            tabs: [
                StashListTab.listTab(for: .notes, stash: stash),
                StashListTab.listTab(for: .passwords, stash: stash),
            ]
        )
        configuration.animated = animated
        // A stash is small: the first frame already has the full lists and their counts.
        configuration.previewsFirstPage = false
        configuration.pollInterval = 0.25
        configuration.statusHints = "a add · e edit · d delete · u undo · / search · ? help · q quit"
        configuration.helpBindings = StashBrowser.helpBindings
        configuration.navigationTrailingText = { screen in
            let count = screen.adapter?.controller.numberOfObjects ?? 0
            let noun = count == 1 ? screen.tab.noun.singular : screen.tab.noun.plural
            return "\(count) \(noun)"
        }
        configuration.detailScreen = { [unowned self] object, _ in self.editor(for: object) }
        configuration.keyBindings =
            [
                ListKeyBinding(.character("a"), keys: "a", description: "add") { [unowned self] _ in self.add() },
                ListKeyBinding(.character("e"), keys: "e", description: "edit") { [unowned self] screen in
                    if let object = screen.selectedObject { self.edit(object) }
                },
                ListKeyBinding(.character("L"), keys: "L", description: "lock now") { [unowned self] _ in self.onLock?()
                },
                ListKeyBinding(.character("h"), keys: "h", description: "password history") { [unowned self] _ in
                    self.showHistory()
                },
            ]
            + [("c", EntryField.password), ("C", .user), ("t", .totp)].map { key, field in
                ListKeyBinding(.character(key), keys: String(key), description: "copy the \(field.phrase)") {
                    [unowned self] screen in
                    guard self.currentKind == .passwords, let object = screen.selectedObject else { return }
                    self.copy(field, of: object)
                }
            }
        list = try ListScreen(context: stash.context, configuration: configuration, loop: loop)
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
        ("/ \\", "search (n/N: next/previous) · filter by a predicate, e.g."),
        ("  ", "Notes: title BEGINSWITH \"A\" · Passwords: name BEGINSWITH \"A\""),
        ("q", "quit"),
        ("", "Forms"),
        ("Tab Shift-Tab", "next / previous field"),
        ("Ctrl-S", "save"),
        ("Esc", "cancel (asks when edited)"),
        ("Ctrl-R · Ctrl-G", "reveal the password · generate a strong password"),
        ("Ctrl-X c C t · h · g", "copy password / user ID / TOTP · history · generator"),
    ]

    /// The current tab's adapter: its selection (`selectedObject`) and controller.
    var currentTab: FetchedResultsTableAdapter { list.adapter }

    /// What the tab showing lists.
    var currentKind: StashKind { list.tabIndex == 0 ? .notes : .passwords }

    // MARK: Actions

    /// `h`: the selected password's history (earlier passwords, newest first).
    func showHistory() {
        guard currentKind == .passwords, let object = list.selectedObject else { return }
        do {
            loop.push(
                PasswordHistoryView(
                    name: try object.record(as: PasswordRecord.self).name,
                    history: try stash.entry(for: object).history
                )
            )
        } catch {
            list.showMessage("Cannot show the history: \(ErrorReason.text(of: error))", style: .error)
        }
    }

    // MARK: Clipboard

    /// Copies a field of `object` (the password, the user ID or the current TOTP code); the
    /// status line counts down to the clearing. The secret never appears on screen.
    func copy(_ field: EntryField, of object: ManagedObject) {
        let name = object.string(StashKind.passwords.nameKey) ?? ""
        do {
            let value = try stash.copyableValue(field, of: object, at: Date())
            guard !value.isEmpty else {
                list.showMessage("Not copied: “\(name)” has no \(field.phrase.dropFirst(4))", style: .error)
                return
            }
            copy(value, field: field, name: name)
        } catch {
            list.showMessage("Not copied: \(ErrorReason.text(of: error))", style: .error)
        }
    }

    /// Copies `value`, a field of the entry `name` (from the list or its form), and starts the countdown.
    func copy(_ value: String, field: EntryField, name: String) {
        guard let clipboard else { return }
        clipboard.copy(value, description: "\(field.phrase) of “\(name)”", at: loop.clock.now)
        updateClipboardStatus(at: loop.clock.now)
    }

    /// The password forms open on the run loop (the copy's countdown shows in theirs too).
    private var openPasswordEditors: [PasswordEditor] { loop.views.compactMap { $0 as? PasswordEditor } }

    /// The forms open on the run loop (password and note forms), with their `Form`.
    private var openForms: [(view: View, form: Form)] {
        loop.views.compactMap { view in
            if let editor = view as? PasswordEditor { return (view, editor.form) }
            if let host = view as? EditorHost { return (view, host.form) }
            return nil
        }
    }

    /// Open forms' values while locked (sealed), by form.
    private var lockedForms: [(form: Form, locked: LockedForm)] = []

    /// The app locks (the key is still there): a form waiting for Ctrl-X's key forgets it;
    /// every open form's values are sealed and the form emptied (its password field wiped in
    /// place); a password history on screen is closed.
    func willLock() {
        for editor in openPasswordEditors { editor.cancelCommand() }
        for view in loop.views where view is PasswordHistoryView { loop.remove(view) }
        guard let vault = stash.vault else { return }
        for (view, form) in openForms {
            do {
                lockedForms.append((form, try LockedForm(taking: form, vault: vault)))
            } catch {
                // Cannot be kept sealed: close it rather than keep its plaintext while locked.
                _ = form.takeValues()
                loop.remove(view)
            }
        }
    }

    /// The app is unlocked again: the open forms get their values back.
    func didUnlock() {
        defer { lockedForms = [] }
        guard let vault = stash.vault else { return }
        for (form, locked) in lockedForms {
            do {
                try locked.restore(into: form, vault: vault)
            } catch {
                for (view, open) in openForms where open === form { loop.remove(view) }
                list.showMessage(
                    "A form open when the app locked could not be restored (\(ErrorReason.text(of: error))); its unsaved edits are lost",
                    style: .error
                )
            }
        }
    }

    /// Shows the countdown, and clears the clipboard when the time is up (the app's ticker calls it),
    /// in the list's status line and in that of an open password form.
    func updateClipboardStatus(at time: Double) {
        guard let clipboard, clipboard.isPending else { return }
        let message: (text: String, duration: Double)
        if clipboard.tick(at: time) {
            message = (clipboard.lastClearing?.message ?? ClipboardClearing.cleared.message, 4)
        } else if let text = clipboard.statusText(at: time) {
            message = (text, 1.5)
        } else {
            return
        }
        list.statusLine.showMessage(message.text, at: time, duration: message.duration)
        for editor in openPasswordEditors {
            editor.showClipboardStatus(message.text, at: time, duration: message.duration)
        }
    }

    /// Opens the form for a new note or password, depending on the tab.
    func add() {
        loop.push(editor(for: nil))
    }

    /// Opens the form for `object`.
    func edit(_ object: ManagedObject) {
        loop.push(editor(for: object))
    }

    private func editor(for object: ManagedObject?) -> View {
        switch currentKind {
        case .notes:
            let editor = NoteEditor(stash: stash, note: object)
            editor.onSaved = { [unowned self] saved, verb in self.didSave(saved, verb: verb, kind: .notes) }
            editor.onPresent = { [unowned self] view in self.loop.push(view) }
            let host = EditorHost(form: editor.form, owner: editor)
            editor.onClose = { [unowned self, unowned host] in self.loop.remove(host) }
            return host
        case .passwords:
            let editor = PasswordEditor(stash: stash, object: object)
            editor.onSaved = { [unowned self] saved, verb in self.didSave(saved, verb: verb, kind: .passwords) }
            editor.onCopy = { [unowned self] field, value, name in self.copy(value, field: field, name: name) }
            editor.onPresent = { [unowned self] view in self.loop.push(view) }
            editor.onClose = { [unowned self, unowned editor] in self.loop.remove(editor) }
            editor.clock = { [unowned self] in self.loop.clock.now }
            return editor
        }
    }

    /// A form saved: the save is named in the context's undo stack (so `u` says
    /// what it undoes) and the object is selected.
    private func didSave(_ object: ManagedObject, verb: String, kind: StashKind) {
        let description = "\(verb) “\(object.string(kind.nameKey) ?? "")”"
        stash.context.setUndoActionName(description)
        if kind == currentKind { list.adapter.select(object.objectID) }
        list.showMessage(description)
    }
}

/// Hosts a `Form` on the run loop and keeps its owner (the editor) alive while it shows.
final class EditorHost: View {
    let form: Form
    let owner: AnyObject

    init(form: Form, owner: AnyObject) {
        self.form = form
        self.owner = owner
    }

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        form.render(into: &canvas, frame: frame, at: time)
    }
    func handle(_ event: InputEvent) -> EventResult { form.handle(event) }
}
