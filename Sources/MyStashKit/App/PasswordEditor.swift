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
    var generator = PasswordGenerator()
    /// Called after a successful save with the object and what happened ("Added", "Saved").
    var onSaved: ((ManagedObject, String) -> Void)?

    /// Opens the editor; for an existing entry the password is decrypted into
    /// the masked field (an entry that cannot be decrypted opens with an empty
    /// password and says so).
    init(stash: Stash, object: ManagedObject?) {
        self.stash = stash
        self.object = object
        var entry = PasswordEntry(name: "")
        var problem: String?
        if let object {
            entry = PasswordEntry(name: object.string("name") ?? "", userID: object.string("userID") ?? "",
                                  url: object.string("url"), notes: object.string("notes"))
            do { entry.password = try stash.revealPassword(of: object) } catch {
                problem = "The stored password cannot be decrypted (\(error)); saving sets a new one"
            }
        }
        passwordField = SecretField(text: entry.password, placeholder: "Ctrl-G generates one")
        form = Form(title: object == nil ? "New Password" : "Edit Password", fields: [
            .text("name", label: "Name", value: entry.name, placeholder: "example.com"),
            .text("userID", label: "User ID", value: entry.userID),
            Form.Field(key: "password", label: "Password", control: passwordField),
            .text("url", label: "URL", value: entry.url ?? "", placeholder: "https://"),
            .multiline("notes", label: "Notes", value: entry.notes ?? "", height: 5),
        ])
        form.hints = "Tab next · Ctrl-R reveal · Ctrl-G generate · Ctrl-S save · Esc cancel"
        form.errorMessage = problem
        form.onSave = { [unowned self] values in self.save(values) }
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
                                  notes: values["notes"].flatMap { $0.isEmpty ? nil : $0 })
        do {
            if let object {
                if try stash.updatePassword(object, with: entry) { onSaved?(object, "Saved") }
            } else {
                onSaved?(try stash.addPassword(entry), "Added")
            }
            passwordField.text = ""
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
        if result == .dismiss { passwordField.text = "" }   // drop the plaintext with the form
        return result
    }
}
