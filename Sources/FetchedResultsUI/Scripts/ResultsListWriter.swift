import FetchedResults
import Foundation
import SQLiteStore

/// A fetched results controller's sections written as the apps' `list` commands
/// print them, one format for every app: text, JSON or CSV.
///
/// - JSON: `{"sections":[{"name":"2025","indexTitle":"2025","objects":[{"id":12,<columns>…}]}]}`
///   (one line; each column's value by ``JSONText/value(_:)``).
/// - CSV: a header `section,id,<columns>`, then one row per object.
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
        case .csv: output((["section", "id"] + columns).map(ResultsListWriter.csv).joined(separator: ",") + "\n")
        case .text: break
        }
        let keys = columns.map { "," + JSONText.string($0) + ":" }
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
                        var line = (first ? "" : ",") + "{\"id\":\(row.id)"
                        for (key, value) in zip(keys, row.values) { line += key + JSONText.value(value) }
                        output(line + "}")
                    case .text:
                        output(textLine(row.id, row.values) + "\n")
                    case .csv:
                        let fields = [section.name, String(row.id)] + row.values.map(ResultsListWriter.csvText)
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

    /// A value as a CSV field's text: empty for NULL, the ``DisplayText`` otherwise.
    static func csvText(_ value: StoreValue) -> String { DisplayText.of(value) }

    /// A CSV field, quoted when it holds a comma, a quote or a line break.
    static func csv(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
