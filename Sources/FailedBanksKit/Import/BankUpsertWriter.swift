import BulkImport
import CSVImport
import SQLiteStore

/// The path for a store that already holds banks: each row is looked up by
/// cert and written only where it differs.
///
/// A new cert inserts an info and a details row; an existing one updates
/// only the columns whose value changed (and only columns the file has: a
/// 2010 list without acquirers leaves the stored acquirers alone); an
/// unchanged bank is not written at all, so re-importing a file writes
/// nothing and no history. Normal statements are used, so the history
/// triggers record each change and a running browser animates them.
///
///     let writer = try BankUpsertWriter(database: db, layout: layout)
///     try run.forEachGoodRow { record, values in
///         switch try writer.apply(record, values) { case .added: …; case .updated: …; case .unchanged: … }
///     }
struct BankUpsertWriter {
    enum Outcome { case added, updated, unchanged }

    private let database: Database
    private let layout: BankRowLayout
    private let lookup: Statement
    private let insertInfoStatement: Statement
    private let insertDetailsStatement: Statement
    private let updateInfoStatement: Statement

    /// Prepares the statements once (held here, outside the connection's bounded cache).
    init(database: Database, layout: BankRowLayout) throws {
        self.database = database
        self.layout = layout
        lookup = try database.uncachedStatement(BankUpsertWriter.lookupSQL)
        insertInfoStatement = try database.uncachedStatement("INSERT INTO failed_bank_info(name, city, state) VALUES (?, ?, ?)")
        insertDetailsStatement = try database.uncachedStatement("""
            INSERT INTO failed_bank_details(info_id, close_date, updated_date, cert, acquiring_institution, fund)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        updateInfoStatement = try database.uncachedStatement("UPDATE failed_bank_info SET name = ?, city = ?, state = ? WHERE id = ?")
    }

    private static let lookupSQL = """
        SELECT d.id, d.info_id, i.name, i.city, i.state, d.close_date, d.updated_date, d.acquiring_institution, d.fund
        FROM failed_bank_details AS d LEFT JOIN failed_bank_info AS i ON i.id = d.info_id
        WHERE d.cert = ?
        """

    /// Adds, updates or leaves the bank of one checked row.
    func apply(_ record: CSVRecord, _ values: BankRowLayout.Values) throws -> Outcome {
        try lookup.bind(values.cert, at: 1)
        guard try lookup.step() else {
            lookup.reset()
            try insert(record, values)
            return .added
        }
        let detailsID = lookup.int64(at: 0)
        let infoID: Int64? = lookup.isNull(at: 1) ? nil : lookup.int64(at: 1)

        // Compare while the row is current; collect what changed.
        var infoChanged = infoID == nil
        if let _ = infoID {
            for (column, index) in [(Int32(2), layout.name), (3, layout.city), (4, layout.state)] where !infoChanged {
                infoChanged = !CSVFieldText.withText(record, index) { text in
                    lookup.withUTF8(at: column) { $0.elementsEqual(text) }
                }
            }
        }
        var changedColumns: [(String, StoreValue)] = []
        let sameClose = values.closeDate.withISOBytes { iso in !lookup.isNull(at: 5) && lookup.withUTF8(at: 5) { $0.elementsEqual(iso) } }
        if !sameClose { changedColumns.append(("close_date", .text(values.closeDate.isoText))) }
        if layout.updatedDate != nil {
            let same: Bool
            if let updated = values.updatedDate {
                same = updated.withISOBytes { iso in !lookup.isNull(at: 6) && lookup.withUTF8(at: 6) { $0.elementsEqual(iso) } }
            } else {
                same = lookup.isNull(at: 6)
            }
            if !same { changedColumns.append(("updated_date", values.updatedDate.map { .text($0.isoText) } ?? .null)) }
        }
        if let index = layout.acquirer {
            let same = CSVFieldText.withText(record, index) { text in
                text.isEmpty ? lookup.isNull(at: 7) : !lookup.isNull(at: 7) && lookup.withUTF8(at: 7) { $0.elementsEqual(text) }
            }
            if !same {
                let text = CSVFieldText.text(record, index)
                changedColumns.append(("acquiring_institution", text.isEmpty ? .null : .text(text)))
            }
        }
        if layout.fund != nil {
            let same = values.fund.map { !lookup.isNull(at: 8) && lookup.int64(at: 8) == $0 } ?? lookup.isNull(at: 8)
            if !same { changedColumns.append(("fund", values.fund.map { .integer($0) } ?? .null)) }
        }
        lookup.reset()

        guard infoChanged || !changedColumns.isEmpty else { return .unchanged }
        if infoChanged {
            if let infoID {
                let update = updateInfoStatement
                try bindInfo(update, record)
                try update.bind(infoID, at: 4)
                _ = try update.step()
                update.reset()
            } else {
                // Details without info (its info was removed by hand): give it one again.
                changedColumns.append(("info_id", .integer(try insertInfo(record))))
            }
        }
        if !changedColumns.isEmpty {
            let assignments = changedColumns.map { "\($0.0) = ?" }.joined(separator: ", ")
            try database.run("UPDATE failed_bank_details SET \(assignments) WHERE id = ?",
                             changedColumns.map(\.1) + [.integer(detailsID)])
        }
        return .updated
    }

    private func bindInfo(_ statement: Statement, _ record: CSVRecord) throws {
        try CSVFieldText.withText(record, layout.name) { try statement.bind(utf8: $0, at: 1) }
        try CSVFieldText.withText(record, layout.city) { try statement.bind(utf8: $0, at: 2) }
        try CSVFieldText.withText(record, layout.state) { try statement.bind(utf8: $0, at: 3) }
    }

    private func insertInfo(_ record: CSVRecord) throws -> Int64 {
        let insert = insertInfoStatement
        try bindInfo(insert, record)
        _ = try insert.step()
        insert.reset()
        return database.lastInsertRowID
    }

    private func insert(_ record: CSVRecord, _ values: BankRowLayout.Values) throws {
        let infoID = try insertInfo(record)
        let insert = insertDetailsStatement
        try insert.bind(infoID, at: 1)
        try values.closeDate.withISOBytes { try insert.bind(utf8: $0, at: 2) }
        if let updated = values.updatedDate { try updated.withISOBytes { try insert.bind(utf8: $0, at: 3) } }
        try insert.bind(values.cert, at: 4)
        if let index = layout.acquirer {
            try CSVFieldText.withText(record, index) { text in
                if !text.isEmpty { try insert.bind(utf8: text, at: 5) }
            }
        }
        if let fund = values.fund { try insert.bind(fund, at: 6) }
        _ = try insert.step()
        insert.reset()
    }
}
