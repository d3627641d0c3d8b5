import FetchedResults
import Foundation
import SQLiteStore

/// A fetched results controller's sections written as the apps' `list` commands
/// print them, one format for every app: text, JSON or CSV.
///
/// - JSON: `{"sections":[{"name":"2025","indexTitle":"2025","objects":[{"id":12,<columns>…}]}]}`
///   (one line; each column's value by ``JSONText/value(_:)``, a ``booleanColumns`` one as `true`/`false`).
/// - CSV: a header `section,id,<columns>`, then one row per object.
///
/// The row's identity is written under ``idKey`` (`id` by default, as failedbanks prints it). An app
/// whose columns are anyone's (fetchedtable) sets it with ``identityKey(avoiding:)`` to `_rowid`, so
/// that a column named `id` appears under its own name, beside the identity and never in its place.
/// - Text: a line per section, `2025 (3 banks)` (`(none)` for an empty name), then the
///   app's line per object; control characters in a section name are escaped.
///
/// The app reads its objects' values (``readRows``) a batch of ids at a time, in the
/// controller's order, so a million rows never sit in memory at once.
///
///     var writer = ResultsListWriter(columns: ["name", "city"], noun: ("bank", "banks")) { ids in
///         try ids.map { id in (id: id, values: [.text("Bank \(id)"), .text("Town")]) }
///     }
///     writer.textLine = { _, values in "  " + values.map(DisplayText.of).joined(separator: ", ") }
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
    /// The positions in ``columns`` of the columns that hold booleans (`0`/`1`): written `true`/`false`
    /// in JSON and CSV, as a script reads a boolean.
    public var booleanColumns: Set<Int> = []
    /// Per position in ``columns``, where in a row's values (past the columns' own) the column's value
    /// as its source wrote it is (`1.10`, `3` in a column of reals), text or NULL: written instead of the
    /// value's own text in CSV and text, and in JSON when it is a JSON number (`"price":1.10`).
    public var writtenForms: [Int: Int] = [:]
    /// The objects' noun in text section lines, singular and plural.
    public var noun: (singular: String, plural: String)
    /// The values of `ids`' ``columns`` (in that order), in the order of `ids`; rows no longer there are left out.
    public var readRows: ([Int64]) throws -> [(id: Int64, values: [StoreValue])]
    /// One object's line in the text format, indentation included, without the newline
    /// (default: two spaces and the values' ``DisplayText``, control characters escaped, joined by ", ").
    public var textLine: (_ id: Int64, _ values: [StoreValue]) -> String = { _, values in
        "  " + values.map { DisplayText.escapingControls(DisplayText.of($0)) }.joined(separator: ", ")
    }
    /// Ids read per ``readRows`` call.
    public var batchSize = 2000

    /// A writer of `columns`, read by `readRows`.
    public init(
        columns: [String],
        noun: (singular: String, plural: String),
        readRows: @escaping ([Int64]) throws -> [(id: Int64, values: [StoreValue])]
    ) {
        self.columns = columns
        self.noun = noun
        self.readRows = readRows
    }

    /// Writes `controller`'s sections in `format` to `output` (text with its own newlines).
    ///
    /// - Throws: ``readRows``' error (after what was read before it was written).
    public func write(_ controller: FetchedResultsController, format: Format, output: (String) -> Void) throws {
        switch format {
        case .json: output("{\"sections\":[")
        case .csv: output((["section", idKey] + columns).map(ResultsListWriter.csv).joined(separator: ",") + "\n")
        case .text: break
        }
        let keys = columns.map { "," + JSONText.string($0) + ":" }
        let idField = "{" + JSONText.string(idKey) + ":"
        let isBoolean = columns.indices.map { booleanColumns.contains($0) }
        let writtenAt = columns.indices.map { writtenForms[$0] }
        for (index, section) in controller.sections.enumerated() {
            switch format {
            case .json:
                output(
                    (index > 0 ? "," : "") + "{\"name\":\(JSONText.string(section.name)),\"indexTitle\":"
                        + (section.indexTitle.map(JSONText.string) ?? "null") + ",\"objects\":["
                )
            case .text:
                let title = section.name.isEmpty ? "(none)" : DisplayText.escapingControls(section.name)
                let count = section.numberOfObjects
                output("\(title) (\(count) \(count == 1 ? noun.singular : noun.plural))\n")
            case .csv: break
            }
            let ids = section.objects.objectIDs.map(\.rowID)
            var first = true
            var start = 0
            while start < ids.count {
                for row in try readRows(Array(ids[start..<min(ids.count, start + batchSize)])) {
                    switch format {
                    case .json:
                        var line = (first ? "" : ",") + idField + String(row.id)
                        for index in columns.indices where index < row.values.count {
                            let value = row.values[index]
                            line += keys[index]
                            if let at = writtenAt[index], at < row.values.count,
                                case .text(let written) = row.values[at],
                                JSONText.isNumber(written)
                            {
                                line += written
                            } else {
                                line += isBoolean[index] ? JSONText.boolean(value) : JSONText.value(value)
                            }
                        }
                        output(line + "}")
                    case .text:
                        output(textLine(row.id, row.values) + "\n")
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

    /// A CSV field, quoted when it holds a comma, a quote or a line break.
    static func csv(_ field: String) -> String {
        // On the scalars: "\r\n" is one Character, equal neither to "\r" nor to "\n".
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
