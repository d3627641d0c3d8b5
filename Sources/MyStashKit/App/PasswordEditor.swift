import CLIKit
import Foundation
import SQLiteStore
import TerminalUI

/// The add/edit form of a password entry: name, user ID, password (masked;
/// Ctrl-R reveals it, Ctrl-G puts a strong random one in), URL, TOTP and notes.
///
/// A `View` wrapping a `Form` so that it can add its own keys. The list's
/// `c`, `C`, `t` and `h` are letters a field would take, so in the form they
/// follow Ctrl-X: Ctrl-X c copies the password in the form, Ctrl-X C the user
/// ID, Ctrl-X t the current code of the TOTP field (``onCopy``), and Ctrl-X h
/// shows the entry's previous passwords (masked until Ctrl-R); Ctrl-X g sets
/// what Ctrl-G generates (length, classes, look-alikes). The bottom
/// line is a status line: the copy's countdown replaces the hints there.
/// The decrypted password exists only in the form's field while it is open.
///
///     let editor = PasswordEditor(stash: stash, object: nil)
///     editor.onSaved = { object, verb in browser.didSave(object, verb) }
///     editor.onCopy = { field, value, name in browser.copy(value, field: field, name: name) }
///     loop.push(editor)
final class PasswordEditor: View {
    let stash: Stash
    let object: ManagedObject?
    let form: Form
    let passwordField: SecretField
    /// The password field with its strength estimate (wraps `passwordField`).
    let strengthField: StrengthSecretField
    /// A very weak password the person was warned about (a second Ctrl-S saves it).
    private var acceptedWeakPassword: String?
    /// What Ctrl-G generates (Ctrl-X g changes it for this form).
    var generatorSettings = GeneratorSettings()
    /// The entry's previous passwords (kept by the stash; not edited here).
    let history: PasswordHistory
    /// What the form opened with (an existing entry): a save compares the file with it, so that
    /// another program's save since is a conflict to settle, never overwritten unseen.
    let loaded: LoadedEntry?
    /// Closes the form (set by the browser): after a conflict was settled by saving from the choice.
    var onClose: (() -> Void)?
    /// Called after a successful save with the object and what happened ("Added", "Saved").
    var onSaved: ((ManagedObject, String) -> Void)?
    /// Ctrl-X c/C/t: the field, its value as it stands in the form (the TOTP field: its current code)
    /// and the entry's name. Never called with an empty value.
    var onCopy: ((EntryField, String, String) -> Void)?
    /// Ctrl-X h and g: shows a view over the form (the history, the generator's prompt).
    var onPresent: ((View) -> Void)?
    /// The bottom line: the form's hints, or a message (the copy's countdown) in their place.
    let statusLine = StatusLine()
    /// Ctrl-X was pressed: the next key is a command (c, C, t, h).
    private(set) var awaitsCommand = false
    /// When the TOTP code is made (tests set a fixed time).
    var now: () -> Date = { Date() }
    /// The run loop's time, for the status line's messages (set by the browser).
    var clock: () -> Double = { 0 }

    /// Opens the editor; for an existing entry the fields are decrypted into
    /// the form (the password masked). Fields that cannot be decrypted open
    /// empty and the form says so; saving keeps their stored ciphertext
    /// unless the person types a new value.
    init(stash: Stash, object: ManagedObject?) {
        self.stash = stash
        self.object = object
        var entry = PasswordEntry(name: "")
        var problem: String?
        var loaded: LoadedEntry?
        if let object {
            do {
                let reading = try stash.read(object)
                entry = reading.entry
                loaded = LoadedEntry(
                    entry: reading.entry,
                    revision: try object.record(as: PasswordRecord.self).revision
                )
                if !reading.unreadable.isEmpty {
                    let labels = reading.unreadable.map(\.label).joined(separator: ", ")
                    problem =
                        "“\(entry.name)” has been tampered with or damaged (\(labels) cannot be decrypted); "
                        + "saving keeps the stored \(labels) unless you type new"
                }
            } catch {
                entry.name = object.string(StashKind.passwords.nameKey) ?? ""
                problem = "Cannot decrypt: \(ErrorReason.text(of: error))"
            }
        }
        history = entry.history
        self.loaded = loaded
        strengthField = StrengthSecretField(text: entry.password, placeholder: "Ctrl-G generates one")
        passwordField = strengthField.secret
        form = Form(
            title: object == nil ? "New Password" : "Edit Password",
            fields: [
                .text("name", label: "Name", value: entry.name, placeholder: "example.com"),
                .text("userID", label: "User ID", value: entry.userID),
                Form.Field(key: "password", label: "Password", control: strengthField),
                .text("url", label: "URL", value: entry.url ?? "", placeholder: "https://"),
                .text("totp", label: "TOTP", value: entry.totp ?? "", placeholder: "base32 secret or otpauth:// URI"),
                .multiline("notes", label: "Notes", value: entry.notes ?? "", height: 5),
            ]
        )
        form.hints = PasswordEditor.hints
        form.errorMessage = problem
        form.onSave = { [unowned self] values in self.save(values) }
        strengthField.userWords = { [unowned self] in
            [self.form.value(for: "name") ?? "", self.form.value(for: "userID") ?? ""]
        }
    }

    /// The form's hint line.
    static let hints = "^S save · Esc cancel · ^R reveal · ^G generate · ^X c/C/t copy, h history"
    /// What the status line says after Ctrl-X.
    static let commandHints = "Ctrl-X: copy c password, C user ID, t TOTP code · h history · g generator"

    /// Puts a fresh random password into the field (masked; Ctrl-R shows it).
    func generatePassword() {
        passwordField.text = generatorSettings.generator.generate(length: generatorSettings.length)
        passwordField.cursorIndex = passwordField.text.count
        form.focus(key: "password")
    }

    /// Saves the form's values; true when saved (the form closes). A conflict with another
    /// program's save is said, and a choice offered (`offerConflictChoice`).
    private func save(_ values: [String: String], resolving: ConflictResolution = .refuse) -> Bool {
        let name = (values["name"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else {
            form.errorMessage = "A name is required"
            form.focus(key: "name")
            return false
        }
        let entry = PasswordEntry(
            name: name,
            userID: values["userID"] ?? "",
            password: values["password"] ?? "",
            url: values["url"].flatMap { $0.isEmpty ? nil : $0 },
            notes: values["notes"].flatMap { $0.isEmpty ? nil : $0 },
            totp: values["totp"].flatMap { $0.isEmpty ? nil : $0 },
            history: history
        )
        if resolving == .refuse, !entry.password.isEmpty, let strength = strengthField.strength,
            strength.score == 0, acceptedWeakPassword != entry.password
        {
            acceptedWeakPassword = entry.password
            // Short enough for an 80-column form: the way on must not be cut off.
            form.errorMessage = "Very weak (\(strength.guessesPhrase)): Ctrl-S again saves it anyway"
            form.focus(key: "password")
            return false
        }
        if let secret = entry.totp {
            do { _ = try TOTP(parsing: secret) } catch {
                form.errorMessage = "\(error)"
                form.focus(key: "totp")
                return false
            }
        }
        do {
            if let object, !(resolving == .overwrite && isDeletedElsewhere) {
                let update = try stash.updatePassword(object, with: entry, loaded: loaded, resolving: resolving)
                if update.changed {
                    let kept = update.keptUnreadable.map(\.label).joined(separator: ", ")
                    onSaved?(object, kept.isEmpty ? "Saved" : "Kept the unreadable \(kept) as it was; saved")
                }
            } else {
                onSaved?(try stash.addPassword(entry), "Added")
            }
            dropSecrets()
            return true
        } catch StashError.changedElsewhere(let kind, let name, let deleted) {
            isDeletedElsewhere = deleted
            form.errorMessage = StashError.changedElsewhere(kind: kind, name: name, deleted: deleted).description
            offerConflictChoice(
                name: name,
                deleted: deleted,
                changed: loaded.map { Stash.changedFields(entry, from: $0.entry) } ?? []
            )
            return false
        } catch {
            form.errorMessage = notSavedMessage(error)
            return false
        }
    }

    /// Whether the last save found the entry deleted by another program (then "overwrite" adds it again).
    private var isDeletedElsewhere = false

    /// After a conflict: reload the entry and reapply the fields changed here, or overwrite it
    /// with the form (for an entry deleted meanwhile: add it again), or keep editing.
    private func offerConflictChoice(name: String, deleted: Bool, changed: [String]) {
        let mine = changed.isEmpty ? "" : " (\(changed.joined(separator: ", ")))"
        let choices: [(String, ConflictResolution?)] =
            deleted
            ? [("Add it again with this form's values", .overwrite), ("Keep editing", nil)]
            : [
                ("Reload it and reapply my changes\(mine)", .reapply),
                ("Overwrite it with this form", .overwrite), ("Keep editing", nil),
            ]
        let picker = ChoicePicker(
            title: "“\(name)” was \(deleted ? "deleted" : "changed") by another program",
            choices: choices.map(\.0)
        )
        picker.onChoose = { [unowned self] index, _ in
            guard let resolution = choices[index].1 else { return }
            if self.save(self.form.values, resolving: resolution) { self.onClose?() }
        }
        onPresent?(picker)
    }

    // MARK: View

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        form.render(into: &canvas, frame: frame, at: time)
        guard frame.height > 1, statusLine.message(at: time) != nil, !form.isConfirmingDiscard else { return }
        let row = Rect(x: frame.x + 1, y: frame.maxY - 1, width: max(0, frame.width - 2), height: 1)
        canvas.fill(x: frame.x, y: row.y, width: frame.width)
        statusLine.render(into: &canvas, frame: row, at: time)
    }

    func nextWakeTime(after time: Double) -> Double? { statusLine.nextWakeTime(after: time) }

    /// Ctrl-X's command key: copy (c, C, t) or the history (h); any other key only ends the prefix.
    private func runCommand(_ event: InputEvent) {
        statusLine.clearMessage()
        switch event {
        case .character("c"): copy(.password)
        case .character("C"): copy(.user)
        case .character("t"): copy(.totp)
        case .character("h"): onPresent?(PasswordHistoryView(name: currentName, history: history))
        case .character("g"): onPresent?(generatorPrompt())
        default: break
        }
    }

    /// Ctrl-X g: asks for the length, classes and look-alikes, then generates with them.
    private func generatorPrompt() -> PromptDialog {
        let prompt = PromptDialog(
            title: "Generate",
            message: "Length, classes (l lower, u upper, d digits, s symbols), "
                + "look-alikes to allow 0 O 1 l I:",
            text: generatorSettings.text
        )
        prompt.onSubmit = { [unowned self, unowned prompt] line in
            do {
                self.generatorSettings = try GeneratorSettings(parsing: line)
            } catch {
                prompt.errorMessage = "\(error)"
                return false
            }
            self.generatePassword()
            return true
        }
        return prompt
    }

    private var currentName: String {
        (form.value(for: "name") ?? "").trimmingCharacters(in: .whitespaces)
    }

    /// Hands a field's value as it stands in the form to ``onCopy``; says why when there is nothing to copy.
    private func copy(_ field: EntryField) {
        let value: String
        switch field {
        case .password: value = passwordField.text
        case .user: value = form.value(for: "userID") ?? ""
        case .totp:
            let secret = (form.value(for: "totp") ?? "").trimmingCharacters(in: .whitespaces)
            guard !secret.isEmpty else { return showError("Not copied: this entry has no TOTP secret") }
            do { value = try TOTP(parsing: secret).code(at: now()) } catch {
                return showError("Not copied: \(ErrorReason.text(of: error))")
            }
        default: return
        }
        guard !value.isEmpty else { return showError("Not copied: \(field.phrase) is empty") }
        onCopy?(field, value, currentName)
    }

    /// Shows `text` in the status line as an error for a few seconds.
    func showError(_ text: String) {
        statusLine.showMessage(text, at: clock(), duration: 4, style: .error)
    }

    /// Forgets a pending Ctrl-X (the app locks: the first key after unlocking is not a command).
    func cancelCommand() {
        guard awaitsCommand else { return }
        awaitsCommand = false
        statusLine.clearMessage()
    }

    /// Shows the clipboard's countdown (the app's ticker calls it), unless Ctrl-X waits for its key.
    func showClipboardStatus(_ text: String, at time: Double, duration: Double) {
        guard !awaitsCommand else { return }
        statusLine.showMessage(text, at: time, duration: duration)
    }

    func handle(_ event: InputEvent) -> EventResult {
        if awaitsCommand {
            awaitsCommand = false
            runCommand(event)
            return .handled
        }
        if event == .control("x") && !form.isConfirmingDiscard {
            awaitsCommand = true
            statusLine.showMessage(PasswordEditor.commandHints, at: clock(), duration: 3600)
            return .handled
        }
        if event == .control("g") && !form.isConfirmingDiscard {
            generatePassword()
            return .handled
        }
        if event == .control("r") && !form.isConfirmingDiscard {
            passwordField.toggleReveal()  // whichever field has the focus
            return .handled
        }
        let result = form.handle(event)
        if result == .dismiss { dropSecrets() }  // drop the plaintext with the form
        return result
    }

    /// Wipes the password field where its characters are stored (and the TOTP field), and
    /// masks it again: the decrypted password does not outlive the form. (The strings the
    /// form was filled from are Swift strings, which cannot be zeroed: they are released.)
    func dropSecrets() {
        passwordField.wipe()
        (form.fields.first { $0.key == "totp" }?.control as? TextField)?.wipe()
        acceptedWeakPassword = nil
        if passwordField.isRevealed { passwordField.toggleReveal() }
    }
}
