import CLIKit
import FetchedResultsUI
import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import TerminalUI

/// `e` and `a` over a server table's copy: the cell edit and the new row go to the server, on
/// the requests' thread, and the copy shows them once the server has said yes — as `d` does.
extension PostgresBrowser {
    /// `e` edits a cell on the server: refused, saying why, for a column the server computes
    /// (generated, identity `GENERATED ALWAYS`), `bytea`, or a role without UPDATE.
    func configureEdits(
        _ configuration: inout ListScreenConfiguration,
        table: TableDescription,
        refusals: PostgresWriteRefusals
    ) {
        configuration.allowsCellEdits = true
        let described = Dictionary(table.columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let updateRefusal = refusals.update
        configuration.cellEditRefusal = { column in
            if let updateRefusal { return updateRefusal }
            return described[column.keyPath].flatMap(PostgresReplica.editRefusal(of:))
        }
        configuration.cellEditIsAnsweredLater = true
        configuration.saveCell = { [unowned self] row, key, value, shown, actionName in
            try self.startEdit(row, key: key, value: value, shown: shown, actionName: actionName)
        }
    }

    /// The cell editor's Enter: `UPDATE` of the cell on the server, guarded by the value shown
    /// (``PostgresReplica/update(rowID:column:to:expecting:)``), on the requests' thread; the
    /// cell shows the text typed, marked, until the server answers, then the copy's value.
    /// Another session's change since is a conflict, named, and kept; any other refusal opens
    /// the editor again with the text typed, to fix it.
    func startEdit(_ row: ManagedObject, key: String, value: StoreValue, shown: StoreValue, actionName: String) throws {
        guard let copy else { return }
        if let waiting = requests.inFlight.first {
            throw FetchedTableError("the server has not answered \(waiting) yet", status: 1)
        }
        let column = copy.table.columns.first { $0.name == key }
        let text = PostgresBrowser.serverText(of: value, isBoolean: column?.storage == .boolean)
        let id = row.objectID
        let rowID = id.rowID
        let replica = copy.replica
        requests.run(
            "the edit of \(key)",
            { try replica.update(rowID: rowID, column: key, to: text, expecting: .shown(shown)) },
            then: { [weak self] result in
                guard let self else { return }
                // The mark goes before the list reads the copy: an animated update draws the cells of then.
                let list = self.browser?.list
                switch result {
                case .success(let edit):
                    self.changes.did(actionName, .edited(edit))
                    list?.cellSaveAnswered(row: id, key: key)
                    self.show(ok: "\(actionName) — u to undo")
                case .failure(let error):
                    let reason = PostgresBrowser.reason(error, copy: copy)
                    if case ReplicaError.conflict = error {
                        list?.cellSaveAnswered(row: id, key: key)  // theirs kept: nothing to fix
                        self.show(refusal: "Not saved: \(reason)")
                    } else {
                        list?.cellSaveAnswered(row: id, key: key, refusal: reason)
                    }
                }
                list?.pollExternalChanges()
            }
        )
    }

    /// `a`: the form of a new row of the server's table (the library's ``RecordForm``: its
    /// DEFAULTs as placeholders, generated and `GENERATED ALWAYS` identity columns shown and not
    /// editable, NOT NULL marked `*`); Ctrl-S sends `INSERT … RETURNING` of the fields filled
    /// only, and the row is selected once the copy has it. Refused, saying why, for a role
    /// without INSERT (a view, no primary key: the list's read-only reason).
    func addRowBinding(_ opening: PostgresOpening, columns: [ReplicaColumn], refusal: String?) -> ListKeyBinding {
        let table = opening.table
        let declared = Dictionary(columns.map { ($0.name, $0.declaredType) }, uniquingKeysWith: { first, _ in first })
        let booleans = Set(columns.filter { $0.storage == .boolean }.map(\.name))
        var form = RecordForm(entity: table.name.name, nameKey: opening.query.titleKey)
        form.labels = Dictionary(table.columns.map { ($0.name, $0.name) }, uniquingKeysWith: { first, _ in first })
        form.tableAttributes = table.columns.filter { $0.typeOID != 17 && $0.baseTypeOID != 17 }.map { column in
            PostgresBrowser.formAttribute(column, declaredType: declared[column.name], defaults: opening.columnDefaults)
        }
        var binding = ListKeyBinding(.character("a"), keys: "a", description: "add a row (a form of the columns)") {
            [unowned self] screen in
            if let refusal, screen.configuration.readOnlyReason == nil {
                screen.showMessage("Cannot add a row: \(refusal)", duration: 8, style: .error)
                return
            }
            screen.beginAddingRow(with: form) { [unowned self] values, name, reopen in
                try self.startInsert(values, name: name, booleans: booleans, reopen: reopen)
            }
        }
        binding.helpPlacement = .section("Change")
        return binding
    }

    /// A column of the server's table as the form's attribute: its DEFAULT, whether the server
    /// makes its value, NOT NULL.
    static func formAttribute(
        _ column: ColumnDescription,
        declaredType: String?,
        defaults: [String: String]
    ) -> Attribute {
        let type = PostgresServer.attributeType(of: column.baseTypeOID == 0 ? column.typeOID : column.baseTypeOID)
        var attribute = Attribute(column.name, type, column: column.name, declaredType: declaredType)
        attribute.isGenerated = column.generation == .stored || column.generation == .identityAlways
        attribute.isNotNull = !column.isNullable
        attribute.defaultExpression = column.generation == .identityByDefault ? "identity" : defaults[column.name]
        return attribute
    }

    /// The form's Ctrl-S: the row inserted on the server on the requests' thread; once it
    /// answers, said on the status line and the new row selected — or, refused, the form open
    /// again with the fields as filled and the refusal said on it (`reopen`).
    func startInsert(
        _ values: [(key: String, value: StoreValue)],
        name: String,
        booleans: Set<String>,
        reopen: @escaping (String) -> Void
    ) throws {
        guard let copy else { return }
        if let waiting = requests.inFlight.first {
            throw FetchedTableError("the server has not answered \(waiting) yet", status: 1)
        }
        let texts = Dictionary(
            values.map { ($0.key, PostgresBrowser.serverText(of: $0.value, isBoolean: booleans.contains($0.key))) },
            uniquingKeysWith: { first, _ in first }
        )
        let replica = copy.replica
        let actionName = "Added \(name)"
        browser?.list?.showMessage("Adding \(name)…", duration: 30)
        requests.run("the insert of \(name)", { try replica.insert(texts) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let added):
                self.changes.did(actionName, .present([added]))
                self.show(ok: "\(actionName) — u to undo")
                self.select(added.rowID)
            case .failure(let error):
                let reason = PostgresBrowser.reason(error, copy: copy)
                self.show(refusal: "Could not add \(name): \(reason)")
                reopen(reason)
            }
        }
    }

    /// The row `rowID` of the copy selected, once the list has read it (now, or at a later poll).
    func select(_ rowID: Int64) {
        guard let list = browser?.list else { return }
        list.pollExternalChanges()
        guard let adapter = list.adapter else { return }
        if !adapter.select(ObjectID(entity: list.tab.entity, rowID: rowID)) { pendingSelection = rowID }
    }

    /// A value of the cell editor or the form as the server reads it, cast to the column's
    /// type: a number's digits, `true`/`false`, a text as typed (nil: NULL).
    static func serverText(of value: StoreValue, isBoolean: Bool) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): isBoolean ? (number != 0 ? "true" : "false") : String(number)
        case .real(let number): String(number)
        case .text(let text): text
        case .blob(let bytes): "\\x" + bytes.map { String(format: "%02x", $0) }.joined()
        }
    }

    private func show(ok text: String) { browser?.list?.showMessage(text, duration: 8) }
    private func show(refusal text: String) { browser?.list?.showMessage(text, duration: 8, style: .error) }
}
