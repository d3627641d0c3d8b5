/// What went wrong talking to PostgreSQL, with libpq's or the server's own
/// words — and never a password: every message has passed through
/// ``ConnectionString/removingPasswords(from:connectionString:)``.
///
/// The cases separate what a command-line tool answers differently: a server
/// that cannot be reached (`EX_UNAVAILABLE`), one that refuses the
/// credentials (`EX_NOPERM`), and a statement the server rejected.
///
///     do {
///         let connection = try PostgresConnection("postgres://alice@db.example/shop")
///         _ = try connection.query("SELECT * FROM orders WHERE id = $1", ["42"])
///     } catch .authenticationRefused(let message) {
///         print("refused: \(message)")
///     } catch {
///         print(error)
///     }
public enum PostgresError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connection could be made: no server listening, an unknown host, a
    /// bad connection string, a timeout while connecting.
    case cannotConnect(message: String)
    /// The server answered and refused the credentials (SQLSTATE `28P01`,
    /// `28000`, or libpq's "no password supplied").
    case authenticationRefused(message: String)
    /// The server rejected a statement: its SQLSTATE (`42P01` for an unknown
    /// table…), its message, and the statement.
    case statementFailed(sqlState: String, message: String, sql: String)
    /// An established connection broke (the backend was terminated, the
    /// server stopped); ``PostgresConnection/reset(timeout:)`` reconnects.
    case connectionLost(message: String)
    /// No answer came within the time allowed; the statement was cancelled
    /// and the connection must be reset before its next use.
    case timedOut(seconds: Double, sql: String)

    /// The sentence a person reads.
    public var description: String {
        switch self {
        case .cannotConnect(let message): "cannot connect: \(message)"
        case .authenticationRefused(let message): "authentication refused: \(message)"
        case .statementFailed(let sqlState, let message, _): "\(message) (SQLSTATE \(sqlState))"
        case .connectionLost(let message): "connection lost: \(message)"
        case .timedOut(let seconds, _): "no answer from the server within \(seconds) s"
        }
    }

    /// The server's SQLSTATE, when it sent one.
    public var sqlState: String? {
        if case .statementFailed(let sqlState, _, _) = self { return sqlState }
        return nil
    }
}
