import CLIKit
import PostgreSQLClient

/// A server table chosen and checked, before any row is copied: what every PostgreSQL
/// face (`list`, `watch`, the browser) does first, so each refusal — 69, 77, 64 — comes
/// before anything is shown or written.
struct PostgresOpening {
    /// The server.
    let server: PostgresServer
    /// The table or view `--table` named (or the only one).
    let table: TableDescription
    /// The options checked against its columns.
    let query: TableQuery
    /// Why rows cannot be changed at all (nil: they can): a view, no primary key, `--read-only`.
    let readOnlyReason: String?
    /// Why the role may not delete, edit or add rows (read only when ``readOnlyReason`` is nil).
    var writeRefusals = PostgresWriteRefusals()
    /// The columns' `DEFAULT`s, for the form of a new row (`a`).
    var columnDefaults: [String: String] = [:]
    /// The bound of the copies in the cache (`--cache-limit`).
    var cacheLimit = CacheLimit.standard
    /// One-line notices of `--track` (an upgrade made, or one its owner should make), to show once.
    var notices: [String] = []

    /// Connects to `options.postgres`, chooses the table (nil: several and `command` is the
    /// browser's, which shows the table list) and checks the options; `--track` installs the history.
    ///
    /// - Throws: ``FetchedTableError`` 69, 77 (credentials, or a privilege `--track` needs), 64.
    static func open(
        _ options: TableOptions,
        command: String
    ) throws(FetchedTableError) -> (server: PostgresServer, opening: PostgresOpening?) {
        guard let target = options.postgres else { throw .usage("not a PostgreSQL URL: \(options.file)") }
        let server = try PostgresServer.connect(target)
        guard let table = try server.soleTable(options.table, command: command) else { return (server, nil) }
        let opening = try open(table, on: server, options: options)
        for notice in opening.notices { writeStandardError("\(ProgramName.current): \(notice)\n") }
        return (server, opening)
    }

    /// `table` on `server` checked against `options` (and tracked with `--track`; its notices
    /// in ``notices``, for the caller to show).
    static func open(
        _ table: TableDescription,
        on server: PostgresServer,
        options: TableOptions
    ) throws(FetchedTableError) -> PostgresOpening {
        let query = try PostgresServer.query(for: table, options: options)
        let notices = options.track ? try server.installTracking(on: table) : []
        let reason = server.readOnlyReason(of: table, options: options)
        var opening = PostgresOpening(server: server, table: table, query: query, readOnlyReason: reason)
        if reason == nil {
            opening.writeRefusals = try server.writeRefusals(of: table)
            opening.columnDefaults = try server.columnDefaults(of: table)
        }
        opening.cacheLimit = options.cacheLimit
        opening.notices = notices
        return opening
    }
}
