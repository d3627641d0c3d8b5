/// Finds the expected columns in a header row that varies from year to year.
///
/// Header cells are compared after ``normalize(_:)``: surrounding white space
/// (including no-break spaces) trimmed, case folded, runs of white space
/// collapsed, a `Sort ascending`/`Sort descending` suffix (left by copying the
/// table from a web page) removed, and trailing characters that are neither
/// letters nor digits ignored — so `Title\u{a0}`, `Title†`,
/// `ISBN #` and `Pages  Sort ascending` match `Title`, `ISBN` and `Pages`.
/// Columns the importer does not know are ignored; when two cells match one
/// column, the first wins.
///
///     let columns = [CSVColumn("Title", aliases: ["Name"]), CSVColumn("Pages", required: false)]
///     let map = try CSVHeaderMap(header: ["Title\u{a0}", "Pages  Sort ascending"], columns: columns)
///     map.index(of: "Pages") // 1
public struct CSVHeaderMap: Sendable {
    /// The expected columns, in the order given.
    public let columns: [CSVColumn]
    /// The header cells as read.
    public let header: [String]
    private let indexes: [String: Int]

    /// Maps `header` onto `columns`; throws ``CSVError/missingColumns(_:found:)``
    /// naming every required column that is absent.
    public init(header: [String], columns: [CSVColumn]) throws {
        self.columns = columns
        self.header = header
        let normalized = header.map(CSVHeaderMap.normalize)
        var indexes: [String: Int] = [:]
        var missing: [String] = []
        for column in columns {
            let names = column.normalizedNames
            if let i = normalized.firstIndex(where: { names.contains($0) }) {
                indexes[column.name] = i
            } else if column.isRequired {
                missing.append(column.name)
            }
        }
        if !missing.isEmpty { throw CSVError.missingColumns(missing, found: header) }
        self.indexes = indexes
    }

    /// The field index of the column named `name` (its documented name), or nil when absent.
    public func index(of name: String) -> Int? { indexes[name] }

    /// The canonical form of a header cell used for matching.
    public static func normalize(_ cell: String) -> String {
        var scalars = Array(cell.unicodeScalars)
        // Trim white space (no-break spaces and a stray BOM included).
        while let first = scalars.first, isSpace(first) { scalars.removeFirst() }
        while let last = scalars.last, isSpace(last) { scalars.removeLast() }
        // Fold case and collapse runs of white space.
        var folded: [Unicode.Scalar] = []
        var lastWasSpace = false
        for scalar in scalars {
            if isSpace(scalar) {
                if !lastWasSpace { folded.append(" ") }
                lastWasSpace = true
            } else {
                folded.append(contentsOf: String(scalar).lowercased().unicodeScalars)
                lastWasSpace = false
            }
        }
        var text = String(String.UnicodeScalarView(folded))
        text = dropTrailingNonAlphanumerics(text)
        for suffix in [" sort ascending", " sort descending"] where text.hasSuffix(suffix) {
            text = dropTrailingNonAlphanumerics(String(text.dropLast(suffix.count)))
        }
        return text
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "\u{FEFF}"
    }

    private static func dropTrailingNonAlphanumerics(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        while let last = scalars.last, !(last.properties.isAlphabetic || last.properties.numericType != nil) {
            scalars.removeLast()
        }
        return String(scalars)
    }
}
