import CSVImport

/// The whole-number upsert keys of one file, to refuse a key repeated
/// within it, and to name afterwards where each listed repeat was first
/// seen (`duplicate cert, first on line 12`).
///
/// The keys are kept in a ``KeySet`` (a bit each), not their lines: the
/// first lines of the listed repeats are found by a second, key-only pass
/// over the file, and only when there are repeats to name.
///
///     var keys = DuplicateKeys(name: "cert")
///     if !keys.insert(2001) { /* a repeat: refuse the row */ }
///     if let index = rows.addIssue(keys.problem(column: "Cert", value: "2001"), line: 5) {
///         keys.listed(2001, issue: index)
///     }
///     keys.nameFirstLines(in: &rows.issues, rereading: "books.csv", keyField: 3)
///     // rows.issues[index].reason == "duplicate cert, first on line 2"
package struct DuplicateKeys: Sendable {
    /// What the key is called in the reasons ("cert").
    package let name: String
    private var seen = KeySet()
    /// The keys of listed repeats, by issue index.
    private var listedKeys: [Int: Int64] = [:]

    /// No keys yet; `name` names the key in the reasons.
    package init(name: String) { self.name = name }

    /// Inserts `key`; false when the file already had it (a repeat).
    @inline(__always)
    package mutating func insert(_ key: Int64) -> Bool { seen.insert(key) }

    /// The problem of a repeated key: `duplicate <name>` in `column`, with the field's `value`.
    package func problem(column: String, value: String) -> RowProblem {
        RowProblem(reason: "duplicate \(name)", column: column, value: value)
    }

    /// Remembers that issue `index` is the repeat of `key` (to name its first line later).
    package mutating func listed(_ key: Int64, issue index: Int) { listedKeys[index] = key }

    /// True when some listed issue is a repeat.
    package var hasListedRepeats: Bool { !listedKeys.isEmpty }

    /// Names the first line of each listed repeat in its reason (`duplicate cert, first on line 2`), with a
    /// second pass over the file at `path` reading field `keyField` as a whole number. Does nothing without
    /// listed repeats or a file to read again (nil: rows made in memory).
    package func nameFirstLines(in issues: inout [ImportIssue], rereading path: String?, keyField: Int) {
        guard !listedKeys.isEmpty, let path else { return }
        nameFirstLines(in: &issues, rereading: { try? CSVReader(path: path) }, keyField: keyField)
    }

    /// The same, the second pass reading the reader `reopen` makes (bytes held in memory, a file);
    /// nothing when it makes none.
    package func nameFirstLines(in issues: inout [ImportIssue], rereading reopen: () -> CSVReader?, keyField: Int) {
        guard !listedKeys.isEmpty, let again = reopen() else { return }
        let wanted = Set(listedKeys.values)
        var firstLine: [Int64: Int] = [:]
        var row = CSVRecord()
        _ = try? again.read(into: &row)  // header
        while (try? again.read(into: &row)) == true {
            guard row.count > keyField, case .value(let key) = CSVFieldText.integer(row, keyField),
                wanted.contains(key), firstLine[key] == nil
            else { continue }
            firstLine[key] = row.line
            if firstLine.count == wanted.count { break }
        }
        for (index, key) in listedKeys {
            if let line = firstLine[key], line != issues[index].line {
                issues[index].reason = "duplicate \(name), first on line \(line)"
            }
        }
    }
}
