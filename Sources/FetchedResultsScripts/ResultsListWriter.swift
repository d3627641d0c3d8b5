import CLIKit
import FetchedResults
import Foundation
import SQLiteStore

/// A fetched results controller's sections written as the apps' `list` commands
/// print them, one format for every app: text, JSON or CSV.
///
/// - JSON: `{"sections":[{"name":"2025","indexTitle":"2025","objects":[{"id":12,<columns>…}]}]}`
///   (one line; each column's value by ``JSONText/value(_:)``, a boolean one as `true`/`false`).
/// - CSV: a header `section,id,<columns>`, then one row per object.
/// - Text: a line per section, `2025 (3 books)` (`(none)` for the section of NULL, `(empty)` for
///   that of empty text), then the
///   app's line per object; control characters in both are escaped.
///
/// The row's identity is written under ``idKey`` (`id` by default). An app whose columns are
/// anyone's (fetchedtable) sets it with ``identityKey(avoiding:)`` to `_rowid`, so that a column
/// named `id` appears under its own name, beside the identity and never in its place.
///
/// The writer reads its objects' values itself, from the controller's store: each of ``keyPaths``
/// (the columns by default; a key path may cross a to-one relationship, `author.name`), a batch
/// of ids at a time, in the controller's order, so a million rows never sit in memory at once.
/// A column whose attribute is a boolean is written `true`/`false` in JSON and CSV.
///
///     var writer = ResultsListWriter(columns: ["title", "year"], noun: ("book", "books"))
///     writer.textLine = { _, values in "  " + values.map(DisplayText.of).joined(separator: " — ") }
///     try writer.write(controller, format: .json) { print($0, terminator: "") }
public struct ResultsListWriter {
    /// The formats `--format` takes.
    public enum Format: String, CaseIterable, Sendable {
        /// Section lines and the app's object lines.
        case text
        /// One JSON object of sections.
        case json
        /// A header and one row per object.
        case csv
    }

    /// The printed columns: JSON keys, and the CSV header after `section,id`.
    public var columns: [String]
    /// The key (JSON) and header (CSV) of each object's identity, its row id: `id` unless set.
    ///
    ///     writer.idKey = ResultsListWriter.identityKey(avoiding: ["id", "name"])   // "_rowid"
    public var idKey = "id"
    /// The key paths read for each object, in this order: the ``columns``' values first (by default
    /// the columns themselves), then any other value a ``textLine`` or ``writtenForms`` needs.
    ///
    ///     var writer = ResultsListWriter(columns: ["title", "author"], noun: ("book", "books"))
    ///     writer.keyPaths = ["title", "author.name"]
    public var keyPaths: [String]
    /// The positions in ``columns`` of more columns that hold booleans (`0`/`1`), written `true`/`false`
    /// in JSON and CSV, as a script reads a boolean; a column whose attribute is `AttributeType.bool`
    /// is one without being named here.
    public var booleanColumns: Set<Int> = []
    /// Per position in ``columns``, where in a row's values (past the columns' own) the column's value
    /// as its source wrote it is (`1.10`, `3` in a column of reals), text or NULL: written instead of the
    /// value's own text in CSV and text, and in JSON when it is a JSON number (`"price":1.10`).
    public var writtenForms: [Int: Int] = [:]
    /// The objects' noun in text section lines, singular and plural.
    public var noun: (singular: String, plural: String)
    /// The values of ``keyPaths`` for `ids`, in the order of `ids`, rows no longer there left out;
    /// nil (the default) reads them from the controller's store. Set it to print values that are
    /// not key paths of the entity.
    public var readRows: (([Int64]) throws -> [(id: Int64, values: [StoreValue])])?
    /// One object's line in the text format, indentation included, without the newline (default: two
    /// spaces and the values' ``DisplayText`` joined by ", "). The writer escapes its control characters
    /// (``DisplayText/escapingControls(_:)``), so that a newline in a value cannot split the line.
    public var textLine: (_ id: Int64, _ values: [StoreValue]) -> String = { _, values in
        "  " + values.map { DisplayText.of($0) }.joined(separator: ", ")
    }
    /// Ids read at a time.
    public var batchSize = 2000
    /// True when a person's terminal reads the output (CLIKit's `EscapedOutput.standardOutputIsTerminal`):
    /// CSV fields then have the characters a terminal acts on escaped (`\u{1B}`), and JSON strings have
    /// them as `\u001b`-style escapes (still the same JSON), as text lines always do. False (the
    /// default) writes a pipe's data as it is.
    public var escapesForTerminal = false

    /// A writer of `columns` (their names are the JSON keys and the CSV header), reading the
    /// values of `keyPaths` (default: the columns) from the controller's store.
    public init(columns: [String], keyPaths: [String]? = nil, noun: (singular: String, plural: String)) {
        self.columns = columns
        self.keyPaths = keyPaths ?? columns
        self.noun = noun
    }

    /// A writer of `columns`, whose values `readRows` reads.
    public init(
        columns: [String],
        noun: (singular: String, plural: String),
        readRows: @escaping ([Int64]) throws -> [(id: Int64, values: [StoreValue])]
    ) {
        self.init(columns: columns, noun: noun)
        self.readRows = readRows
    }

    /// Writes `controller`'s sections in `format` to `output`, in pieces that carry their own newlines:
    /// every format ends with one (JSON is one line and its newline; CSV and text a newline per line).
    ///
    /// - Throws: the store's error reading the rows (after what was read before it was written);
    ///   `StoreError.unknownKeyPath` for a key path the entity lacks, before anything is written.
    public func write(_ controller: FetchedResultsController, format: Format, output: (String) -> Void) throws {
        let reader: ([Int64]) throws -> [(id: Int64, values: [StoreValue])]
        var isBoolean = columns.indices.map { booleanColumns.contains($0) }
        if let readRows {
            reader = readRows
        } else {
            let rows = try ObjectValuesReader(controller: controller, keyPaths: keyPaths)
            for index in columns.indices where index < rows.types.count && rows.types[index] == .bool {
                isBoolean[index] = true
            }
            reader = rows.read
        }
        switch format {
        case .json: output("{\"sections\":[")
        case .csv:
            let header = (["section", idKey] + columns).map {
                escapesForTerminal ? EscapedOutput.escapingControls($0) : $0
            }
            output(header.map(ResultsListWriter.csv).joined(separator: ",") + "\n")
        case .text: break
        }
        let keys = columns.map { "," + JSONText.string($0) + ":" }
        let terminalKeys = keys.map(ResultsListWriter.terminalJSON)
        let idField = "{" + JSONText.string(idKey) + ":"
        let writtenAt = columns.indices.map { writtenForms[$0] }
        for (index, section) in controller.sections.enumerated() {
            switch format {
            case .json:
                let names =
                    (index > 0 ? "," : "") + "{\"name\":\(JSONText.string(section.name)),\"indexTitle\":"
                    + (section.indexTitle.map(JSONText.string) ?? "null") + ",\"objects\":["
                output(escapesForTerminal ? ResultsListWriter.terminalJSON(names) : names)
            case .text:
                let title =
                    section.name.isEmpty
                    ? (section.isNullKey ? "(none)" : "(empty)") : DisplayText.escapingControls(section.name)
                let count = section.numberOfObjects
                output("\(title) (\(count) \(count == 1 ? noun.singular : noun.plural))\n")
            case .csv: break
            }
            let ids = section.objects.objectIDs.map(\.rowID)
            var first = true
            var start = 0
            while start < ids.count {
                for row in try reader(Array(ids[start..<min(ids.count, start + batchSize)])) {
                    switch format {
                    case .json:
                        var line = (first ? "" : ",") + idField + String(row.id)
                        for index in columns.indices where index < row.values.count {
                            let value = row.values[index]
                            line += escapesForTerminal ? terminalKeys[index] : keys[index]
                            if let at = writtenAt[index], at < row.values.count,
                                case .text(let written) = row.values[at],
                                JSONText.isNumber(written)
                            {
                                line += written
                            } else {
                                let json = isBoolean[index] ? JSONText.boolean(value) : JSONText.value(value)
                                line += escapesForTerminal ? ResultsListWriter.terminalJSON(json) : json
                            }
                        }
                        output(line + "}")
                    case .text:
                        output(DisplayText.escapingControls(textLine(row.id, row.values)) + "\n")
                    case .csv:
                        var fields = [section.name, String(row.id)]
                        for index in columns.indices where index < row.values.count {
                            let value = row.values[index]
                            if let at = writtenAt[index], at < row.values.count,
                                case .text(let written) = row.values[at]
                            {
                                fields.append(written)
                            } else {
                                fields.append(
                                    isBoolean[index]
                                        ? ResultsListWriter.csvBoolean(value) : ResultsListWriter.csvText(value)
                                )
                            }
                        }
                        if escapesForTerminal { fields = fields.map(EscapedOutput.escapingControls) }
                        output(fields.map(ResultsListWriter.csv).joined(separator: ",") + "\n")
                    }
                    first = false
                }
                start += batchSize
            }
            if format == .json { output("]}") }
        }
        if format == .json { output("]}\n") }
    }

    /// The key of an object's identity that no column of `columns` has: `_rowid`, or — when a
    /// column is itself named so — `_rowid` with one more leading underscore than the longest such
    /// column (`__rowid` beside a `_rowid` column), compared without regard to case, as SQLite names are.
    ///
    ///     ResultsListWriter.identityKey(avoiding: ["id", "name"])        // "_rowid"
    ///     ResultsListWriter.identityKey(avoiding: ["_rowid", "__ROWID"]) // "___rowid"
    public static func identityKey(avoiding columns: [String]) -> String {
        let taken = Set(columns.map { $0.lowercased() })
        var key = "_rowid"
        while taken.contains(key) { key = "_" + key }
        return key
    }

    /// A value as a CSV field's text: empty for NULL, the ``DisplayText`` otherwise.
    static func csvText(_ value: StoreValue) -> String { DisplayText.of(value) }

    /// A boolean column's value as a CSV field's text: `true`/`false` for a stored number, as ``csvText(_:)`` otherwise.
    static func csvBoolean(_ value: StoreValue) -> String {
        switch value {
        case .integer(let i): return i != 0 ? "true" : "false"
        case .real(let d): return d != 0 ? "true" : "false"
        default: return csvText(value)
        }
    }

    /// JSON text with the characters of CLIKit's escaping policy that JSON leaves as they are (DEL, C1,
    /// line separators, bidirectional formatting) written as `\uXXXX` escapes: the same JSON, safe on a terminal.
    static func terminalJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: EscapedOutput.isEscaped) else { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            if EscapedOutput.isEscaped(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break.
    static func csv(_ field: String) -> String {
        // On the scalars: "\r\n" is one Character, equal neither to "\r" nor to "\n".
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
