import FetchedResultsUI
import Foundation
import PostgreSQLReplica
import SQLiteStore
import TerminalUI

extension TableBrowser {
    /// A PostgreSQL query's result whose rows are one table's (``PostgresQueryWrites``): `d`
    /// deletes the row on the server, `e` edits a cell of one of the table's columns (guarded
    /// by the value shown), `a` adds a row with the table's form, `u` and Ctrl-R undo and redo
    /// those — each on the requests' thread, one at a time, its outcome said when the server
    /// answers; the result shows it once the query has run again (asked for at once).
    func configurePostgresQueryWrites(
        _ configuration: inout ListScreenConfiguration,
        source: QuerySource,
        writes: PostgresQueryWrites
    ) {
        let requests = PostgresRequests(loop: loop)
        let history = QueryChangeHistory()
        let say: (String, Bool) -> Void = { [weak self] text, error in
            self?.list?.showMessage(text, duration: 8, style: error ? .error : .info)
        }
        let written = { [weak self] in
            self?.queries.ownWriteSaved = Date()
            source.live.refresh()
        }
        let busy: () throws -> Void = {
            if source.live.sourceTable == nil {
                throw FetchedTableError(QuerySource.notOneTablesRows(source.live), status: 1)
            }
            if let waiting = requests.inFlight.first {
                throw FetchedTableError("the server has not answered \(waiting) yet", status: 1)
            }
        }
        configuration.delete = { [weak self] row, actionName in
            try busy()
            let key = writes.key(of: row)
            let shown = writes.shownValues(of: row)
            let name = self?.list?.tab.objectName(row) ?? "the row"
            let id = row.objectID
            requests.run("the delete of \(name)", { try writes.delete(key: key, shown: shown) }) { [weak self] result in
                self?.list?.deleteAnswered(row: id)
                switch result {
                case .success(let rows):
                    history.changes.did(actionName, .deleted(rows))
                    written()
                    say("\(actionName) — u to undo", false)
                case .failure(let error):
                    written()
                    say("Could not delete \(name): \(writes.reason(error))", true)
                }
            }
        }
        configuration.deleteIsAnsweredLater = true
        configuration.deleteRefusal = writes.refusals.delete
        configuration.allowsCellEdits = true
        configuration.cellEditRefusal = { column in writes.editRefusal(column: column.keyPath) }
        configuration.cellEditIsAnsweredLater = true
        configuration.saveCell = { [weak self] row, column, value, shown, actionName in
            try busy()
            let key = writes.key(of: row)
            let text = PostgresBrowser.serverText(
                of: value,
                isBoolean: writes.tableColumns[column].map(writes.isBoolean) ?? false
            )
            let id = row.objectID
            requests.run(
                "the edit of \(column)",
                { try writes.update(key: key, column: column, to: text, shown: shown) }
            ) { [weak self] result in
                let list = self?.list
                switch result {
                case .success(let edit):
                    history.changes.did(actionName, .edited(edit))
                    list?.cellSaveAnswered(row: id, key: column)
                    say("\(actionName) — u to undo", false)
                case .failure(let error):
                    let reason = writes.reason(error)
                    if case ReplicaError.conflict = error {
                        list?.cellSaveAnswered(row: id, key: column)  // theirs kept: nothing to fix
                        say("Not saved: \(reason)", true)
                    } else {
                        list?.cellSaveAnswered(row: id, key: column, refusal: reason)
                    }
                }
                written()
            }
        }
        configuration.keyBindings.removeAll { $0.events.contains(.character("a")) }
        configuration.keyBindings.append(
            postgresQueryAddRowBinding(writes: writes, requests: requests, history: history, say: say, written: written)
        )
        for direction in [ServerChanges<PostgresQueryWrites.Change>.Direction.undo, .redo] {
            let verb = direction == .undo ? "undo" : "redo"
            var binding = ListKeyBinding(
                direction == .undo ? .character("u") : .control("r"),
                keys: direction == .undo ? "u" : "Ctrl-R",
                description: direction == .undo
                    ? "undo the last change (of \(writes.mapping.table), on the server)" : "redo the change u undid"
            ) { screen in
                if let waiting = requests.inFlight.first {
                    screen.showMessage("Could not \(verb): the server has not answered \(waiting) yet", style: .error)
                    return
                }
                guard let last = history.changes.take(direction) else {
                    screen.showMessage("Nothing to \(verb)")
                    return
                }
                screen.showMessage("\(direction == .undo ? "Undoing" : "Redoing"): \(last.name)…", duration: 8)
                let change = last.change
                requests.run("the \(verb) of \(last.name)", { try writes.invert(change) }) { result in
                    switch result {
                    case .success(let inverse):
                        history.changes.stepped(direction, last.name, inverse)
                        written()
                        say("\(direction == .undo ? "Undone" : "Redone"): \(last.name)", false)
                    case .failure(let error):
                        // Another session's change is kept: this one is dropped.
                        if case ReplicaError.conflict = error {} else { history.changes.putBack(direction, last) }
                        written()
                        say("Could not \(verb): \(writes.reason(error))", true)
                    }
                }
            }
            if direction == .undo {
                binding.helpPlacement = .section("Change")
            } else {
                binding.helpPlacement = .sharingLine(with: "u")
            }
            configuration.keyBindings.append(binding)
        }
    }

    /// `a` on a PostgreSQL query's result: the form of a new row of the server's table (its
    /// DEFAULTs, identity and generated columns, NOT NULL), inserted on the requests' thread.
    private func postgresQueryAddRowBinding(
        writes: PostgresQueryWrites,
        requests: PostgresRequests,
        history: QueryChangeHistory,
        say: @escaping (String, Bool) -> Void,
        written: @escaping () -> Void
    ) -> ListKeyBinding {
        let table = writes.table
        var form = RecordForm(entity: table.name.name)
        form.labels = Dictionary(table.columns.map { ($0.name, $0.name) }, uniquingKeysWith: { first, _ in first })
        form.tableAttributes = table.columns.filter { $0.typeOID != 17 && $0.baseTypeOID != 17 }.map { column in
            PostgresBrowser.formAttribute(column, declaredType: nil, defaults: writes.columnDefaults)
        }
        let booleans = Set(table.columns.filter { $0.typeName == "boolean" }.map(\.name))
        var binding = ListKeyBinding(
            .character("a"),
            keys: "a",
            description: "add a row to \(writes.mapping.table) (its form)"
        ) { screen in
            if let refusal = writes.refusals.insert, screen.configuration.readOnlyReason == nil {
                screen.showMessage("Cannot add a row: \(refusal)", duration: 8, style: .error)
                return
            }
            screen.beginAddingRow(with: form) { values, name, reopen in
                if let waiting = requests.inFlight.first {
                    throw FetchedTableError("the server has not answered \(waiting) yet", status: 1)
                }
                let texts = Dictionary(
                    values.map {
                        ($0.key, PostgresBrowser.serverText(of: $0.value, isBoolean: booleans.contains($0.key)))
                    },
                    uniquingKeysWith: { first, _ in first }
                )
                let actionName = "Added \(name)"
                say("Adding \(name)…", false)
                requests.run("the insert of \(name)", { try writes.insert(texts) }) { result in
                    switch result {
                    case .success(let added):
                        history.changes.did(actionName, .present([added]))
                        written()
                        say("\(actionName) to \(writes.mapping.table) — u to undo", false)
                    case .failure(let error):
                        let reason = writes.reason(error)
                        say("Could not add \(name): \(reason)", true)
                        reopen(reason)
                    }
                }
            }
        }
        binding.helpPlacement = .section("Change")
        return binding
    }
}

/// The changes made through a PostgreSQL query's result, for `u` and Ctrl-R, shared by the
/// keys' closures.
final class QueryChangeHistory {
    var changes = ServerChanges<PostgresQueryWrites.Change>()
}
