/// One ordering criterion of a ``FetchRequest``: a key path, a direction and
/// how text compares.
///
/// Key paths may go through to-one relationships (`details.publishedOn`) and
/// name derived attributes. Ordering is SQLite's: NULL first when ascending
/// (last when descending), then numbers, text, blobs; `.caseInsensitive` is
/// SQLite's NOCASE collation (ASCII letters fold, nothing else). NULL is the
/// least value unless ``nulls`` says `.greatest` (PostgreSQL's order: NULLs
/// last ascending, first descending — for a copy of a server's table). The
/// controller appends the object ID ascending as the last criterion, so the
/// order is total and stable. A derived attribute's `DerivedAttribute.sortsLast` value (the
/// section `(not a date)` of a year, month or day) sorts after every other in both directions.
///
///     let byDate = FetchSort("details.publishedOn", ascending: false)
///     let byName = FetchSort("name", comparison: .caseInsensitive)
public struct FetchSort: Sendable, Hashable, CustomStringConvertible {
    /// How text values compare.
    public enum Comparison: Sendable, Hashable {
        /// Byte order of the UTF-8 text (SQLite's BINARY).
        case binary
        /// ASCII case folded first (SQLite's NOCASE).
        case caseInsensitive
    }

    /// Where NULL sorts among the values.
    public enum NullOrder: Sendable, Hashable {
        /// Below every value: first ascending, last descending (SQLite's `ORDER BY`).
        case least
        /// Above every value: last ascending, first descending (PostgreSQL's `ORDER BY`,
        /// SQL's `NULLS LAST` ascending and `NULLS FIRST` descending).
        case greatest
    }

    /// The key path sorted by (`name`, `details.publishedOn`, a derived attribute).
    public var keyPath: String
    /// True for A→Z, 0→9, oldest first; false for the reverse. NULLs sort first ascending, last descending (SQLite's order).
    public var ascending: Bool
    /// How text compares: byte for byte, or ASCII case-insensitively.
    public var comparison: Comparison
    /// Where NULL sorts: `.least` (SQLite's order, the default) or `.greatest` (PostgreSQL's).
    public var nulls: NullOrder

    /// A value that sorts after every other in both directions (nil: none). The controller sets it
    /// for a key path that names a derived attribute with a `DerivedAttribute.sortsLast` value
    /// (the section of the values that are not dates), so that SQL, Swift and the sort-key
    /// prefixes agree on it: `ORDER BY (e IS last), e ASC|DESC`.
    package var sortsLast: StoreValue?

    /// A sort by `keyPath`.
    ///
    ///     FetchSort("fee", ascending: false, nulls: .greatest)   // NULL fees first, as PostgreSQL's DESC
    public init(_ keyPath: String, ascending: Bool = true, comparison: Comparison = .binary, nulls: NullOrder = .least)
    {
        self.keyPath = keyPath
        self.ascending = ascending
        self.comparison = comparison
        self.nulls = nulls
    }

    /// The store collation matching ``comparison``.
    public var collation: Collation { comparison == .binary ? .binary : .nocase }

    public var description: String {
        let last = sortsLast.map { " [last \($0)]" } ?? ""
        let nullOrder = nulls == .greatest ? " [nulls greatest]" : ""
        return
            "\(keyPath) \(ascending ? "ASC" : "DESC")\(comparison == .caseInsensitive ? " [c]" : "")\(last)\(nullOrder)"
    }

    /// Orders two values as `ORDER BY <keyPath> COLLATE <collation> ASC|DESC` would (with
    /// `NULLS LAST` ascending and `NULLS FIRST` descending when ``nulls`` is `.greatest`): -1, 0 or 1.
    ///
    ///     FetchSort("name", ascending: false).compare(.text("a"), .text("b")) // 1
    public func compare(_ a: StoreValue, _ b: StoreValue) -> Int {
        if let last = sortsLast {
            let aIsLast = a == last
            if aIsLast != (b == last) { return aIsLast ? 1 : -1 }
        }
        let c = FetchSort.compare(a, b, collation: collation, nulls: nulls)
        return ascending ? c : -c
    }

    /// Orders two values ascending with NULL where `nulls` puts it: -1, 0 or 1.
    package static func compare(_ a: StoreValue, _ b: StoreValue, collation: Collation, nulls: NullOrder) -> Int {
        if nulls == .greatest, a.isNullInOrder != b.isNullInOrder { return a.isNullInOrder ? 1 : -1 }
        return StoreValue.compare(a, b, collation: collation)
    }
}

extension StoreValue {
    /// Whether SQLite's `ORDER BY` treats it as NULL (NULL, and a NaN real, which SQLite stores as NULL).
    package var isNullInOrder: Bool {
        switch self {
        case .null: true
        case .real(let value): value.isNaN
        default: false
        }
    }
}
