import CLIKit
import SQLiteStore
import TerminalUI

/// The add/edit form of a note: a title and a multi-line body.
///
/// Ctrl-S or [ Save ] saves (a title is required); Esc cancels, asking
/// "Discard changes?" when something was edited (the `Form` does that).
///
///     let editor = NoteEditor(stash: stash, note: nil)          // a new note
///     editor.onSaved = { object, verb in browser.didSave(object, verb) }
///     loop.push(editor.form)
final class NoteEditor {
    let stash: Stash
    let note: ManagedObject?
    let form: Form
    /// Called after a successful save with the object and what happened ("Added", "Saved").
    var onSaved: ((ManagedObject, String) -> Void)?

    init(stash: Stash, note: ManagedObject?) {
        self.stash = stash
        self.note = note
        var body = ""
        var problem: String?
        if let note {
            do { body = try stash.noteBody(of: note) } catch {
                problem =
                    "\(ErrorReason.text(of: error)); saving keeps the stored text as it is unless you type a new one"
            }
        }
        form = Form(
            title: note == nil ? "New Note" : "Edit Note",
            fields: [
                .text("title", label: "Title", value: note?.string("title") ?? "", placeholder: "Title"),
                .multiline("body", label: "Note", value: body, height: 12),
            ]
        )
        form.hints = "Tab next field · Ctrl-S save · Esc cancel"
        form.errorMessage = problem
        form.onSave = { [unowned self] values in self.save(values) }
    }

    private func save(_ values: [String: String]) -> Bool {
        let title = (values["title"] ?? "").trimmingCharacters(in: .whitespaces)
        let body = values["body"] ?? ""
        guard !title.isEmpty else {
            form.errorMessage = "A title is required"
            form.focus(key: "title")
            return false
        }
        do {
            if let note {
                let unreadable = (try? stash.noteBody(of: note)) == nil
                if try stash.updateNote(note, title: title, body: body) {
                    onSaved?(note, unreadable && body.isEmpty ? "Kept the unreadable text as it was; saved" : "Saved")
                }
            } else {
                let created = try stash.addNote(title: title, body: body)
                onSaved?(created, "Added")
            }
            return true
        } catch {
            form.errorMessage = "Not saved: \(ErrorReason.text(of: error))"
            return false
        }
    }
}
