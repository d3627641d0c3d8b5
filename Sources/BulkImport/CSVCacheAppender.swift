import CSVImport
import Foundation
import SQLiteStore

/// Completes a CSV or JSON Lines file's cache with the rows appended to the file since it was
/// loaded (a log that grows), in place and in one transaction: the rows a reader of the cache sees
/// come as inserts (with the cache's tracking, its history says which).
///
/// The file must still begin with the bytes loaded (``CSVCacheState/loadedLength``, whose
/// content check it must match); the rows after them are read up to the size the
/// ``CSVCacheLocation`` found, each value converted to its column's type as the load would
/// have typed it. A last row read without its line end is read again. The cache is built
/// anew instead (``append()`` returns nil) when the file was rewritten otherwise, or when an
/// appended value is not of its column's type (text in a column of numbers, a number written
/// otherwise in a real column without its companion, a value in a column that had none):
/// the load would have typed the column otherwise. A bad row (another number of fields) is
/// refused or skipped as the loader's ``ImportOptions`` say.
///
///     if let table = try CSVCacheAppender(loader: loader, location: location).append() {
///         table.appendedRowCount   // 12
///     }
struct CSVCacheAppender {
    let loader: CSVTableLoader
    let location: CSVCacheLocation

    /// A value appended is not of its column's type (or the file is not the one loaded): build anew.
    struct NeedsRebuild: Error {}

    /// One column of the cache: its name, its type, and whether it has a companion of values
    /// as written (``CSVTable/writtenFormColumn(of:)``).
    struct Column {
        var name: String
        var type: CSVColumnType
        var hasCompanion: Bool
        var isUndecided: Bool
    }

    /// The rows appended since the load written into the cache: the table as it is now; nil when
    /// the cache must be built anew (see the type's summary).
    ///
    /// - Throws: ``EntityImportError`` for bad rows (the all-or-nothing mode), a file that cannot
    ///   be read, a cache that cannot be written.
    func append() throws -> CSVTable? {
        let path = location.databasePath
        var options = Database.Options()
        options.walMode = false
        options.create = false
        guard let db = try? Database(path: path, options: options) else { return nil }
        var appended = 0
        do {
            try db.transaction {
                // Read again under the write lock: another process may have completed it meanwhile.
                guard let state = try CSVCacheState.read(from: db) else { throw NeedsRebuild() }
                if state.describes(location) { return }
                guard state.mayBeAppendedTo(location),
                    try CSVCacheLocation.contentCheck(path: loader.source, size: state.loadedLength)
                        == state.loadedCheck
                else { throw NeedsRebuild() }
                appended =
                    state.isJSON ? try appendJSONLines(after: state, into: db) : try appendRows(after: state, into: db)
            }
        } catch is NeedsRebuild {
            return nil
        } catch let error as EntityImportError {
            throw error
        } catch let error as CSVError {
            throw EntityImportError.reading(loader.source, error)
        } catch {
            throw EntityImportError.store(path: path, error)
        }
        do {
            var table = try CSVTable.read(databasePath: path, tableName: loader.tableName)
            table.appendedRowCount = appended
            return table
        } catch {
            return nil
        }
    }

    /// Reads the rows after the loaded prefix, writes them and the new state; returns how many
    /// rows it added (the open row read again not counted).
    private func appendRows(after state: CSVCacheState, into db: Database) throws -> Int {
        let table = loader.tableName
        let columns = try describe(table, in: db, undecided: Set(state.undecidedColumns))
        let reader = try CSVReader(
            path: loader.source,
            delimiter: state.delimiter,
            startOffset: state.loadedLength,
            endOffset: location.sourceSize,
            firstLine: state.loadedLine
        )
        let rows = ImportRows(path: loader.source, reader: reader, options: loader.options.importOptions, progress: nil)
        if let open = state.openRowID {
            try db.run("DELETE FROM \(Database.quote(identifier: table)) WHERE rowid = ?", [.integer(open)])
        }
        let names = columns.map(\.name) + columns.filter(\.hasCompanion).map { CSVTable.writtenFormColumn(of: $0.name) }
        let writer = try MultiRowInsertWriter(database: db, table: table, columns: names)
        let missing = loader.options.missingValues.map { Array($0.utf8) }
        let batch = BulkRowBatch(capacity: 1024)
        var lastRecord: (offset: Int64, line: Int)?
        var lastWritten = false
        try rows.readEach { record in
            lastRecord = (record.offset, record.line)
            lastWritten = false
            guard record.count == columns.count else {
                rows.addIssue(
                    RowProblem(reason: "expected \(columns.count) fields, found \(record.count)"),
                    line: record.line
                )
                return
            }
            if rows.mustAbort { return }
            try add(record, columns: columns, missing: missing, to: batch)
            lastWritten = true
            if batch.isFull {
                try writer.write(batch)
                batch.removeAll()
            }
        }
        if !batch.isEmpty { try writer.write(batch) }
        if rows.mustAbort {
            throw EntityImportError.badRows(path: loader.source, issues: rows.issues, total: rows.badRowCount)
        }
        let lastRowID = try db.scalar("SELECT max(rowid) FROM \(Database.quote(identifier: table))").int64
        let next = try CSVCacheState.of(
            location,
            endsWithLineBreak: CSVCacheLocation.endsWithLineBreak(path: loader.source, size: location.sourceSize),
            endLine: reader.currentLine,
            lastRecord: lastRecord ?? (state.loadedLength, state.loadedLine),
            lastRowID: lastWritten ? lastRowID : nil,
            delimiter: state.delimiter,
            isJSON: false,
            undecidedColumns: state.undecidedColumns
        )
        try next.write(to: db)
        return writer.count - (state.openRowID == nil ? 0 : 1)
    }

    /// The table's columns as the cache declares them.
    func describe(_ table: String, in db: Database, undecided: Set<String>) throws -> [Column] {
        let rows = try db.query("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
        let names = rows.compactMap { $0[0].string }
        let companions = Set(names.compactMap(CSVTable.column(ofWrittenForm:)))
        return rows.compactMap { row in
            guard let name = row[0].string, CSVTable.column(ofWrittenForm: name) == nil else { return nil }
            return Column(
                name: name,
                type: CSVTableSchema.columnType(declared: row[1].string ?? ""),
                hasCompanion: companions.contains(name),
                isUndecided: undecided.contains(name)
            )
        }
    }

    /// Adds one row: each field as its column's type holds it (then the companions' values).
    private func add(_ record: CSVRecord, columns: [Column], missing: [[UInt8]], to batch: BulkRowBatch) throws {
        var keepsWrittenForm: [Bool] = []
        for (index, column) in columns.enumerated() {
            try record.withUnsafeBytes(at: index) { raw in
                let keeps = try add(raw, column: column, missing: missing, to: batch)
                if column.hasCompanion { keepsWrittenForm.append(keeps) }
            }
        }
        // The companions' values: the fields as written.
        var companion = 0
        for (index, column) in columns.enumerated() where column.hasCompanion {
            if keepsWrittenForm[companion] {
                record.withUnsafeBytes(at: index) { batch.append(utf8: $0) }
            } else {
                batch.appendNull()
            }
            companion += 1
        }
        batch.endRow(line: record.line)
    }

    /// Appends one field as `column` holds it; returns whether its companion keeps it as written
    /// (a real written otherwise than it reads back). Throws ``NeedsRebuild`` for a value
    /// the column's type does not hold.
    private func add(
        _ raw: UnsafeRawBufferPointer,
        column: Column,
        missing: [[UInt8]],
        to batch: BulkRowBatch
    ) throws -> Bool {
        if addEmptyOrMissing(raw, column: column, missing: missing, to: batch) { return false }
        let value = CSVFieldValue.classify(raw)
        switch (column.type, value) {
        case (.integer, .integer(let n)):
            batch.append(n)
        case (.real, .real(let x, exact: true)):
            batch.append(x)
        case (.real, .real(let x, exact: false)) where column.hasCompanion:
            batch.append(x)
            return true
        case (.real, .integer(let n)) where column.hasCompanion:
            batch.append(Double(n))
            return true
        default:
            try addDateOrText(raw, classified: value, column: column, to: batch)
        }
        return false
    }

    /// Appends an empty field (NULL) or a missing-value token (text in a text column, NULL
    /// elsewhere); returns whether `raw` was one of them.
    func addEmptyOrMissing(
        _ raw: UnsafeRawBufferPointer,
        column: Column,
        missing: [[UInt8]],
        to batch: BulkRowBatch
    ) -> Bool {
        if raw.isEmpty {
            batch.appendNull()
            return true
        }
        guard missing.contains(where: { $0.count == raw.count && $0.elementsEqual(raw) }) else { return false }
        if column.type == .text {
            batch.append(utf8: raw)
        } else {
            batch.appendNull()
        }
        return true
    }

    /// Appends a value to a column of dates or of text as the cache holds it (a day written
    /// otherwise as its ISO form; text that is not UTF-8 decoded from Windows-1252). Throws
    /// ``NeedsRebuild`` for a value the column's type does not hold.
    func addDateOrText(
        _ raw: UnsafeRawBufferPointer,
        classified value: CSVFieldValue,
        column: Column,
        to batch: BulkRowBatch
    ) throws {
        switch (column.type, value) {
        case (.date, .date), (.dateTime, .date), (.dateTime, .dateTime):
            batch.append(utf8: raw)
        case (.date, .text):
            guard let day = CalendarDay.parse(bytes: raw) else { throw NeedsRebuild() }
            day.withISOBytes { batch.append(utf8: $0) }
        case (.text, _) where !column.isUndecided:
            if CSVTextDecoding.isASCII(raw) || CSVTextDecoding.isValidUTF8(raw) {
                batch.append(utf8: raw)
            } else {
                var decoded = CSVTextDecoding.windows1252(raw)
                decoded.withUTF8 { batch.append(utf8: UnsafeRawBufferPointer($0)) }
            }
        default:
            throw NeedsRebuild()
        }
    }
}
