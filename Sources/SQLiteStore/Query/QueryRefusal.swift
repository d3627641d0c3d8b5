/// Why a statement cannot be a query source: a source is one statement that only reads and
/// returns rows (<doc:QuerySources>).
///
/// The ``message`` is the sentence a person reads (SQLite's own words for a statement it
/// could not prepare); ``offset``, when known, is where in the SQL text the trouble starts,
/// in characters from 0, so that an editor can put a caret there.
///
///     do { _ = try database.prepareReadOnlyQuery("DELETE FROM student") }
///     catch let refusal as QueryRefusal { print(refusal.reason, refusal.message) }   // .writes, "it writes: …"
public struct QueryRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of statement it is.
    public enum Reason: Equatable, Sendable {
        /// SQLite could not prepare it (a syntax error, an unknown table or column): ``message`` is SQLite's.
        case invalid
        /// There is no statement (only spaces or comments).
        case empty
        /// More than one statement (``offset`` is where the second starts).
        case severalStatements
        /// It writes (`INSERT`, `UPDATE`, `DELETE`, `CREATE`, `DROP`, …; SQLite's `sqlite3_stmt_readonly` says so).
        case writes
        /// It returns no rows (`BEGIN`, `COMMIT`, `PRAGMA x = 1`, `VACUUM`, …).
        case returnsNoRows
        /// `ATTACH` or `DETACH`: a source reads the database it was given, and nothing else.
        case attaches
        /// It sets a pragma (`PRAGMA query_only = 0`) or calls a function SQLite runs with side
        /// effects (`load_extension`, `fts3_tokenizer`, …).
        case sideEffects
        /// The connection it was prepared on can write: a query source runs on a read-only
        /// connection (``Database/openForQueries(path:)``).
        case writableConnection
        /// A parameter without a value, a value for no parameter, or a parameter that is not named (`?`).
        case parameters
    }

    /// What kind of statement it is.
    public let reason: Reason
    /// The sentence a person reads.
    public let message: String
    /// Where in the SQL text it starts to go wrong, in characters from 0 (nil: unknown).
    public let offset: Int?

    /// A refusal for `reason`, saying `message`, at character `offset` of the SQL.
    public init(_ reason: Reason, _ message: String, offset: Int? = nil) {
        self.reason = reason
        self.message = message
        self.offset = offset
    }

    public var description: String { message }
}
