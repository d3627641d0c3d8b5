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
    /// Every stored column's value, by column name, by row id, by entity name.
    private var rows: [String: [Int64: [String: StoreValue]]] = [:]
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
            if change.kind != .insert { rows[entity.name, default: [:]][change.oldRowID] = nil }
            if let new = change.new, change.kind != .delete { rows[entity.name, default: [:]][change.newRowID] = new }
        }
    }

    /// True when no row of the model was written.
    package var isEmpty: Bool { rows.values.allSatisfy(\.isEmpty) }

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
        let paths = keyPaths.map { WrittenValuePath(keyPath: $0, root: entity, model: model) }
        guard paths.contains(where: { $0 != nil }) else { return [:] }
        var linking: [String: [Int64: [String: StoreValue]]] = [:]
        for case .throughLinkingRow(let destination, let foreignKey, _)? in paths
        where linking[destination + "." + foreignKey] == nil {
            var byLink: [Int64: [String: StoreValue]] = [:]
            for (_, row) in rows[destination] ?? [:] {
                if let link = row[foreignKey]?.int64 { byLink[link] = row }
            }
            linking[destination + "." + foreignKey] = byLink
        }
        let own = rows[root] ?? [:]
        var out: [Int64: [StoreValue?]] = [:]
        for id in ids {
            var values: [StoreValue?] = []
            values.reserveCapacity(paths.count)
            var any = false
            for path in paths {
                let value: StoreValue?
                switch path {
                case nil: value = nil
                case .column(let column)?: value = own[id]?[column]
                case .throughForeignKey(let foreignKey, let destination, let column)?:
                    switch own[id]?[foreignKey] {
                    case nil: value = nil
                    case .null?: value = .null
                    case let link?: value = link.int64.flatMap { rows[destination]?[$0]?[column] }
                    }
                case .throughLinkingRow(let destination, let foreignKey, let column)?:
                    value = linking[destination + "." + foreignKey]?[id]?[column]
                }
                if value != nil { any = true }
                values.append(value)
            }
            if any { out[id] = values }
        }
        return out
    }
}

/// Where a key path's value is in the written rows (see ``WrittenRows/knownValues(forKeyPaths:root:of:)``).
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
