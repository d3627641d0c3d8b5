/// What one run of a query changed in its ``QueryResultTable``.
public struct QueryResultChange: Sendable, Equatable, CustomStringConvertible {
    /// Rows new in this run.
    public var inserted = 0
    /// Rows whose values changed (their place may have changed too).
    public var updated = 0
    /// Rows whose values did not change but whose place in the query's order did.
    public var moved = 0
    /// Rows gone.
    public var deleted = 0
    /// How many rows the result has now.
    public var count = 0

    /// A change of nothing.
    public init() {}

    /// True when the run left the result as it was.
    public var isEmpty: Bool { inserted == 0 && updated == 0 && moved == 0 && deleted == 0 }

    /// "1 inserted, 2 updated" (the kinds that happened), or "no change".
    public var description: String {
        let parts = [(inserted, "inserted"), (updated, "updated"), (moved, "moved"), (deleted, "deleted")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return parts.isEmpty ? "no change" : parts.joined(separator: ", ")
    }
}

extension QueryResultTable {
    /// A row of this run that the table does not have yet.
    private struct NewRow {
        var identity: RowDigest.Digest
        var content: RowDigest.Digest
        var values: [StoreValue]
    }

    /// Brings the table to another run of the query: reads every row of `rows`, matches it to
    /// the last run's by ``identity``, and writes the difference in one transaction — deletes,
    /// updates (values, or only the place in the order), inserts — which the file's history
    /// records row by row. Rows not changed are not written. `progress` is called with the rows
    /// read so far, about every 50,000 rows.
    ///
    ///     let change = try table.update(from: try query.rows())
    ///     if !change.isEmpty { print(change) }   // "1 inserted, 1 updated"
    ///
    /// - Throws: ``QueryResultError/duplicateKey(columns:values:)``; what reading the rows throws.
    ///   The table is then as it was.
    @discardableResult
    package func update(from rows: QueryRows, progress: ((Int) -> Void)? = nil) throws -> QueryResultChange {
        // A statement's rows (every SQLite run) read without a dynamic call per value.
        if let statementRows = rows as? StatementRows { return try update(reading: statementRows, progress: progress) }
        return try update(reading: rows, progress: progress)
    }

    /// ``update(from:progress:)`` of rows of a type known here.
    private func update<Rows: QueryRows>(reading rows: Rows, progress: ((Int) -> Void)?) throws -> QueryResultChange {
        precondition(isLoaded, "update(from:) follows load(_:)")
        guard rows.columnCount == columns.count else { throw QueryResultError.columnsChanged }
        try buildIndex()
        index.prepareRunOrder()
        index.beginRun()
        // 1. Read the run: each row matched to a slot, or new. Each row is expected where the last
        // run's order has the row after the last one matched.
        var sequence: [Int64] = []  // a slot, or -(its position in `fresh` + 1)
        sequence.reserveCapacity(index.count + 16)
        var fresh: [NewRow] = []
        var freshIdentities = Set<RowDigest.Digest>()
        var changed: [Int32: (content: RowDigest.Digest, values: [StoreValue])] = [:]
        var read = 0
        var matched = 0
        var expected = 0  // a position in the last run's order
        while try rows.next() {
            let (identity, content, found) = try digests(of: rows, expected: index.slot(inRunOrderAt: expected)) {
                freshIdentities.contains($0)
            }
            if let slot = found {
                index.markSeen(slot)
                matched += 1
                expected = index.runPosition(of: slot) + 1
                if index.contents[Int(slot)] != content { changed[slot] = (content, QueryResultTable.values(of: rows)) }
                sequence.append(Int64(slot))
            } else {
                freshIdentities.insert(identity)
                fresh.append(NewRow(identity: identity, content: content, values: QueryResultTable.values(of: rows)))
                sequence.append(-Int64(fresh.count))
            }
            read += 1
            if read % 51_200 == 0 { progress?(read) }
        }
        let gone = matched == index.count ? [] : index.unseenSlots()
        // 2. Their places in the order.
        let old = sequence.map { $0 >= 0 ? index.orders[Int($0)] : nil }
        let places = QueryOrdering.places(old: old)
        // 3. Write the difference.
        var change = QueryResultChange()
        var added: [(row: NewRow, rowID: Int64, order: Double)] = []
        try database.transaction {
            for slot in gone { try database.run(deleteSQL, [.integer(index.rowIDs[Int(slot)])]) }
            for (position, entry) in sequence.enumerated() {
                let order = places[position]
                guard entry >= 0 else {
                    let row = fresh[Int(-entry - 1)]
                    let rowID = index.takeRowID()
                    try database.run(insertSQL, [.integer(rowID)] + row.values + [.real(order)])
                    added.append((row, rowID, order))
                    continue
                }
                let slot = Int32(entry)
                let rowID = StoreValue.integer(index.rowIDs[Int(slot)])
                if !changed.isEmpty, let values = changed[slot]?.values {
                    try database.run(updateSQL, values + [.real(order), rowID])
                    change.updated += 1
                } else if order != old[position] {
                    try database.run(moveSQL, [.real(order), rowID])
                    change.moved += 1
                }
            }
            try pruneHistory()
        }
        // 4. Remember the run.
        for slot in gone { index.remove(slot) }
        for (slot, new) in changed { index.setContent(new.content, of: slot) }
        for (position, entry) in sequence.enumerated() where entry >= 0 && places[position] != old[position] {
            index.setOrder(places[position], of: Int32(entry))
        }
        var addedSlots: [Int32] = []
        addedSlots.reserveCapacity(added.count)
        for (row, rowID, order) in added {
            addedSlots.append(index.add(rowID: rowID, identity: row.identity, content: row.content, order: order))
        }
        index.setRunOrder(sequence.map { $0 >= 0 ? Int32($0) : addedSlots[Int(-$0 - 1)] })
        change.inserted = added.count
        change.deleted = gone.count
        change.count = index.count
        progress?(read)
        return change
    }

    /// From now on rows are told apart by their content (a key that turned out not to be one).
    public func identifyByContent() {
        identity = .content
        keyColumns = []
        index.identifyByContent()
    }

    /// Keeps the newest ``historyLimit`` history entries.
    private func pruneHistory() throws {
        let history = SQLIdentifier.quoted(tracking.historyTable)
        try database.run(
            "DELETE FROM \(history) WHERE seq <= (SELECT max(seq) FROM \(history)) - ?",
            [.integer(Int64(QueryResultTable.historyLimit))]
        )
    }

    /// The current row's values.
    static func values<Rows: QueryRows>(of rows: Rows) -> [StoreValue] {
        (0..<rows.columnCount).map { rows.field($0).value }
    }

    private var quotedTable: String { tableName }
    var quotedRowID: String { SQLIdentifier.quoted(rowIDColumn) }
    private var quotedPlace: String { SQLIdentifier.quoted(placeColumn) }

    private var deleteSQL: String { "DELETE FROM \(quotedTable) WHERE \(quotedRowID) = ?" }
    private var moveSQL: String { "UPDATE \(quotedTable) SET \(quotedPlace) = ? WHERE \(quotedRowID) = ?" }
    private var updateSQL: String {
        let assignments = columns.map { SQLIdentifier.alwaysQuoted($0.name) + " = ?" } + ["\(quotedPlace) = ?"]
        return "UPDATE \(quotedTable) SET \(assignments.joined(separator: ", ")) WHERE \(quotedRowID) = ?"
    }
    private var insertSQL: String {
        "INSERT INTO \(quotedTable) VALUES (" + Array(repeating: "?", count: columns.count + 2).joined(separator: ", ")
            + ")"
    }
}
