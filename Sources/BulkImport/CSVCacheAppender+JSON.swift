import CSVImport
import Foundation
import SQLiteStore

/// The objects appended to a JSON Lines file (a log that grows), read into its cache as its load
/// would have read them: whole lines only (a last line still being written is read when its line
/// break comes), each key to the column of its name, each value as its column's type holds it.
/// A key the cache has no column for, a value its column's type does not hold (text in a column
/// of numbers, a number in a column of booleans, a value in a column that had none), or a file
/// that is a JSON array (which cannot grow by appending) means building the cache anew.
extension CSVCacheAppender {
    /// Reads the objects after the loaded prefix up to the last line break, writes them and the new
    /// state; returns how many rows it added.
    func appendJSONLines(after state: CSVCacheState, into db: Database) throws -> Int {
        guard try loader.sourceLayout() == .lines else { throw NeedsRebuild() }
        let end = try CSVCacheAppender.lastLineEnd(
            path: loader.source,
            from: state.loadedLength,
            to: location.sourceSize
        )
        let table = loader.tableName
        let columns = try describe(table, in: db, undecided: Set(state.undecidedColumns))
        var written = 0
        var line = state.loadedLine
        if end > state.loadedLength {
            let reader = try JSONRecordReader(
                path: loader.source,
                startOffset: state.loadedLength,
                firstLine: state.loadedLine,
                endOffset: end
            )
            let position = Dictionary(
                columns.enumerated().map { ($1.name, $0) },
                uniquingKeysWith: { first, _ in first }
            )
            let names =
                columns.map(\.name) + columns.filter(\.hasCompanion).map { CSVTable.writtenFormColumn(of: $0.name) }
            let writer = try MultiRowInsertWriter(database: db, table: table, columns: names)
            let missing = loader.options.missingValues.map { Array($0.utf8) }
            let batch = BulkRowBatch(capacity: 1024)
            var record = JSONRecord()
            /// Per column: its member in the current record (-1: absent).
            var members = [Int](repeating: -1, count: columns.count)
            do {
                while try reader.read(into: &record) {
                    for column in members.indices { members[column] = -1 }
                    for member in 0..<record.count {
                        guard let column = position[reader.keys[record.keyIndex(at: member)]] else {
                            throw NeedsRebuild()  // a key the load did not see: a column to add
                        }
                        members[column] = member  // the last one wins, as when loading
                    }
                    try add(record, members: members, columns: columns, missing: missing, to: batch)
                    if batch.isFull {
                        try writer.write(batch)
                        batch.removeAll()
                    }
                }
            } catch let error as JSONError {
                throw EntityImportError.malformedJSON(
                    path: loader.source,
                    line: error.line,
                    column: error.column,
                    reason: error.reason
                )
            }
            if !batch.isEmpty { try writer.write(batch) }
            written = writer.count
            line = reader.currentLine
        }
        var next = try CSVCacheState.of(
            location,
            endsWithLineBreak: true,
            endLine: line,
            lastRecord: nil,
            lastRowID: nil,
            delimiter: state.delimiter,
            isJSON: true,
            undecidedColumns: state.undecidedColumns
        )
        // Loaded up to the last line break: the rest of a line being written is read when it is whole.
        next.loadedLength = end
        next.loadedCheck = try CSVCacheLocation.contentCheck(path: loader.source, size: end)
        next.loadedLine = line
        try next.write(to: db)
        return written
    }

    /// The offset after the last line feed of the file at `path` between `start` and `end`
    /// (`start` when there is none: no whole line was appended).
    static func lastLineEnd(path: String, from start: Int64, to end: Int64) throws -> Int64 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CSVError.cannotOpen(path: path, code: errno) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var upper = end
        while upper > start {
            let lower = max(start, upper - Int64(buffer.count))
            let length = Int(upper - lower)
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, length, off_t(lower)) }
            guard n == length else { throw CSVError.readFailed(path: path, code: n < 0 ? errno : EIO) }
            if let last = buffer[..<length].lastIndex(of: 0x0A) { return lower + Int64(last) + 1 }
            upper = lower
        }
        return start
    }

    /// Adds one object: each column's member as the column holds it (NULL when absent), then the
    /// companions' values.
    private func add(
        _ record: JSONRecord,
        members: [Int],
        columns: [Column],
        missing: [[UInt8]],
        to batch: BulkRowBatch
    ) throws {
        var writtenForms: [[UInt8]?] = []
        for (index, column) in columns.enumerated() {
            let written = try add(record, member: members[index], column: column, missing: missing, to: batch)
            if column.hasCompanion { writtenForms.append(written) }
        }
        for form in writtenForms {
            if let form {
                form.withUnsafeBytes { batch.append(utf8: $0) }
            } else {
                batch.appendNull()
            }
        }
        batch.endRow(line: record.line)
    }

    /// Appends member `member` of `record` (-1: absent) as `column` holds it; returns the value as
    /// written when its companion keeps it (a real written otherwise than it reads back). Throws
    /// ``NeedsRebuild`` for a value the column's type does not hold.
    private func add(
        _ record: JSONRecord,
        member: Int,
        column: Column,
        missing: [[UInt8]],
        to batch: BulkRowBatch
    ) throws -> [UInt8]? {
        guard member >= 0 else {
            batch.appendNull()
            return nil
        }
        let kind = record.kind(at: member)
        switch (kind, column.type) {
        case (.null, _):
            batch.appendNull()
            return nil
        case (.true, .boolean), (.false, .boolean):
            batch.append(Int64(kind == .true ? 1 : 0))
            return nil
        case (.true, .text), (.false, .text):
            guard !column.isUndecided else { throw NeedsRebuild() }
            let text: StaticString = kind == .true ? "true" : "false"
            batch.append(utf8: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            return nil
        case (.nested, .text):
            guard !column.isUndecided else { throw NeedsRebuild() }
            record.withUnsafeBytes(at: member) { batch.append(utf8: $0) }
            return nil
        case (.number, _):
            return try record.withUnsafeBytes(at: member) { raw in try addNumber(raw, column: column, to: batch) }
        case (.string, _):
            try record.withUnsafeBytes(at: member) { raw in
                try addString(raw, column: column, missing: missing, to: batch)
            }
            return nil
        default:
            throw NeedsRebuild()
        }
    }

    /// A number as its column holds it (see ``add(_:member:column:missing:to:)``).
    private func addNumber(_ raw: UnsafeRawBufferPointer, column: Column, to batch: BulkRowBatch) throws -> [UInt8]? {
        switch (column.type, CSVFieldValue.classify(raw)) {
        case (.integer, .integer(let n)):
            batch.append(n)
        case (.real, .real(let x, exact: true)):
            batch.append(x)
        case (.real, .real(let x, exact: false)) where column.hasCompanion:
            batch.append(x)
            return Array(raw)
        case (.real, .integer(let n)) where column.hasCompanion:
            batch.append(Double(n))
            return Array(raw)
        case (.text, _) where !column.isUndecided:
            batch.append(utf8: raw)
        default:
            throw NeedsRebuild()
        }
        return nil
    }

    /// A string as its column holds it: NULL when empty, a missing-value token as text in a text
    /// column (NULL elsewhere), a date in a column of dates, text in a column of text.
    private func addString(
        _ raw: UnsafeRawBufferPointer,
        column: Column,
        missing: [[UInt8]],
        to batch: BulkRowBatch
    ) throws {
        if addEmptyOrMissing(raw, column: column, missing: missing, to: batch) { return }
        try addDateOrText(raw, classified: CSVFieldValue.classify(raw), column: column, to: batch)
    }
}
