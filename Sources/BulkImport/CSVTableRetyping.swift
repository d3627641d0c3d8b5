import CSVImport
import Foundation
import SQLiteStore

/// Gives one column of a CSV file's cache table another type, as a person asks (`fetchedtable
/// --type fare=real`, or `t` in its grid): the values that read as the new type are stored
/// as it, the declared type is rewritten, in one transaction on a connection of its own — so
/// that it can run on a thread of its own while the cache is browsed, the browser seeing the
/// new values at the commit, and the cache keeping the type until the file changes.
///
/// All or nothing, as the loader types a column from all its values: when a value does not
/// read as the new type, nothing changes and ``Refusal`` says how many do not and names the
/// first. Nothing the file says is lost: a value becomes a number only in the form that reads
/// back as written (``CSVFieldValue``: `42`, `3.5`; not `007`; `3.50` where the table keeps
/// written forms beside its reals, as the loader made them), a number becomes text
/// as the file wrote it (a real's companion column, ``CSVTable/writtenFormColumn(of:)``), a
/// boolean is `1`/`0` from `true`/`false`, `yes`/`no`, `t`/`f`, `y`/`n`, `1`/`0` in any case, a
/// date is ISO text (`27-Jun-25` becomes `2025-06-27`, as the loader writes dates), a date-time
/// keeps its text. A missing-value token (`missingValues`: `NA`…) becomes NULL in a column of
/// another type than text.
///
///     let outcome = try CSVTableRetyping(databasePath: table.databasePath, table: "flights")
///         .retype("dep_delay", to: .integer, missingValues: ["NA"]) { done, total in print(done, total) }
///     outcome.converted   // 328_521
package struct CSVTableRetyping {
    /// A type a column can be given.
    package enum Target: String, Sendable, CaseIterable {
        case integer, real, text, date
        case dateTime = "datetime"
        case boolean

        /// The type declared in the table (read back by the catalog as this type).
        var declaredType: String {
            switch self {
            case .integer: return "INTEGER"
            case .real: return "REAL"
            case .text: return "TEXT"
            case .date: return "DATE"
            case .dateTime: return "DATETIME"
            case .boolean: return "BOOLEAN"
            }
        }
    }

    /// What a re-typing did.
    package struct Outcome: Sendable, Equatable {
        /// Values stored as the new type (or NULL, for a missing-value token).
        package var converted: Int
        /// Values that were already of it, or NULL.
        package var unchanged: Int
    }

    /// Why a column was not given the type: some of its values do not read as it.
    package struct Refusal: Error, Equatable, CustomStringConvertible {
        package var column: String
        package var target: Target
        /// How many values do not read as the type.
        package var count: Int
        /// The first of them, and its row (the file's data row).
        package var example: String
        package var row: Int64

        package var description: String {
            let kind = target == .integer ? "integer" : target.rawValue
            let what = count == 1 ? "is not \(kind == "integer" ? "an" : "a") \(kind)" : "are not \(kind)s"
            return "\(count) value\(count == 1 ? "" : "s") of \(column) \(what) (the first: '\(example)' on row \(row))"
        }
    }

    /// The cache database.
    package let databasePath: String
    /// The table in it.
    package let table: String
    /// Rows read and written per step (progress is told after each).
    package var chunkRows = 20_000

    /// The re-typing of a column of `table` in the cache database at `databasePath`.
    package init(databasePath: String, table: String) {
        self.databasePath = databasePath
        self.table = table
    }

    /// Gives `column` the type `target`; `progress` gets the rows done and the rows there are.
    ///
    /// - Throws: ``Refusal`` when a value does not read as `target`; `SQLiteError`; `StoreError`
    ///   when the table has no such column. The cache is then as it was.
    package func retype(
        _ column: String,
        to target: Target,
        missingValues: [String] = [],
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws -> Outcome {
        var options = Database.Options()
        options.walMode = false
        let database = try Database(path: databasePath, options: options)
        let columns = try database.query("SELECT name, type FROM pragma_table_info(?)", [.text(table)])
        guard columns.contains(where: { $0[0].string == column }) else {
            throw StoreError.unknownKeyPath(column, entity: table)
        }
        let written = CSVTable.writtenFormColumn(of: column)
        let hasWritten = columns.contains { $0[0].string == written }
        let quotedTable = Database.quote(identifier: table)
        let quoted = Database.quote(identifier: column)
        let total = Int(try database.scalar("SELECT count(*) FROM \(quotedTable)").int64 ?? 0)
        var outcome = Outcome(converted: 0, unchanged: 0)
        var refusal: Refusal?
        try database.transaction {
            // Declared first: the values are written under the new type's affinity (a TEXT column keeps
            // "42" as text, an INTEGER one would make it a number again). A refusal rolls it back.
            try redeclare(column, as: target, columns: columns, on: database)
            let read = try database.statement(
                "SELECT rowid, \(quoted), \(hasWritten ? Database.quote(identifier: written) : "NULL") "
                    + "FROM \(quotedTable) WHERE rowid > ? ORDER BY rowid LIMIT \(chunkRows)"
            )
            let write = try database.statement(
                "UPDATE \(quotedTable) SET \(quoted) = ?"
                    + (hasWritten ? ", \(Database.quote(identifier: written)) = ?" : "") + " WHERE rowid = ?"
            )
            var last: Int64 = .min
            var done = 0
            while true {
                try read.bind(.integer(last), at: 1)
                var changes: [(Int64, StoreValue, String?)] = []
                var rows = 0
                while try read.step() {
                    rows += 1
                    last = read.int64(at: 0)
                    let value = read.value(at: 1)
                    let writtenForm = read.isNull(at: 2) ? nil : read.text(at: 2)
                    guard value != .null,
                        let (new, newWritten) = CSVTableRetyping.convert(
                            value,
                            written: writtenForm,
                            to: target,
                            missing: missingValues,
                            keepsWrittenForms: hasWritten
                        )
                    else {
                        if value != .null {
                            refusal =
                                refusal
                                ?? Refusal(
                                    column: column,
                                    target: target,
                                    count: 0,
                                    example: CSVTableRetyping.messageText(value),
                                    row: last
                                )
                            refusal?.count += 1
                        } else {
                            outcome.unchanged += 1
                        }
                        continue
                    }
                    if new != value || writtenForm != newWritten {
                        changes.append((last, new, newWritten))
                        outcome.converted += 1
                    } else {
                        outcome.unchanged += 1
                    }
                }
                read.reset()
                if refusal != nil { changes.removeAll() }  // rolled back at the end: nothing to write
                for (rowid, value, newWritten) in changes {
                    try write.bind(value, at: 1)
                    if hasWritten { try write.bind(newWritten.map { .text($0) } ?? .null, at: 2) }
                    try write.bind(.integer(rowid), at: hasWritten ? 3 : 2)
                    _ = try write.step()
                    write.reset()
                }
                done += rows
                progress(min(done, total), total)
                if rows < chunkRows { break }
            }
            if let refusal { throw refusal }
        }
        return outcome
    }

    /// The value `value` (as the file wrote it: `written`, for a real with a companion) stored as
    /// `target`, with the written form its companion keeps (a real that does not read back as
    /// written, when the table has companions: `keepsWrittenForms`); nil when it does not read as one.
    static func convert(
        _ value: StoreValue,
        written: String?,
        to target: Target,
        missing: [String],
        keepsWrittenForms: Bool = false
    ) -> (StoreValue, String?)? {
        if target != .text, case .text(let text) = value, missing.contains(text) { return (.null, nil) }
        switch target {
        case .text:
            switch value {
            case .integer(let i): return (.text(written ?? String(i)), nil)
            case .real: return (written.map { .text($0) } ?? value.sqliteText.map { .text($0) } ?? value, nil)
            default: return (value, nil)
            }
        case .integer, .real:
            guard case .text(let text) = value else {
                if target == .integer, case .real(let d) = value, let i = Int64(exactly: d),
                    written == nil || written == String(i)
                {
                    return (.integer(i), nil)
                }
                return value.isNumber && (target == .real || written == nil) ? (value, written) : nil
            }
            switch CSVFieldValue.classify(Array(text.utf8)) {
            // A REAL column reads 3 back as 3.0: its written form kept beside, as the loader keeps it.
            case .integer(let i) where target == .real && keepsWrittenForms: return (.real(Double(i)), text)
            case .integer(let i): return (.integer(i), nil)
            case .real(let d, exact: true) where target == .real: return (.real(d), nil)
            case .real(let d, exact: false) where target == .real && keepsWrittenForms: return (.real(d), text)
            default: return nil
            }
        case .date, .dateTime:
            guard case .text(let text) = value else { return nil }
            switch CSVFieldValue.classify(Array(text.utf8)) {
            case .date: return (value, nil)
            case .dateTime: return target == .dateTime ? (value, nil) : nil
            default: return CalendarDay.parse(text).map { (.text($0.isoText), nil) }
            }
        case .boolean:
            switch value {
            case .integer(let i) where i == 0 || i == 1: return (value, nil)
            case .text(let text):
                switch text.lowercased() {
                case "true", "yes", "t", "y", "1": return (.integer(1), nil)
                case "false", "no", "f", "n", "0": return (.integer(0), nil)
                default: return nil
                }
            default: return nil
            }
        }
    }

    /// A value as a message quotes it.
    static func messageText(_ value: StoreValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let i): return String(i)
        case .real(let d): return String(d)
        case .text(let t): return t
        case .blob(let b): return "\(b.count) bytes"
        }
    }

    /// Rewrites the table's declaration with `column` of `target`'s declared type (SQLite's
    /// documented procedure for a change that leaves the records valid: `sqlite_schema` edited and
    /// the schema version bumped in the same transaction, so other connections read it again).
    private func redeclare(_ column: String, as target: Target, columns: [[StoreValue]], on database: Database) throws {
        let definitions = columns.map { row -> String in
            let name = row[0].string ?? ""
            let type = name == column ? target.declaredType : (row[1].string ?? "")
            return type.isEmpty ? Database.quote(identifier: name) : "\(Database.quote(identifier: name)) \(type)"
        }
        let sql = "CREATE TABLE \(Database.quote(identifier: table))(\(definitions.joined(separator: ", ")))"
        let version = try database.scalar("PRAGMA schema_version").int64 ?? 0
        try database.execute("PRAGMA writable_schema = ON")
        defer { try? database.execute("PRAGMA writable_schema = OFF") }
        try database.run(
            "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
            [.text(sql), .text(table)]
        )
        try database.execute("PRAGMA schema_version = \(version + 1)")
    }
}

extension StoreValue {
    /// Whether it is an integer or a real.
    fileprivate var isNumber: Bool {
        switch self {
        case .integer, .real: return true
        default: return false
        }
    }

    /// A real as SQLite's `CAST(x AS TEXT)` writes it (`%!.15g`), for one without its written form.
    fileprivate var sqliteText: String? {
        guard case .real(let d) = self else { return nil }
        var text = String(format: "%.15g", d)
        if !text.contains(".") && !text.contains("e") && !text.contains("n") && !text.contains("i") { text += ".0" }
        return text
    }
}
