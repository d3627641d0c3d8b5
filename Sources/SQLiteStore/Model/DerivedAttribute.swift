/// A read-only attribute computed from others, in SQL and in Swift alike.
///
/// The SQL form lets the store sort, filter and section by it; the Swift form
/// lets in-memory code (incremental change handling) compute the same value
/// without a query. Both must agree — tests should check that they do.
///
///     DerivedAttribute("publishedYear", .text, sql: "substr($.published_on, 1, 4)") { value in
///         guard case .text(let d) = value("publishedOn") else { return .null }
///         return .text(String(d.prefix(4)))
///     }
public struct DerivedAttribute: Sendable {
    /// The name used in key paths, sorts and section keys (`publishedYear`).
    public var name: String
    /// The type of the computed value.
    public var type: AttributeType
    /// The SQL template; `$.` stands for the table alias (`$.published_on` → `t1.published_on`).
    public var sql: String
    /// The Swift computation; `attribute(name)` reads another attribute of the same object.
    public var compute: @Sendable (_ attribute: (String) -> StoreValue) -> StoreValue
    /// A promise that lets a fetch skip the computation for most rows: when the attribute
    /// reads one attribute only, two TEXT values of it that agree on their first
    /// `decidingBytes` UTF-8 bytes (and have at least that many) give the same value — a
    /// date's year or day, a name's initial. nil (the default): no such promise.
    ///
    /// A fetch sectioned by such an attribute then reads the sorted attribute itself (which
    /// SQLite keeps in its sort anyway) instead of evaluating `sql` for every row.
    public var decidingBytes: Int?
    /// A value that sorts after every other in both directions (nil, the default: none) — the
    /// one section of the values of a date's attribute that are not dates
    /// (``notADate``), which comes after the years whether they run up or down. A sort by this
    /// attribute (and the controller's section order) puts it last, in SQL and in Swift.
    ///
    ///     DerivedAttribute.year("publishedYear", of: "publishedOn").sortsLast   // .text("(not a date)")
    public var sortsLast: StoreValue?

    /// A derived attribute from its SQL and the same computation in Swift (`decidingBytes`:
    /// see ``decidingBytes``; `sortsLast`: see ``sortsLast``).
    public init(
        _ name: String,
        _ type: AttributeType,
        sql: String,
        decidingBytes: Int? = nil,
        sortsLast: StoreValue? = nil,
        compute: @Sendable @escaping (_ attribute: (String) -> StoreValue) -> StoreValue
    ) {
        self.name = name
        self.type = type
        self.sql = sql
        self.decidingBytes = decidingBytes
        self.sortsLast = sortsLast
        self.compute = compute
    }

    /// The SQL with `$.` replaced by `alias.` (or removed when alias is nil, e.g. for an index expression).
    public func expression(alias: String?) -> String {
        sql.replacingOccurrences(of: "$.", with: alias.map { $0 + "." } ?? "")
    }
}
