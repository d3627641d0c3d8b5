import CSVImport
import SQLiteStore
import Timekeeping

/// Imports CSV files into one entity's table through an ``EntityMapping``.
///
/// Rows are matched by the mapping's key: a new key inserts a row, a known
/// one updates only the columns whose value differs, an identical row is not
/// written, so re-importing a file writes nothing (and records no history).
/// One file is one transaction, all-or-nothing by default: any bad row (wrong
/// number of fields, a value its parser refuses, a missing required value, a
/// failed row check, a key repeated within the file) aborts the file with
/// ``EntityImportError/badRows(path:issues:total:)`` naming each as
/// `FILE:LINE: reason (column "…", value "…")`; with
/// ``ImportOptions/skipBadRows`` the good rows are imported and the bad ones
/// listed in the summary. Into an empty table the rows go through
/// `EmptyStoreLoad` (one bulk write, indexes built after the load).
///
///     let importer = EntityImporter(store: store, mapping: mapping)
///     let summary = try importer.importFile("students.csv")
///     print(summary.summaryLine)  // imported 3 rows from students.csv: 3 added, 0 updated, 0 unchanged, 0 skipped in 0.01 s
public final class EntityImporter {
    /// The store written.
    public let store: Store
    /// The columns and the table.
    public let mapping: EntityMapping

    /// An importer of `mapping`'s files into `store` (its connection is used from this thread).
    public init(store: Store, mapping: EntityMapping) {
        self.store = store
        self.mapping = mapping
    }

    private enum Abort: Error { case badRows, nothingToWrite }

    /// Imports one file; see the type's summary. `displayName` names the file in messages instead of `path`.
    public func importFile(
        _ path: String,
        displayName: String? = nil,
        options: ImportOptions = ImportOptions(),
        progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportSummary {
        let started = MonotonicClock.seconds()
        let name = displayName ?? path
        let reader: CSVReader
        do { reader = try CSVReader(path: path) } catch let error as CSVError {
            throw EntityImportError.unreadable(path: name, error)
        }
        var header = CSVRecord()
        do {
            guard try reader.read(into: &header) else { throw EntityImportError.emptyFile(path: name) }
        } catch let error as CSVError {
            throw EntityImportError.reading(name, error)
        }
        let map: CSVHeaderMap
        do {
            map = try CSVHeaderMap(header: header.fields, columns: mapping.fields.map(\.column))
        } catch CSVError.missingColumns(let names, let found) {
            throw EntityImportError.missingColumns(path: name, names: names, header: found)
        }
        // The fields the file has, with their field index.
        let present = mapping.fields.compactMap { field in map.index(of: field.column.name).map { (field, $0) } }
        guard let keyField = mapping.fields.first(where: { $0.attribute == mapping.key }),
            present.contains(where: { $0.0.attribute == mapping.key })
        else {
            throw EntityImportError.missingColumns(
                path: name,
                names: [mapping.fields.first { $0.attribute == mapping.key }?.column.name ?? mapping.key],
                header: header.fields
            )
        }
        let rows = ImportRows(path: name, reader: reader, options: options, progress: progress, started: started)
        let checker = RowChecker(mapping: mapping, present: present, fieldCount: header.count, keyField: keyField)

        do {
            let bulk = try EmptyStoreLoad.run(
                store: store,
                tables: [mapping.table],
                allowJournalSwitch: options.allowJournalSwitch
            ) { db in
                let writer = try EntityUpsertWriter(
                    database: db,
                    table: mapping.table,
                    key: mapping.key,
                    attributes: present.map(\.0.attribute)
                )
                try write(rows, checker, writer)
            }
            if bulk {
                rows.summary.usedBulkLoad = true
            } else {
                try UpsertTransaction.run(store: store, bulk: false) { db in
                    let writer = try EntityUpsertWriter(
                        database: db,
                        table: mapping.table,
                        key: mapping.key,
                        attributes: present.map(\.0.attribute)
                    )
                    try write(rows, checker, writer)
                }
            }
        } catch let error as EntityImportError {
            throw error
        } catch Abort.badRows {
            throw EntityImportError.badRows(path: name, issues: rows.issues, total: rows.badRowCount)
        } catch Abort.nothingToWrite {
            // Every row was already there: nothing written.
        } catch {
            throw EntityImportError.store(path: name, error)
        }
        var summary = rows.summary
        summary.issues = rows.issues
        summary.skipped = rows.badRowCount
        summary.seconds = MonotonicClock.seconds() - started
        return summary
    }

    private func write(_ rows: ImportRows, _ checker: RowChecker, _ writer: EntityUpsertWriter) throws {
        var keys: Set<StoreValue> = []
        rows.summary.added = 0
        rows.summary.updated = 0
        rows.summary.unchanged = 0
        do {
            try rows.readEach { record in
                switch checker.check(record) {
                case .failure(let problem):
                    rows.addIssue(problem, line: record.line)
                case .success(let values):
                    guard keys.insert(values[checker.keyIndex]).inserted else {
                        rows.addIssue(
                            RowProblem(
                                reason: "duplicate \(checker.keyField.column.name.lowercased())",
                                column: checker.keyField.column.name,
                                value: CSVFieldText.text(record, checker.present[checker.keyIndex].1)
                            ),
                            line: record.line
                        )
                        return
                    }
                    guard !rows.mustAbort else { return }
                    switch try writer.apply(values) {
                    case .added: rows.summary.added += 1
                    case .updated: rows.summary.updated += 1
                    case .unchanged: rows.summary.unchanged += 1
                    }
                }
            }
        } catch let error as CSVError {
            throw EntityImportError.reading(rows.path, error)
        }
        if rows.mustAbort || (rows.badRowCount > 0 && rows.summary.rows == 0) { throw Abort.badRows }
        // Nothing changed: roll back, so that no history (or reset) is recorded.
        if !rows.summary.changedStore { throw Abort.nothingToWrite }
    }
}

/// Checks one row against the fields a file has: its field count, each value's parser, required values,
/// the mapping's row check.
struct RowChecker {
    let mapping: EntityMapping
    let present: [(ImportField, Int)]
    let fieldCount: Int
    let keyField: ImportField
    let keyIndex: Int

    init(mapping: EntityMapping, present: [(ImportField, Int)], fieldCount: Int, keyField: ImportField) {
        self.mapping = mapping
        self.present = present
        self.fieldCount = fieldCount
        self.keyField = keyField
        keyIndex = present.firstIndex { $0.0.attribute == mapping.key }!
    }

    /// The row's values, in the order of `present`, or what is wrong with it.
    func check(_ record: CSVRecord) -> Result<[StoreValue], RowProblem> {
        guard record.count == fieldCount else {
            return .failure(RowProblem(reason: "expected \(fieldCount) fields, found \(record.count)"))
        }
        var values: [StoreValue] = []
        values.reserveCapacity(present.count)
        for (offset, (field, index)) in present.enumerated() {
            let text = CSVFieldText.text(record, index)
            if text.isEmpty {
                if field.requiresValue || offset == keyIndex {
                    return .failure(
                        RowProblem(
                            reason: "missing \(field.column.name.lowercased())",
                            column: field.column.name,
                            value: text
                        )
                    )
                }
                values.append(.null)
                continue
            }
            do {
                values.append(try field.parse(text))
            } catch let invalid as ImportField.InvalidValue {
                return .failure(RowProblem(reason: invalid.reason, column: field.column.name, value: text))
            } catch {
                return .failure(RowProblem(reason: "\(error)", column: field.column.name, value: text))
            }
        }
        if let rowCheck = mapping.rowCheck {
            var byAttribute: [String: StoreValue] = [:]
            for (offset, (field, _)) in present.enumerated() { byAttribute[field.attribute] = values[offset] }
            if let problem = rowCheck(byAttribute) { return .failure(problem) }
        }
        return .success(values)
    }
}
