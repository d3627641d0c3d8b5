import SQLiteStore
import TerminalUI

/// An object as a ``RecordForm`` opened it: what its save compares the object with to find
/// another program's change since (the list's context takes such changes in as it polls, and a
/// save checks the row against what the context last read: `StoreError.conflict`).
struct RecordEdit {
    /// What another program did to the object since the form opened.
    enum Conflict: Equatable {
        /// It changed these attributes (the form's; none: others).
        case changed([String])
        /// It deleted the object.
        case deleted
    }

    let object: ManagedObject
    /// The form's attributes.
    let attributes: [Attribute]
    /// Their values when the form opened.
    let loaded: [String: StoreValue]
    /// The texts the form opened with: a field whose text differs is one the person changed.
    let texts: [String: String]

    init(object: ManagedObject, attributes: [Attribute]) {
        self.object = object
        self.attributes = attributes
        loaded = Dictionary(uniqueKeysWithValues: attributes.map { ($0.name, object[$0.name]) })
        texts = Dictionary(
            uniqueKeysWithValues: attributes.map { ($0.name, AttributeText.text(of: object[$0.name], $0)) }
        )
    }

    /// What another program did to the object since the form opened, as the context knows it
    /// now; nil when nothing.
    func conflict() -> Conflict? {
        if object.isDeleted { return .deleted }
        let changed = attributes.filter { object[$0.name] != loaded[$0.name] }.map(\.name)
        return changed.isEmpty ? nil : .changed(changed)
    }

    /// After a save refused over the object (`StoreError.conflict`): the context reads its row
    /// again (or lets it go, when it is gone) and keeps none of the form's changes. Returns
    /// what the other program did.
    func catchUp(after conflicts: [SaveConflict], in context: ObjectContext) -> Conflict {
        try? context.resolveConflict(of: object, by: .reloadAndReapply)
        context.rollback()
        if let conflict = conflict() { return conflict }
        let keys = conflicts.first { $0.objectID == object.objectID }?.changedKeys ?? []
        return .changed(attributes.map(\.name).filter(keys.contains))
    }
}

/// What a ``RecordForm`` save was asked to write, kept to save it again once a conflict is settled.
struct RecordRetry {
    let values: [(key: String, value: StoreValue)]
    let texts: [String: String]
    let edit: RecordEdit?
    let attributes: [Attribute]
    let screen: ListScreen
    let form: Form
}

extension RecordForm {
    /// Says on the form that another program changed or deleted the object since the form
    /// opened, naming it and what changed, and offers a choice: reload it and reapply the
    /// form's changes, or overwrite it with the form (add it again, when it was deleted), or
    /// keep editing. A choice saves at once, and closes the form when the save is made.
    func offerChoice(after conflict: RecordEdit.Conflict, _ retry: RecordRetry) {
        guard let edit = retry.edit else { return }
        let name = name(attributes: retry.attributes) { edit.loaded[$0] }  // as the form opened
        let choices: [(String, SaveConflict.Resolution?)]
        switch conflict {
        case .deleted:
            retry.form.errorMessage = "Not saved: \(name) was deleted by another program since this form opened"
            choices = [("Add it again with this form's values", .overwrite), ("Keep editing", nil)]
        case .changed(let keys):
            let labels = retry.attributes.filter { keys.contains($0.name) }.map(label(of:))
            retry.form.errorMessage =
                "Not saved: \(name) was changed by another program since this form opened"
                + (labels.isEmpty ? "" : " (\(labels.joined(separator: ", ")))")
            choices = [
                ("Reload it and reapply my changes", .reloadAndReapply), ("Overwrite it with this form", .overwrite),
                ("Keep editing", nil),
            ]
        }
        let picker = ChoicePicker(
            title: "\(name) was \(conflict == .deleted ? "deleted" : "changed") by another program",
            choices: choices.map(\.0)
        )
        picker.onChoose = { index, _ in
            guard let resolution = choices[index].1 else { return }
            let saved = save(
                retry.values,
                texts: retry.texts,
                editing: edit,
                resolution: resolution,
                attributes: retry.attributes,
                screen: retry.screen,
                form: retry.form
            )
            if saved { retry.screen.loop.remove(retry.form) }
        }
        retry.screen.loop.push(picker)
    }
}
