/// What one file's import did.
///
/// Its counts are the outcome of each good row against the key: ``added``
/// (a key new to the store), ``updated`` (a known key with a value changed),
/// ``unchanged`` (a known key with every value the same).
///
///     var summary = ImportSummary(path: "students.csv")
///     summary.added = 3
///     print(summary.summaryLine)
///     // imported 3 rows from students.csv: 3 added, 0 updated, 0 unchanged, 0 skipped in 0.00 s
public struct ImportSummary: Sendable, Equatable {
    /// The file, as named.
    public var path: String
    /// Rows whose key is new to the store.
    public var added = 0
    /// Rows whose key is already in the store, with at least one value changed.
    public var updated = 0
    /// Rows whose key is already in the store, with every value the same.
    public var unchanged = 0
    /// Bad rows left out (only with `skipBadRows`).
    public var skipped = 0
    /// The first bad rows (at most the listed limit), when rows were skipped.
    public var issues: [ImportIssue] = []
    /// Wall-clock seconds.
    public var seconds: Double = 0
    /// True when the empty-store bulk path (history suppressed, readers reset) was used.
    public var usedBulkLoad = false

    /// An empty summary for `path` (all counts zero).
    public init(path: String) { self.path = path }

    /// Good rows read: added + updated + unchanged.
    public var rows: Int { added + updated + unchanged }

    /// True when the store changed.
    public var changedStore: Bool { added + updated > 0 }

    /// `imported N rows from FILE: A added, U updated, S unchanged, K skipped in T s`
    public var summaryLine: String {
        let t = (seconds * 100).rounded() / 100
        let whole = Int(t)
        let hundredths = Int(((t - Double(whole)) * 100).rounded())
        let time = "\(whole).\(hundredths < 10 ? "0" : "")\(hundredths)"
        return "imported \(rows) row\(rows == 1 ? "" : "s") from \(path): \(added) added, \(updated) updated, "
            + "\(unchanged) unchanged, \(skipped) skipped in \(time) s"
    }
}
