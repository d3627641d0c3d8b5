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
    /// Shows a view over the form (the choice after a conflict); set by the browser.
    var onPresent: ((View) -> Void)?
    /// Closes the form (set by the browser): after a conflict was settled by saving from the choice.
    var onClose: (() -> Void)?
    /// What the form opened with (an existing note): a save compares the file with it.
    let loaded: LoadedNote?
    /// Whether the last save found the note deleted by another program (then "overwrite" adds it again).
    private var isDeletedElsewhere = false

    init(stash: Stash, note: ManagedObject?) {
        self.stash = stash
        self.note = note
        var body = ""
        var problem: String?
        let record = try? note?.record(as: NoteRecord.self)
        if let note {
            do { body = try stash.noteBody(of: note) } catch {
                problem =
                    "\(ErrorReason.text(of: error)); saving keeps the stored text as it is unless you type a new one"
            }
            loaded = record.map { LoadedNote($0, body: problem == nil ? body : nil) }
        } else {
            loaded = nil
        }
        form = Form(
            title: note == nil ? "New Note" : "Edit Note",
            fields: [
                .text("title", label: "Title", value: record?.title ?? "", placeholder: "Title"),
                .multiline("body", label: "Note", value: body, height: 12),
            ]
        )
        form.hints = "Tab next field · Ctrl-S save · Esc cancel"
        form.errorMessage = problem
        form.onSave = { [unowned self] values in self.save(values) }
    }

    /// Saves the form's values; true when saved (the form closes). A conflict with another
    /// program's save is said, and a choice offered (`offerConflictChoice`).
    private func save(_ values: [String: String], resolving: ConflictResolution = .refuse) -> Bool {
        let title = (values["title"] ?? "").trimmingCharacters(in: .whitespaces)
        let body = values["body"] ?? ""
        guard !title.isEmpty else {
            form.errorMessage = "A title is required"
            form.focus(key: "title")
            return false
        }
        do {
            if let note, !(resolving == .overwrite && isDeletedElsewhere) {
                let unreadable = (try? stash.noteBody(of: note)) == nil
                if try stash.updateNote(note, title: title, body: body, loaded: loaded, resolving: resolving) {
                    onSaved?(note, unreadable && body.isEmpty ? "Kept the unreadable text as it was; saved" : "Saved")
                }
            } else {
                let created = try stash.addNote(title: title, body: body)
                onSaved?(created, "Added")
            }
            return true
        } catch StashError.changedElsewhere(let kind, let name, let deleted) {
            isDeletedElsewhere = deleted
            form.errorMessage = StashError.changedElsewhere(kind: kind, name: name, deleted: deleted).description
            offerConflictChoice(name: name, deleted: deleted)
            return false
        } catch {
            form.errorMessage = notSavedMessage(error)
            return false
        }
    }

    /// After a conflict: reload the note and reapply what was changed here (the title, the text),
    /// or overwrite it with the form (for a note deleted meanwhile: add it again), or keep editing.
    private func offerConflictChoice(name: String, deleted: Bool) {
        let choices: [(String, ConflictResolution?)] =
            deleted
            ? [("Add it again with this form's values", .overwrite), ("Keep editing", nil)]
            : [
                ("Reload it and reapply my changes", .reapply), ("Overwrite it with this form", .overwrite),
                ("Keep editing", nil),
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
}
