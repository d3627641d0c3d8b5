import Foundation
import Glibc
import SQLiteStore

/// Rows as a list shows them — these objects in this order, these columns — saved to a file:
/// CSV, TSV, JSON Lines, or a new table in a SQLite database (``ExportFormat``).
///
/// The export is a snapshot taken on the list's thread (the row ids in order, the sections'
/// names and sizes); ``write(to:format:replacing:progress:isCancelled:)`` then runs on any
/// thread: it reads the columns' values from the store's file on a connection of its own, a
/// batch of ids at a time (a million rows never sit in memory), and writes them. A file is
/// written whole or not at all — into a temporary file renamed over the name when complete, or
/// for a table added to an existing database in one transaction — so a failure, or a save
/// cancelled, leaves the file as it was. It never replaces a file or a table unless told
/// (``replaced(at:format:)`` says what would be: the caller asks the person first).
///
/// Values are written as stored: numbers as numbers, dates as their ISO text, booleans as
/// `true`/`false` (`1`/`0` in SQLite), NULL as an empty field in CSV and TSV (which cannot tell
/// it from empty text; JSON Lines and SQLite can), blobs as hexadecimal digits in text formats.
/// With ``sectionColumn`` the first column holds each row's section's name.
///
///     var export = ViewExport(databasePath: store.path, model: store.model, entity: "Book",
///                             columns: [.init(name: "Title", keyPath: "title"), .init(name: "Year", keyPath: "year")],
///                             rowIDs: controller.fetchedObjects.rowIDs)
///     let written = try export.write(to: "books.csv", format: .csv)   // 1204
public struct ViewExport: Sendable {
    /// One column saved: its name (the header, the JSON key, the table's column) and the key path of its value.
    public struct Column: Sendable, Equatable {
        /// The column's name in the file.
        public var name: String
        /// The key path of its value (an attribute, one through a to-one relationship, a derived one).
        public var keyPath: String

        /// A column `name` of the values at `keyPath` (default: the name).
        public init(name: String, keyPath: String? = nil) {
            self.name = name
            self.keyPath = keyPath ?? name
        }
    }

    /// A section of the rows: its name and how many rows it has (they follow each other in ``rowIDs``).
    public struct Section: Sendable, Equatable {
        /// The section's name (its header's title).
        public var name: String
        /// Its rows.
        public var count: Int

        /// A section `name` of `count` rows.
        public init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    /// What saving would replace.
    public enum Replaced: Equatable, Sendable {
        /// The file (any file at the path; for SQLite, one that is not a database).
        case file
        /// A table of that name in the SQLite database at the path.
        case table(String)
    }

    /// The store's file, read on a connection of the export's own.
    public let databasePath: String
    /// The store's model (the columns' key paths are read through it).
    public let model: Model
    /// The entity of the rows.
    public let entity: String
    /// The columns saved, in order.
    public var columns: [Column]
    /// The rows' ids, in the order shown.
    public var rowIDs: [Int64]
    /// The sections the rows are in, in order (their counts add up to the rows); empty: none.
    public var sections: [Section] = []
    /// The name of a first column holding each row's section's name; nil (the default) drops the sections.
    public var sectionColumn: String?
    /// The table made in a SQLite file (default: the entity's table's name).
    public var tableName: String
    /// Ids read at a time.
    package var batchSize = 2000

    /// An export of `rowIDs` of `entity` in the store at `databasePath` with `model`, in `columns`.
    public init(databasePath: String, model: Model, entity: String, columns: [Column], rowIDs: [Int64]) {
        self.databasePath = databasePath
        self.model = model
        self.entity = entity
        self.columns = columns
        self.rowIDs = rowIDs
        tableName = model.entity(named: entity)?.tableName ?? entity
    }

    /// What writing `format` to `path` would replace, nil when nothing: an existing file (text
    /// formats), an existing table of ``tableName`` in a SQLite database, or a file that is not one.
    public func replaced(at path: String, format: ExportFormat) -> Replaced? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard format == .sqlite else { return .file }
        guard let db = try? ViewExport.openDatabase(path, readOnly: true),
            (try? db.scalar("SELECT count(*) FROM sqlite_master")) != nil
        else { return .file }
        let exists = try? db.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND lower(name) = lower(?)",
            [.text(tableName)]
        )
        return exists?.int64 == 0 ? nil : .table(tableName)
    }

    /// Writes the rows to `path` in `format`, replacing what ``replaced(at:format:)`` says only
    /// when `replacing` says the same (else it throws ``ViewExportError/exists(path:_:)``). Calls
    /// `progress` with the rows written so far after each batch, and stops — leaving nothing
    /// written — when `isCancelled` says so. Returns how many rows were written (rows deleted
    /// since the snapshot are left out).
    ///
    /// - Throws: ``ViewExportError``; the store's error reading the rows.
    @discardableResult
    public func write(
        to path: String,
        format: ExportFormat,
        replacing: Replaced? = nil,
        progress: (Int) -> Void = { _ in },
        isCancelled: () -> Bool = { false }
    ) throws -> Int {
        let existing = replaced(at: path, format: format)
        if let existing, existing != replacing { throw ViewExportError.exists(path: path, existing) }
        let source = try ViewExport.openDatabase(databasePath, readOnly: true)
        let reader = try ObjectValuesReader(model: model, entity: entity, keyPaths: columns.map(\.keyPath))
        return try withoutActuallyEscaping(progress) { progress in
            try withoutActuallyEscaping(isCancelled) { isCancelled in
                let rows = RowStream(
                    export: self,
                    reader: reader,
                    database: source,
                    progress: progress,
                    isCancelled: isCancelled
                )
                switch format {
                case .csv, .tsv, .jsonLines:
                    let output = try AtomicFileOutput(path: path)
                    defer { output.abandon() }
                    let written = try writeText(rows, format: format, types: reader.types, to: output)
                    try output.commit()
                    return written
                case .sqlite:
                    return try writeTable(rows, types: reader.types, to: path, replacing: existing)
                }
            }
        }
    }

    /// The names of the file's columns: the section column, then the columns'.
    var columnNames: [String] { (sectionColumn.map { [$0] } ?? []) + columns.map(\.name) }

    /// Writes CSV, TSV or JSON Lines to `output`.
    private func writeText(
        _ rows: RowStream,
        format: ExportFormat,
        types: [AttributeType],
        to output: AtomicFileOutput
    ) throws -> Int {
        let delimiter: Character = format == .tsv ? "\t" : ","
        let lineEnd = format == .csv ? "\r\n" : "\n"
        let names = columnNames
        if format != .jsonLines {
            try output.write(ViewExport.record(names, delimiter: delimiter) + lineEnd)
        }
        let keys = names.map { JSONText.string($0) + ":" }
        let isBoolean = types.map { $0 == .bool }
        return try rows.readEach { section, values in
            if format == .jsonLines {
                var line = "{"
                var index = 0
                if let section {
                    line += keys[0] + JSONText.string(section)
                    index = 1
                }
                for (column, value) in values.enumerated() {
                    if index > 0 { line += "," }
                    line +=
                        keys[index]
                        + (isBoolean[column] ? JSONText.boolean(value) : JSONText.value(ViewExport.full(value)))
                    index += 1
                }
                try output.write(line + "}\n")
            } else {
                var fields = section.map { [$0] } ?? []
                for (column, value) in values.enumerated() {
                    fields.append(isBoolean[column] ? ResultsListWriter.csvBoolean(value) : ViewExport.text(value))
                }
                try output.write(ViewExport.record(fields, delimiter: delimiter) + lineEnd)
            }
        }
    }

    /// A value as a text field: empty for NULL, numbers and text as stored, a blob as hexadecimal digits.
    static func text(_ value: StoreValue) -> String {
        if case .blob(let bytes) = value { return hex(bytes) }
        return DisplayText.of(value)
    }

    /// A blob as text in JSON (its hexadecimal digits), other values as they are.
    static func full(_ value: StoreValue) -> StoreValue {
        if case .blob(let bytes) = value { return .text(hex(bytes)) }
        return value
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One record of fields separated by `delimiter`, each quoted when it holds the delimiter, a
    /// quote or a line break (quotes doubled: RFC 4180); a record of one empty field is `""`, so
    /// that it is not read as a blank line.
    static func record(_ fields: [String], delimiter: Character) -> String {
        if fields.count == 1 && fields[0].isEmpty { return "\"\"" }
        let special = delimiter.unicodeScalars.first!
        return fields.map { field in
            guard field.unicodeScalars.contains(where: { $0 == special || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            else {
                return field
            }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: String(delimiter))
    }

    /// A connection to the SQLite file at `path`: read-only for the store's file (it never changes
    /// a journal mode), read-write for a database a table is added to.
    static func openDatabase(_ path: String, readOnly: Bool) throws -> Database {
        var options = Database.Options()
        options.readOnly = readOnly
        options.create = false
        options.walMode = false
        return try Database(path: path, options: options)
    }
}

/// What can stop a save, and where.
public enum ViewExportError: Error, Equatable, CustomStringConvertible {
    /// `path` cannot be written (`errno` in `code`).
    case cannotWrite(path: String, code: Int32)
    /// Something is at `path` that the save was not told to replace.
    case exists(path: String, ViewExport.Replaced)
    /// The save was cancelled: nothing was written.
    case cancelled

    public var description: String {
        switch self {
        case .cannotWrite(let path, let code):
            return "cannot write \(path): \(String(cString: strerror(code)))"
        case .exists(let path, .file):
            return "\(path) exists"
        case .exists(let path, .table(let table)):
            return "\(path) has a table \(table)"
        case .cancelled:
            return "the save was cancelled"
        }
    }
}
