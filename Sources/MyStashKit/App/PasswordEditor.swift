import Foundation
import SQLiteStore
import TerminalUI

/// The add/edit form of a password entry: name, user ID, password (masked;
/// Ctrl-R reveals it, Ctrl-G puts a strong random one in), URL and notes.
///
/// A `View` wrapping a `Form` so that it can add the generate key; the
/// decrypted password exists only in the form's field while it is open.
///
///     let editor = PasswordEditor(stash: stash, entry: nil)
///     editor.onSaved = { object, verb in browser.didSave(object, verb) }
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
    var generator = PasswordGenerator()
    /// The entry's previous passwords (kept by the stash; not edited here).
    let history: PasswordHistory
    /// Called after a successful save with the object and what happened ("Added", "Saved").
    var onSaved: ((ManagedObject, String) -> Void)?

    /// Opens the editor; for an existing entry the fields are decrypted into
    /// the form (the password masked). Fields that cannot be decrypted open
    /// empty and the form says so; saving keeps their stored ciphertext
    /// unless the person types a new value.
    init(stash: Stash, object: ManagedObject?) {
        self.stash = stash
        self.object = object
        var entry = PasswordEntry(name: "")
        var problem: String?
        if let object {
            do {
                let reading = try stash.read(object)
                entry = reading.entry
                if !reading.unreadable.isEmpty {
                    let labels = reading.unreadable.map(\.label).joined(separator: ", ")
                    problem = "“\(entry.name)” has been tampered with or damaged (\(labels) cannot be decrypted); "
                        + "saving keeps the stored \(labels) unless you type new"
                }
            } catch {
                entry.name = object.string("name") ?? ""
                problem = "Cannot decrypt: \(error)"
            }
        }
        history = entry.history
        strengthField = StrengthSecretField(text: entry.password, placeholder: "Ctrl-G generates one")
        passwordField = strengthField.secret
        form = Form(title: object == nil ? "New Password" : "Edit Password", fields: [
            .text("name", label: "Name", value: entry.name, placeholder: "example.com"),
            .text("userID", label: "User ID", value: entry.userID),
            Form.Field(key: "password", label: "Password", control: strengthField),
            .text("url", label: "URL", value: entry.url ?? "", placeholder: "https://"),
            .text("totp", label: "TOTP", value: entry.totp ?? "", placeholder: "base32 secret or otpauth:// URI"),
            .multiline("notes", label: "Notes", value: entry.notes ?? "", height: 5),
        ])
        form.hints = "Tab next · Ctrl-R reveal · Ctrl-G generate · Ctrl-S save · Esc cancel"
        form.errorMessage = problem
        form.onSave = { [unowned self] values in self.save(values) }
        strengthField.userWords = { [unowned self] in [self.form.value(for: "name") ?? "", self.form.value(for: "userID") ?? ""] }
    }

    /// Puts a fresh random password into the field (masked; Ctrl-R shows it).
    func generatePassword() {
        passwordField.text = generator.generate()
        passwordField.cursorIndex = passwordField.text.count
        form.focus(key: "password")
    }

    private func save(_ values: [String: String]) -> Bool {
        let name = (values["name"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else {
            form.errorMessage = "A name is required"
            form.focus(key: "name")
            return false
        }
        let entry = PasswordEntry(name: name, userID: values["userID"] ?? "", password: values["password"] ?? "",
                                  url: values["url"].flatMap { $0.isEmpty ? nil : $0 },
                                  notes: values["notes"].flatMap { $0.isEmpty ? nil : $0 },
                                  totp: values["totp"].flatMap { $0.isEmpty ? nil : $0 }, history: history)
        if !entry.password.isEmpty, let strength = strengthField.strength, strength.score == 0,
           acceptedWeakPassword != entry.password {
            acceptedWeakPassword = entry.password
            form.errorMessage = "Very weak: \(strength.summary) — Ctrl-S again saves it anyway"
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
            if let object {
                let update = try stash.updatePassword(object, with: entry)
                if update.changed {
                    let kept = update.keptUnreadable.map(\.label).joined(separator: ", ")
                    onSaved?(object, kept.isEmpty ? "Saved" : "Kept the unreadable \(kept) as it was; saved")
                }
            } else {
                onSaved?(try stash.addPassword(entry), "Added")
            }
            dropSecrets()
            return true
        } catch {
            form.errorMessage = "Not saved: \(error)"
            return false
        }
    }

    // MARK: View

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        form.render(into: &canvas, frame: frame, at: time)
    }

    func handle(_ event: InputEvent) -> EventResult {
        if event == .control("g") && !form.isConfirmingDiscard {
            generatePassword()
            return .handled
        }
        if event == .control("r") && !form.isConfirmingDiscard {
            passwordField.toggleReveal()   // whichever field has the focus
            return .handled
        }
        let result = form.handle(event)
        if result == .dismiss { dropSecrets() }   // drop the plaintext with the form
        return result
    }

    /// Empties the password field and masks it again: the decrypted password
    /// does not outlive the form (a Swift string cannot be zeroed in place;
    /// the field's storage is replaced and released).
    func dropSecrets() {
        passwordField.text = ""
        if passwordField.isRevealed { passwordField.toggleReveal() }
    }
}
