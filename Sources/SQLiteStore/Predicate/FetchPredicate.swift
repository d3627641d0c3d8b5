/// A filter for fetched objects, written in an NSPredicate-like language.
///
/// The same predicate is compiled to SQL (with bound parameters; values are
/// never spliced into the SQL text) for fetching, and evaluated in Swift for
/// incremental change handling. Both follow SQLite's rules exactly, so they
/// always agree:
///
/// - **NULL** — a comparison with NULL is *unknown*, `NOT unknown` is unknown,
///   and an object whose predicate is unknown is excluded (three-valued
///   logic, as SQL). `x == nil` / `x != nil` test for NULL (`IS NULL`).
/// - **Types** — values compare in SQLite's order: NULL < numbers < text <
///   blobs (`StoreValue.compare`); `5 == "5"` is false.
/// - **Case** — `[c]` folds ASCII letters only (SQLite's NOCASE and
///   `lower()`); `É` and `é` stay different.
/// - **Strings** — `CONTAINS`, `BEGINSWITH`, `ENDSWITH` and `LIKE` compare
///   UTF-8 bytes; they are false for a non-text operand and unknown for NULL.
///   `LIKE` wildcards are `*` and `?` (`\` escapes).
/// - `[d]` (diacritic-insensitive) is refused with a parse error: SQLite has
///   no way to fold diacritics without a custom function.
///
/// Literals: `'text'` or `"text"` (escapes `\n \t \\ \' \" \uXXXX`),
/// integers, reals, dates `2024-01-01` (the store keeps dates as ISO text, so
/// this is `.text("2024-01-01")`), `nil`/`NULL`, `true`/`false`. `%@` takes
/// the next argument as a value, `%K` as a key path.
///
///     let p = try FetchPredicate("language == %@ AND details.publishedOn >= %@", .text("en"), .text("2020-01-01"))
///     let q = try FetchPredicate("name CONTAINS[c] 'book' OR details.publishedYear IN {'2008', '2009'}")
///     let r = try FetchPredicate("details.edition != nil AND NOT (author BEGINSWITH 'Le')")
public struct FetchPredicate: Sendable, Hashable, CustomStringConvertible {
    /// The parsed tree.
    public let expression: PredicateTree
    /// The format the predicate was parsed from (nil when built from a tree).
    public let format: String?

    /// Parses `format`, taking `%@` / `%K` arguments in order.
    ///
    ///     let p = try FetchPredicate("%K BEGINSWITH[c] %@", .text("name"), .text("first"))
    public init(_ format: String, _ arguments: StoreValue...) throws {
        try self.init(format, arguments: arguments)
    }

    /// Parses `format` with an array of `%@` / `%K` arguments.
    public init(_ format: String, arguments: [StoreValue]) throws {
        var parser = try PredicateParser(format: format, arguments: arguments)
        expression = try parser.parse()
        self.format = format
    }

    /// Wraps a tree built in code.
    public init(_ expression: PredicateTree) {
        self.expression = expression
        self.format = nil
    }

    /// `TRUEPREDICATE`.
    public static let alwaysTrue = FetchPredicate(.alwaysTrue)

    /// The key paths the predicate reads.
    public var keyPaths: [String] { expression.keyPaths }

    public var description: String { format ?? "\(expression)" }

    /// `self AND other`.
    public func and(_ other: FetchPredicate) -> FetchPredicate { FetchPredicate(.and(expression, other.expression)) }
    /// `self OR other`.
    public func or(_ other: FetchPredicate) -> FetchPredicate { FetchPredicate(.or(expression, other.expression)) }
    /// `NOT self`.
    public func negated() -> FetchPredicate { FetchPredicate(.not(expression)) }
}
