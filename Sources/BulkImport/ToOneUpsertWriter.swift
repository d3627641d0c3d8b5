import SQLiteStore

/// Upserts rows whose values fill two tables: a root table and a to-one
/// table that holds the upsert key and a foreign key to its root row
/// (a `book` and its `book_details`, keyed by a number the file carries).
///
/// A row is one row of a ``BulkRowBatch``: the root's values first
/// (`rootColumns`), then the to-one table's (`columns`, among them `key`).
/// It is looked up by its key in the to-one table, joined to its root:
/// - **new key**: a root row is inserted, then the to-one row with the
///   root's id in `foreignKey`;
/// - **known key**: when a root column differs, the root row is updated (all
///   its columns, in one statement), and only the to-one columns whose value
///   differs are updated; a to-one row without a root (removed by hand) gets
///   a new root row; an identical row is not written at all, so re-importing
///   a file writes nothing (and records no history).
///
/// Columns in `absentColumns` (those the file does not have) are inserted
/// as the row's value (NULL) but never compared or updated: a file without
/// them leaves the stored values alone. Values are compared on their bytes:
/// text with the stored text (NULL reads as empty text), an integer or real
/// with a stored number, NULL with NULL. Ordinary statements are used, so
/// history triggers record each change.
///
///     let writer = try ToOneUpsertWriter(database: db, rootTable: "person", rootColumns: ["name"],
///                                        table: "passport", foreignKey: "person_id",
///                                        columns: ["number", "issued"], key: "number")
///     let batch = BulkRowBatch(capacity: 1)
///     "Ada".utf8CString.withUnsafeBytes { batch.append(utf8: UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
///     batch.append(Int64(17))
///     batch.appendNull()
///     batch.endRow(line: 2)
///     let outcome = try writer.apply(batch, row: 0)   // .added
package struct ToOneUpsertWriter {
    /// What ``apply(_:row:)`` did with a row.
    package enum Outcome: Sendable {
        /// A new key: both rows inserted.
        case added
        /// A known key with a value that differed: the differing columns updated.
        case updated
        /// A known key with the same values: nothing written.
        case unchanged
    }

    private let database: Database
    private let table: String
    private let rootCount: Int
    private let columns: [String]
    private let foreignKey: String
    private let keyOffset: Int
    /// Per to-one column: compared and updated (false for the key and the absent columns).
    private let compared: [Bool]
    private let lookup: Statement
    private let insertRoot: Statement
    private let insertRow: Statement
    private let updateRoot: Statement

    /// A writer on `database`'s connection; see the type's summary. The statements are prepared once
    /// and held here (outside the connection's bounded cache).
    package init(
        database: Database,
        rootTable: String,
        rootColumns: [String],
        table: String,
        foreignKey: String,
        columns: [String],
        key: String,
        absentColumns: Set<String> = []
    ) throws {
        guard let keyOffset = columns.firstIndex(of: key) else {
            preconditionFailure("ToOneUpsertWriter: the key \(key) is not one of the columns")
        }
        precondition(!rootColumns.isEmpty, "ToOneUpsertWriter: no root columns")
        self.database = database
        self.table = Database.quote(identifier: table)
        rootCount = rootColumns.count
        self.columns = columns
        self.foreignKey = foreignKey
        self.keyOffset = keyOffset
        compared = columns.indices.map { $0 != keyOffset && !absentColumns.contains(columns[$0]) }
        let q = Database.quote(identifier:)
        let root = q(rootTable)
        let selected =
            ["p.rowid", "p." + q(foreignKey)] + rootColumns.map { "r." + q($0) } + columns.map { "p." + q($0) }
        lookup = try database.uncachedStatement(
            "SELECT \(selected.joined(separator: ", ")) FROM \(self.table) AS p "
                + "LEFT JOIN \(root) AS r ON r.rowid = p.\(q(foreignKey)) WHERE p.\(q(key)) = ?"
        )
        func placeholders(_ n: Int) -> String { Array(repeating: "?", count: n).joined(separator: ", ") }
        insertRoot = try database.uncachedStatement(
            "INSERT INTO \(root)(\(rootColumns.map(q).joined(separator: ", "))) VALUES (\(placeholders(rootCount)))"
        )
        insertRow = try database.uncachedStatement(
            "INSERT INTO \(self.table)(\(([foreignKey] + columns).map(q).joined(separator: ", "))) "
                + "VALUES (\(placeholders(columns.count + 1)))"
        )
        updateRoot = try database.uncachedStatement(
            "UPDATE \(root) SET \(rootColumns.map { "\(q($0)) = ?" }.joined(separator: ", ")) WHERE rowid = ?"
        )
    }

    /// Adds, updates or leaves the row `row` of `batch` (root values, then the to-one table's).
    package func apply(_ batch: BulkRowBatch, row: Int) throws -> Outcome {
        let base = row * batch.columnCount
        let text = batch.text
        return try batch.cells.withUnsafeBufferPointer { all in
            let cells = UnsafeBufferPointer(rebasing: all[base..<(base + rootCount + columns.count)])
            try bind(lookup, cells[rootCount + keyOffset], text, at: 1)
            guard try lookup.step() else {
                lookup.reset()
                try insertRow.bind(try insertRootRow(cells, text), at: 1)
                for offset in columns.indices {
                    try bind(insertRow, cells[rootCount + offset], text, at: Int32(offset + 2))
                }
                _ = try insertRow.step()
                insertRow.reset()
                return .added
            }
            let rowID = lookup.int64(at: 0)
            let rootID: Int64? = lookup.isNull(at: 1) ? nil : lookup.int64(at: 1)

            // Compare while the row is current; collect what changed.
            var rootChanged = rootID == nil
            for offset in 0..<rootCount where !rootChanged {
                rootChanged = !isStored(cells[offset], text, at: Int32(2 + offset))
            }
            var changed: [(String, StoreValue)] = []
            for (offset, column) in columns.enumerated() where compared[offset] {
                let cell = cells[rootCount + offset]
                if !isStored(cell, text, at: Int32(2 + rootCount + offset)) {
                    changed.append((column, batch.value(row: row, column: rootCount + offset)))
                }
            }
            lookup.reset()

            guard rootChanged || !changed.isEmpty else { return .unchanged }
            if rootChanged {
                if let rootID {
                    for offset in 0..<rootCount { try bind(updateRoot, cells[offset], text, at: Int32(offset + 1)) }
                    try updateRoot.bind(rootID, at: Int32(rootCount + 1))
                    _ = try updateRoot.step()
                    updateRoot.reset()
                } else {
                    // A to-one row without its root (removed by hand): give it one again.
                    changed.append((foreignKey, .integer(try insertRootRow(cells, text))))
                }
            }
            if !changed.isEmpty {
                let assignments = changed.map { "\(Database.quote(identifier: $0.0)) = ?" }.joined(separator: ", ")
                try database.run(
                    "UPDATE \(table) SET \(assignments) WHERE rowid = ?",
                    changed.map(\.1) + [.integer(rowID)]
                )
            }
            return .updated
        }
    }

    private func insertRootRow(
        _ cells: UnsafeBufferPointer<BulkRowBatch.Cell>,
        _ text: UnsafeRawBufferPointer
    ) throws -> Int64 {
        for offset in 0..<rootCount { try bind(insertRoot, cells[offset], text, at: Int32(offset + 1)) }
        _ = try insertRoot.step()
        insertRoot.reset()
        return database.lastInsertRowID
    }

    /// True when the lookup's column `index` holds the cell's value (NULL reads as empty text).
    private func isStored(_ cell: BulkRowBatch.Cell, _ text: UnsafeRawBufferPointer, at index: Int32) -> Bool {
        switch cell.kind {
        case .null: return lookup.isNull(at: index)
        case .integer: return !lookup.isNull(at: index) && lookup.int64(at: index) == Int64(bitPattern: cell.bits)
        case .real: return !lookup.isNull(at: index) && lookup.double(at: index) == Double(bitPattern: cell.bits)
        case .text:
            let bytes = UnsafeRawBufferPointer(rebasing: text[cell.start..<cell.end])
            return lookup.withUTF8(at: index) { $0.elementsEqual(bytes) }
        }
    }

    private func bind(
        _ statement: Statement,
        _ cell: BulkRowBatch.Cell,
        _ text: UnsafeRawBufferPointer,
        at index: Int32
    ) throws {
        switch cell.kind {
        case .null: break  // reset() cleared the bindings: NULL
        case .integer: try statement.bind(Int64(bitPattern: cell.bits), at: index)
        case .real: try statement.bind(Double(bitPattern: cell.bits), at: index)
        case .text: try statement.bind(utf8: UnsafeRawBufferPointer(rebasing: text[cell.start..<cell.end]), at: index)
        }
    }
}
