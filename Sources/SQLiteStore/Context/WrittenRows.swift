/// The rows of the model's entities that one save (or undo, or redo) wrote, with
/// every stored column's value as the transaction committed it: a reader of the
/// change set may take values from here instead of reading those rows again.
///
/// The values come from SQLite's pre-update hook (the same record undo keeps),
/// so they are what the file holds at the commit — after type affinity, and
/// after cascades and triggers, whose writes are recorded as well. Only the rows
/// written are here: an attribute of a row the save did not write is not known,
/// since a context's snapshot of it may be older than the file (another
/// connection wrote since). A row the save deleted is not here.
///
///     let known = changes.writtenRows.knownValues(
///         forKeyPaths: ["details.closeDate", "name"], root: "FailedBankInfo", of: [42])
///     known[42]   // [.text("2024-05-01"), nil]: the date was written, the name was not
package struct WrittenRows: Sendable {
    /// One entity's written rows, each row's values in `columns` order, one row after another
    /// (nil where the log had no value: a generated column).
    private struct Table: Sendable {
        var columns: [String: Int] = [:]
        var rowIndex: [Int64: Int] = [:]
        var values: [StoreValue?] = []

        init(columns: [String]) {
            for (i, c) in columns.enumerated() { self.columns[c] = i }
        }

        func value(row: Int, column: Int) -> StoreValue? { values[row * columns.count + column] }

        /// Sets the row's values (a row written twice keeps its last state).
        mutating func set(_ rowID: Int64, to row: [String: StoreValue]) {
            let start: Int
            if let existing = rowIndex[rowID] {
                start = existing * columns.count
            } else {
                start = values.count
                rowIndex[rowID] = values.count / max(1, columns.count)
                values += repeatElement(nil, count: columns.count)
            }
            for (column, i) in columns { values[start + i] = row[column] }
        }
    }

    /// The written rows of each entity, by entity name.
    private var tables: [String: Table] = [:]
    private let model: Model?

    /// No rows: what a change set from another process, or one built by hand, carries.
    package init() { model = nil }

    /// The rows `log` leaves written, each at its last state in the log.
    init(_ log: RowChangeLog, model: Model) {
        self.model = model
        var entities: [String: Entity?] = [:]
        for change in log.changes where change.table.schema == "main" {
            let name = change.table.name
            if entities[name] == nil {
                entities[name] = .some(
                    model.entities.first { !$0.isForeign && !$0.numbersRowsByPosition && $0.tableName == name }
                )
            }
            guard let entity = entities[name] ?? nil else { continue }
            var table = tables.removeValue(forKey: entity.name) ?? Table(columns: change.table.writableColumns)
            if change.kind != .insert { table.rowIndex[change.oldRowID] = nil }
            if let new = change.new, change.kind != .delete { table.set(change.newRowID, to: new) }
            tables[entity.name] = table
        }
    }

    /// True when no row of the model was written.
    package var isEmpty: Bool { tables.values.allSatisfy(\.rowIndex.isEmpty) }

    /// The values of `keyPaths` (of the entity `root`) that are known for each of `ids`,
    /// nil where unknown; ids with no known value are left out.
    ///
    /// A key path is known for a row when the row holding its value was written
    /// and its link from the root row is known too: an attribute of the root row
    /// itself; an attribute through a to-one relationship whose foreign key is in
    /// the root row (the root row and the row it links to both written; a NULL link
    /// gives NULL, as a join does); or through one whose foreign key is in the
    /// other row, when a unique key on that foreign key is enforced (so the
    /// written row that links to the root row is the only one). Derived
    /// attributes, `id` and longer paths are never known here.
    package func knownValues(
        forKeyPaths keyPaths: [String],
        root: String,
        of ids: some Sequence<Int64>
    ) -> [Int64: [StoreValue?]] {
        guard let model, let entity = model.entity(named: root), !isEmpty else { return [:] }
        let own = tables[root]
        let lookups = keyPaths.map { keyPath -> Lookup? in
            WrittenValuePath(keyPath: keyPath, root: entity, model: model).flatMap { lookup($0, own: own) }
        }
        guard lookups.contains(where: { $0 != nil }) else { return [:] }
        let ids = Array(ids)
        let ownRows = ids.map { own?.rowIndex[$0] }
        // One key path at a time over every row: each lookup's tables are bound once.
        var columns: [[StoreValue?]] = []
        for lookup in lookups {
            guard let lookup else {
                columns.append([])
                continue
            }
            columns.append(lookup.values(of: ids, ownRows: ownRows, in: own))
        }
        var out: [Int64: [StoreValue?]] = [:]
        for (k, id) in ids.enumerated() {
            var values: [StoreValue?]?
            for (i, column) in columns.enumerated() where !column.isEmpty {
                guard let value = column[k] else { continue }
                if values == nil { values = [StoreValue?](repeating: nil, count: lookups.count) }
                values![i] = value
            }
            if let values { out[id] = values }
        }
        return out
    }

    /// How one key path's value is found among the written rows.
    private enum Lookup {
        case column(Int)
        case throughForeignKey(foreignKey: Int, destination: Table?, column: Int?)
        case throughLinkingRow(rowLinkingTo: [Int64: Int], destination: Table, column: Int)

        /// The value for each of `ids` (whose rows in the root entity's table are `ownRows`), nil where unknown.
        func values(of ids: [Int64], ownRows: [Int?], in own: Table?) -> [StoreValue?] {
            switch self {
            case .column(let column):
                guard let own else { return Array(repeating: nil, count: ids.count) }
                return ownRows.map { $0.flatMap { own.value(row: $0, column: column) } }
            case .throughForeignKey(let foreignKey, let destination, let column):
                guard let own else { return Array(repeating: nil, count: ids.count) }
                return ownRows.map { row -> StoreValue? in
                    switch row.flatMap({ own.value(row: $0, column: foreignKey) }) {
                    case nil: return nil
                    case .null?: return .null
                    case let link?:
                        guard let destination, let column, let linked = link.int64.flatMap({ destination.rowIndex[$0] })
                        else { return nil }
                        return destination.value(row: linked, column: column)
                    }
                }
            case .throughLinkingRow(let rowLinkingTo, let destination, let column):
                return ids.map { id in rowLinkingTo[id].flatMap { destination.value(row: $0, column: column) } }
            }
        }
    }

    /// The lookup of a path, nil when the rows it needs were not written.
    private func lookup(_ path: WrittenValuePath, own: Table?) -> Lookup? {
        switch path {
        case .column(let column):
            return own?.columns[column].map { .column($0) }
        case .throughForeignKey(let foreignKey, let destination, let column):
            // The linked row may not have been written: a NULL link is known all the same.
            guard let fk = own?.columns[foreignKey] else { return nil }
            let table = tables[destination]
            return .throughForeignKey(foreignKey: fk, destination: table, column: table?.columns[column])
        case .throughLinkingRow(let destination, let foreignKey, let column):
            guard let table = tables[destination], let fk = table.columns[foreignKey], let c = table.columns[column]
            else { return nil }
            var rowLinkingTo: [Int64: Int] = [:]
            rowLinkingTo.reserveCapacity(table.rowIndex.count)
            for (_, row) in table.rowIndex {
                if let link = table.value(row: row, column: fk)?.int64 { rowLinkingTo[link] = row }
            }
            return .throughLinkingRow(rowLinkingTo: rowLinkingTo, destination: table, column: c)
        }
    }
}

/// Where a key path's value is in the written rows (see `WrittenRows.knownValues(forKeyPaths:root:of:)`).
private enum WrittenValuePath {
    /// A column of the root row.
    case column(String)
    /// A column of the row the root row's foreign key names.
    case throughForeignKey(foreignKey: String, destination: String, column: String)
    /// A column of the one row of `destination` whose `foreignKey` names the root row.
    case throughLinkingRow(destination: String, foreignKey: String, column: String)

    /// Nil when the key path's value cannot be known from written rows.
    init?(keyPath: String, root: Entity, model: Model) {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1 {
            guard let a = root.attribute(named: parts[0]) else { return nil }
            self = .column(a.columnName)
            return
        }
        guard parts.count == 2, let rel = root.relationship(named: parts[0]),
            let destination = model.entity(named: rel.destination), !destination.isForeign,
            let a = destination.attribute(named: parts[1])
        else { return nil }
        if rel.storesForeignKey {
            self = .throughForeignKey(foreignKey: rel.columnName, destination: destination.name, column: a.columnName)
            return
        }
        guard let inverse = destination.relationship(named: rel.inverse), inverse.storesForeignKey,
            destination.uniqueKeys.contains([inverse.name])
        else { return nil }
        self = .throughLinkingRow(destination: destination.name, foreignKey: inverse.columnName, column: a.columnName)
    }
}
