/// Column names made from a header row: the cells as written, made usable
/// as the names of a table's columns.
///
/// Each cell is trimmed, with control characters (a line break in a quoted
/// header) turned into spaces; an empty cell is named `column_N` (its
/// 1-based position); `rowid`, `oid` and `_rowid_`, which would hide the
/// row's id, get a `_2` suffix; a name already taken (compared without case,
/// as SQL does) gets `_2`, `_3`… until it is unique.
///
///     CSVColumnNames.make(from: ["Name", "", "name", " City ", "rowid"])
///     // ["Name", "column_2", "name_2", "City", "rowid_2"]
public enum CSVColumnNames {
    /// Names reserved for the row's id.
    package static let reserved: Set<String> = ["rowid", "oid", "_rowid_"]

    /// The names for `header` (see the type's summary).
    public static func make(from header: [String]) -> [String] {
        var taken = Set<String>()
        var names: [String] = []
        names.reserveCapacity(header.count)
        for (index, cell) in header.enumerated() {
            var base = cleaned(cell)
            if base.isEmpty { base = "column_\(index + 1)" }
            var name = base
            var suffix = 2
            if reserved.contains(name.lowercased()) {
                name = "\(base)_\(suffix)"
                suffix += 1
            }
            while !taken.insert(name.lowercased()).inserted || reserved.contains(name.lowercased()) {
                name = "\(base)_\(suffix)"
                suffix += 1
            }
            names.append(name)
        }
        return names
    }

    /// The cell trimmed (white space, no-break spaces and U+FEFF), its control characters turned into spaces.
    static func cleaned(_ cell: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in cell.unicodeScalars {
            scalars.append(scalar.properties.generalCategory == .control ? " " : scalar)
        }
        let text = String(scalars)
        let isBlank: (Unicode.Scalar) -> Bool = { $0.properties.isWhitespace || $0 == "\u{FEFF}" }
        guard let first = text.unicodeScalars.firstIndex(where: { !isBlank($0) }) else { return "" }
        let last = text.unicodeScalars.lastIndex(where: { !isBlank($0) })!
        return String(text.unicodeScalars[first...last])
    }
}
