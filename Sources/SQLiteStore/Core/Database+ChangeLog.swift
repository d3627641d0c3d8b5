import CSQLite

extension Database {
    /// Runs `body` (inside a transaction the caller holds) with SQLite's pre-update hook
    /// installed, and returns what it returned with every row it changed — those its
    /// statements named and those their foreign-key actions and triggers changed —
    /// as a ``RowChangeLog`` that ``revert(_:)`` can undo.
    ///
    /// `body` gets the recorder, to ask whether a row is already gone within the transaction.
    func recordingChanges<T>(
        excluding tables: Set<String>,
        _ body: (PreupdateRecorder) throws -> T
    ) throws -> (T, RowChangeLog) {
        let recorder = PreupdateRecorder(excluding: tables)
        let unmanaged = Unmanaged.passRetained(recorder)
        sqlite3_preupdate_hook(
            handle,
            { context, connection, op, schema, table, key1, key2 in
                guard let context, let connection, let schema, let table else { return }
                Unmanaged<PreupdateRecorder>.fromOpaque(context).takeUnretainedValue().record(
                    connection: connection,
                    op: op,
                    schema: String(cString: schema),
                    table: String(cString: table),
                    key1: key1,
                    key2: key2
                )
            },
            unmanaged.toOpaque()
        )
        defer {
            sqlite3_preupdate_hook(handle, nil, nil)
            unmanaged.release()
        }
        let result = try body(recorder)
        sqlite3_preupdate_hook(handle, nil, nil)
        return (result, try recorder.log(reading: self))
    }

    /// Undoes `log`, newest change first: a deleted row is inserted again with its row id
    /// and every value, a changed row gets its old values back, an inserted row is deleted.
    /// Runs inside the caller's transaction, with foreign keys deferred (children come back
    /// before their parent), so that it applies whole or not at all.
    ///
    /// - Throws: ``StoreError/cannotRestore(table:reason:)`` for a row it cannot address (a
    ///   rowid table whose columns hide every name of the row id); SQLite's error when a row
    ///   cannot come back (another row took its key meanwhile).
    func revert(_ log: RowChangeLog) throws {
        for change in log.changes.reversed() {
            switch change.kind {
            case .insert:
                guard let new = change.new else { continue }
                let (condition, arguments) = try Database.address(change.table, rowID: change.newRowID, values: new)
                try run("DELETE FROM \(change.table.sqlName) WHERE \(condition)", arguments)
            case .delete:
                guard let old = change.old else { continue }
                try insert(old, rowID: change.oldRowID, into: change.table)
            case .update:
                guard let old = change.old, let new = change.new else { continue }
                try update(change.table, from: new, newRowID: change.newRowID, to: old, oldRowID: change.oldRowID)
            }
        }
    }

    /// Before ``revert(_:)``: throws ``StoreError/restoreConflict(table:row:reason:step:)`` for the
    /// first row that another writer changed since the log was written — a row the log deleted
    /// that exists again, a row it inserted or changed that is gone, or whose columns the log
    /// set hold other values now (every column, for a row the log inserted). Reverting over
    /// them would lose the other writer's change. `write` is the undo or redo about to revert
    /// the log, which `madeBy` wrote (for the error's words, ``RestoreStep``).
    func checkUnchangedSince(_ log: RowChangeLog, write: SaveHook.Write, madeBy: SaveHook.Write) throws {
        var order: [String] = []
        var finals: [String: FinalRow] = [:]
        func note(
            _ table: LoggedTable,
            rowID: Int64,
            values: [String: StoreValue],
            final: [String: StoreValue]?,
            columns: Set<String>,
            inserted: Bool = false
        ) {
            let key = FinalRow.key(table, rowID: rowID, values: values)
            if finals[key] == nil {
                order.append(key)
                finals[key] = FinalRow(
                    table: table,
                    rowID: rowID,
                    address: values,
                    final: final,
                    columns: columns,
                    inserted: inserted
                )
            } else {
                finals[key]!.final = final
                finals[key]!.columns.formUnion(columns)
                finals[key]!.inserted = finals[key]!.inserted || inserted
                if let final { finals[key]!.address = final }
            }
        }
        for change in log.changes {
            switch change.kind {
            case .insert:
                guard let new = change.new else { continue }
                note(
                    change.table,
                    rowID: change.newRowID,
                    values: new,
                    final: new,
                    columns: Set(change.table.writableColumns),
                    inserted: true
                )
            case .delete:
                guard let old = change.old else { continue }
                note(change.table, rowID: change.oldRowID, values: old, final: nil, columns: [])
            case .update:
                guard let old = change.old, let new = change.new else { continue }
                let from = FinalRow.key(change.table, rowID: change.oldRowID, values: old)
                let to = FinalRow.key(change.table, rowID: change.newRowID, values: new)
                if from == to {
                    let changed = Set(change.table.writableColumns.filter { old[$0] != new[$0] })
                    note(change.table, rowID: change.newRowID, values: new, final: new, columns: changed)
                } else {
                    note(change.table, rowID: change.oldRowID, values: old, final: nil, columns: [])
                    note(
                        change.table,
                        rowID: change.newRowID,
                        values: new,
                        final: new,
                        columns: Set(change.table.writableColumns),
                        inserted: true
                    )
                }
            }
        }
        for key in order {
            let row = finals[key]!
            let now = try current(row)
            let conflict: RestoreConflict?
            switch (row.final, now) {
            case (nil, nil): conflict = nil
            case (nil, _?): conflict = .existsAgain
            case (_?, nil): conflict = .deletedSince
            case (let final?, let now?):
                conflict =
                    row.columns.contains { !Database.sameStored(final[$0] ?? .null, now[$0] ?? .null) }
                    ? .changedSince : nil
            }
            if let conflict {
                throw StoreError.restoreConflict(
                    table: row.table.name,
                    row: row.name,
                    reason: conflict,
                    step: RestoreStep(write: write, takingBack: madeBy, inserted: row.inserted)
                )
            }
        }
    }

    /// Whether a logged value and the one read now are the same stored value: equal, or a whole
    /// number as an integer and as a real — the pre-update hook gives a `REAL` column's 3.0 as
    /// SQLite records it (3), a read gives it with the column's affinity (3.0).
    static func sameStored(_ logged: StoreValue, _ now: StoreValue) -> Bool {
        switch (logged, now) {
        case (.integer(let integer), .real(let real)), (.real(let real), .integer(let integer)):
            return Double(integer) == real
        default:
            return logged == now
        }
    }

    /// The row's stored columns as the file holds them now, nil when there is no such row.
    private func current(_ row: FinalRow) throws -> [String: StoreValue]? {
        let columns = row.table.writableColumns
        guard !columns.isEmpty else { return nil }
        let (condition, arguments) = try Database.address(row.table, rowID: row.rowID, values: row.address)
        var found: [String: StoreValue]?
        try forEachRow(
            "SELECT \(columns.map(SQLIdentifier.alwaysQuoted).joined(separator: ", ")) FROM \(row.table.sqlName) WHERE \(condition)",
            arguments
        ) { statement in
            found = Dictionary(uniqueKeysWithValues: zip(columns, statement.row()))
        }
        return found
    }

    /// Runs `body` with the connection's triggers off (`SQLITE_DBCONFIG_ENABLE_TRIGGER`; the
    /// cached statements are prepared again, without them), then on again. Foreign-key actions
    /// still run. For ``revert(_:)``: what the triggers did at the time is in the log.
    func withTriggersOff<T>(_ body: () throws -> T) rethrows -> T {
        var now: Int32 = 0
        csqlite_db_config_int(handle, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &now)
        defer { csqlite_db_config_int(handle, SQLITE_DBCONFIG_ENABLE_TRIGGER, 1, &now) }
        return try body()
    }

    private func insert(_ row: [String: StoreValue], rowID: Int64, into table: LoggedTable) throws {
        var columns = table.writableColumns
        var values = columns.map { row[$0] ?? .null }
        if table.keyColumns.isEmpty, table.integerKey == nil, let name = table.rowIDName {
            columns.append(name)
            values.append(.integer(rowID))
        }
        let names = columns.map(SQLIdentifier.alwaysQuoted).joined(separator: ", ")
        let marks = columns.map { _ in "?" }.joined(separator: ", ")
        try run("INSERT INTO \(table.sqlName)(\(names)) VALUES (\(marks))", values)
    }

    private func update(
        _ table: LoggedTable,
        from new: [String: StoreValue],
        newRowID: Int64,
        to old: [String: StoreValue],
        oldRowID: Int64
    ) throws {
        var sets: [String] = []
        var values: [StoreValue] = []
        for column in table.writableColumns where old[column] != new[column] {
            sets.append("\(SQLIdentifier.alwaysQuoted(column)) = ?")
            values.append(old[column] ?? .null)
        }
        if table.keyColumns.isEmpty, table.integerKey == nil, oldRowID != newRowID, let name = table.rowIDName {
            sets.append("\(SQLIdentifier.alwaysQuoted(name)) = ?")
            values.append(.integer(oldRowID))
        }
        guard !sets.isEmpty else { return }
        let (condition, arguments) = try Database.address(table, rowID: newRowID, values: new)
        try run(
            "UPDATE \(table.sqlName) SET \(sets.joined(separator: ", ")) WHERE \(condition)",
            values + arguments
        )
    }

    /// The `WHERE` condition that names one row: its row id, or a `WITHOUT ROWID` table's key.
    private static func address(
        _ table: LoggedTable,
        rowID: Int64,
        values: [String: StoreValue]
    ) throws -> (String, [StoreValue]) {
        if !table.keyColumns.isEmpty {
            let condition = table.keyColumns.map { "\(SQLIdentifier.alwaysQuoted($0)) IS ?" }.joined(separator: " AND ")
            return (condition, table.keyColumns.map { values[$0] ?? .null })
        }
        guard let name = table.rowIDName else {
            throw StoreError.cannotRestore(
                table: table.name,
                reason: "its columns rowid, _rowid_ and oid hide the row id that names its rows"
            )
        }
        return ("\(SQLIdentifier.alwaysQuoted(name)) = ?", [.integer(rowID)])
    }
}

/// One row a ``RowChangeLog`` touched, as the log left it (``Database/checkUnchangedSince(_:)``).
private struct FinalRow {
    var table: LoggedTable
    var rowID: Int64
    /// Values that name the row (a `WITHOUT ROWID` table's key is among them).
    var address: [String: StoreValue]
    /// The row's values after the log; nil when the log left it deleted.
    var final: [String: StoreValue]?
    /// The columns the log set (every one, for a row it inserted).
    var columns: Set<String>
    /// Whether the log inserted the row (else it changed or deleted it).
    var inserted: Bool

    /// What names the row in messages: its row id, or a `WITHOUT ROWID` table's key values.
    var name: String {
        guard !table.keyColumns.isEmpty else { return String(rowID) }
        return table.keyColumns.map { (address[$0] ?? .null).description }.joined(separator: ", ")
    }

    /// One string per row of the file: the table and the row id, or the key values.
    static func key(_ table: LoggedTable, rowID: Int64, values: [String: StoreValue]) -> String {
        let identity =
            table.keyColumns.isEmpty
            ? String(rowID) : table.keyColumns.map { (values[$0] ?? .null).description }.joined(separator: "\u{1F}")
        return table.sqlName + "\u{1F}" + identity
    }
}
