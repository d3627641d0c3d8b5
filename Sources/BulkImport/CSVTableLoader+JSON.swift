import CSVImport
import Foundation
import SQLiteStore

extension CSVTableLoader {
    /// How the source's records are laid out when it is JSON (JSON Lines, or an array of objects),
    /// told by its first bytes (`JSONRecordReader/layout(of:)`); nil for a CSV file.
    ///
    /// - Throws: ``EntityImportError/unreadable(path:_:)`` when the file cannot be read.
    public func sourceLayout() throws -> JSONRecordReader.Layout? {
        let fd = open(source, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw EntityImportError.unreadable(path: source, .cannotOpen(path: source, code: errno)) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw EntityImportError.unreadable(path: source, .readFailed(path: source, code: errno)) }
            if n == 0 { break }
            count += n
        }
        return JSONRecordReader.layout(of: bytes[..<count])
    }

    /// Loads the JSON file into a new database at `path`: its objects as rows, its keys as
    /// columns (``JSONRowProducer``), again without rewriting the dates of a column that turns
    /// out to hold other text too.
    func loadJSON(into path: String, started: Double, endOffset: Int64?) throws -> Loaded {
        var convertsDates: [Bool]?
        while true {
            let (loaded, rewrittenNonDates) = try loadJSONRows(
                convertsDates: convertsDates,
                into: path,
                started: started,
                endOffset: endOffset
            )
            if rewrittenNonDates.isEmpty { return loaded }
            var again = convertsDates ?? Array(repeating: true, count: loaded.names.count)
            while again.count < loaded.names.count { again.append(true) }
            for column in rewrittenNonDates { again[column] = false }
            convertsDates = again
        }
    }

    /// One pass over the JSON file: the rows written as they are read, a column added
    /// (`ALTER TABLE … ADD COLUMN`) when a batch brings a key for the first time.
    private func loadJSONRows(
        convertsDates: [Bool]?,
        into path: String,
        started: Double,
        endOffset: Int64?
    ) throws -> (Loaded, rewrittenNonDates: [Int]) {
        let db = try newDatabase(at: path)
        let table = tableName
        let reader: JSONRecordReader
        do { reader = try JSONRecordReader(path: source, endOffset: endOffset) } catch let error as CSVError {
            throw EntityImportError.unreadable(path: source, error)
        }
        let producer = JSONRowProducer(
            reader: reader,
            path: source,
            convertsDates: convertsDates,
            missingValues: Set(options.missingValues),
            progress: progress,
            started: started
        ) { [self] in isCancelled }
        var loaded = Loaded(names: [], types: [], rows: 0)
        loaded.isJSON = true
        var rewrittenNonDates: [Int] = []
        do {
            try db.transaction {
                var schema: CSVTableSchema?
                var writer: MultiRowInsertWriter?
                var previewPending = firstRows != nil
                var emptyRows = 0
                try TwoThreadLoad.run(
                    produce: { (pipe: BatchPipe<JSONRowBatch>) in try producer.fill(pipe) },
                    consume: { batch in
                        if isCancelled { throw CancellationError() }
                        guard !batch.columnNames.isEmpty else {
                            // `{}` before any key: rows of NULLs once the table has columns.
                            emptyRows += batch.rows.rowCount
                            return
                        }
                        if batch.columnNames.count != schema?.columns.count {
                            schema = try widen(schema, to: batch.columnNames, in: db, table: table)
                            writer = try MultiRowInsertWriter(database: db, table: table, columns: batch.columnNames)
                        }
                        for _ in 0..<emptyRows {
                            try db.execute("INSERT INTO \(Database.quote(identifier: table)) DEFAULT VALUES")
                            loaded.rows += 1
                        }
                        emptyRows = 0
                        try writer?.write(batch.rows)
                        loaded.rows += batch.rows.rowCount
                        if previewPending {
                            previewPending = false
                            firstRows?(preview(batch.rows, names: batch.columnNames, dialect: CSVDialect()))
                        }
                    }
                )
                if isCancelled { throw CancellationError() }
                guard let schema, producer.rowCount > 0 else {
                    let reason = producer.rowCount == 0 ? "no objects: nothing to show" : "the objects have no keys"
                    throw EntityImportError.malformed(path: source, line: 1, reason: reason)
                }
                loaded.names = schema.columns
                loaded.types = producer.inference.types
                loaded.endLine = reader.currentLine  // where appended lines start
                rewrittenNonDates = producer.columnsWithRewrittenNonDates
                if !rewrittenNonDates.isEmpty { return }  // loaded again: no schema to finish
                loaded.mixedEncodingLine = producer.mixedEncodingLine
                loaded.undecidedColumns = schema.columns.indices.filter { producer.inference.seenTypes[$0] == nil }
                    .map { schema.columns[$0] }
                try finish(schema, inference: producer.inference, mixedEncodingLine: loaded.mixedEncodingLine)
            }
        } catch let error as JSONError {
            throw EntityImportError.malformedJSON(
                path: source,
                line: error.line,
                column: error.column,
                reason: error.reason
            )
        } catch let error as EntityImportError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch let error as CSVError {
            throw EntityImportError.reading(source, error)
        } catch {
            if isCancelled { throw CancellationError() }
            throw EntityImportError.store(path: path, error)
        }
        if firstRows != nil && loaded.rows == 0 {
            firstRows?(Preview(columns: loaded.names, rows: [], dialect: CSVDialect()))
        }
        return (loaded, rewrittenNonDates)
    }

    /// The table with `names` as its columns: created with them, or the new ones added to `schema`'s.
    private func widen(
        _ schema: CSVTableSchema?,
        to names: [String],
        in db: Database,
        table: String
    ) throws -> CSVTableSchema {
        guard let schema else { return try CSVTableSchema(database: db, table: table, columns: names) }
        for name in names[schema.columns.count...] {
            try db.execute(
                "ALTER TABLE \(Database.quote(identifier: table)) ADD COLUMN \(Database.quote(identifier: name))"
            )
        }
        return CSVTableSchema(existing: db, table: table, columns: names)
    }
}
