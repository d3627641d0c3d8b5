import CLibPQ
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One connection to a PostgreSQL server through libpq: parameterized
/// queries, LISTEN/NOTIFY, cancel and reconnect — without ever waiting
/// longer than it is told to.
///
/// A connection is **thread-confined**: use it from one thread (or one
/// serial queue) at a time; it is deliberately not `Sendable`. Only a
/// ``QueryCanceller`` (from ``makeCanceller()``) may be used from another
/// thread while a statement runs.
///
/// Every wait — connecting, each statement, each wait for a notification —
/// is a `poll(2)` on the connection's socket with the deadline given, so a
/// stopped or unreachable server costs at most that deadline: a statement
/// that times out is cancelled (from a background thread), ends with ``PostgresError/timedOut(seconds:sql:)``,
/// and the connection must be ``reset(timeout:)`` before its next use.
///
///     let connection = try PostgresConnection("postgres://alice@db.example/shop", applicationName: "books")
///     let result = try connection.query("SELECT id, total FROM orders WHERE customer = $1", ["42"], timeout: 5)
///
/// The session is set up for reading by a person: `DateStyle` ISO and
/// `TimeZone` the terminal's (Foundation's current time zone, or the one
/// given), so `timestamptz` values come back in local time. Its
/// `client_encoding` is always `UTF8`, whatever the database's encoding
/// (`LATIN1`, `WIN1252`…) and whatever the connection string or
/// `PGCLIENTENCODING` say: the server converts every text to UTF-8 and back,
/// and refuses a character its database cannot hold.
public final class PostgresConnection {
    private var handle: OpaquePointer?
    private let connectionString: String?
    private let timeZone: String?
    /// Seconds any statement run without a `timeout` of its own may take
    /// (nil: no limit): a follower's connection sets it so that a stopped
    /// server costs it at most this long, whichever call it is in.
    public var statementTimeout: Double?
    /// Where in its SQL the last statement that failed went wrong, in characters from 0
    /// (the server's `P` field), or nil when the server did not say: an editor puts a caret there.
    public private(set) var lastErrorPosition: Int?
    private var listening: [String] = []
    private var needsReset = false
    /// The connection's notices: never libpq's default, which prints them on stderr.
    private let notices = NoticeSink()

    /// Connects with a connection string, or with libpq's environment alone
    /// when it is nil.
    ///
    /// - Parameters:
    ///   - connectionString: a URI (`postgres://[user[:password]@][host][:port][/dbname][?param=value&…]`,
    ///     also `postgresql://`) or `key=value` pairs; its parameters go to
    ///     libpq unchanged. What it leaves out comes from libpq's environment
    ///     (`PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGPASSWORD`,
    ///     `PGSSLMODE`…) and `~/.pgpass`, as with `psql`.
    ///   - applicationName: `application_name` for `pg_stat_activity`; an
    ///     `application_name` in the connection string wins.
    ///   - timeZone: the session's time zone; the terminal's by default.
    ///   - timeout: seconds to wait for the whole connection; by default the
    ///     string's `connect_timeout`, else no limit.
    /// - Throws: ``PostgresError/cannotConnect(message:)`` or
    ///   ``PostgresError/authenticationRefused(message:)``, without passwords.
    public init(
        _ connectionString: String? = nil,
        applicationName: String? = nil,
        timeZone: String? = TimeZone.current.identifier,
        timeout: Double? = nil
    ) throws(PostgresError) {
        self.connectionString = connectionString
        self.timeZone = timeZone
        var pairs: [(String, String)] = []
        if let applicationName { pairs.append(("application_name", applicationName)) }
        if let connectionString { pairs.append(("dbname", connectionString)) }
        // After the string, so that it wins: every text is read and sent as UTF-8 (libpq converts
        // from and to the database's encoding), whatever the string or PGCLIENTENCODING say.
        pairs.append(("client_encoding", "UTF8"))
        let keywords = pairs.map { strdup($0.0) } + [nil]
        let values = pairs.map { strdup($0.1) } + [nil]
        defer { for pointer in keywords + values { free(pointer) } }
        let started = keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keywordBuffer in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valueBuffer in
                PQconnectStartParams(keywordBuffer.baseAddress, valueBuffer.baseAddress, 1)
            }
        }
        guard let started else { throw .cannotConnect(message: "out of memory") }
        handle = started
        notices.install(on: started)
        // Verbose messages carry the SQLSTATE of a refusal during start-up.
        PQsetErrorVerbosity(started, PQERRORS_VERBOSE)
        let limit = timeout ?? Self.connectTimeout(of: started)
        try completeConnection(limit: limit) { PQconnectPoll(started) }
        PQsetErrorVerbosity(started, PQERRORS_DEFAULT)
        try prepareSession()
    }

    deinit { close() }

    /// Closes the connection (also done when it is released).
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    // MARK: State

    /// Called with each notice the server sends (``PostgresNotice``: a `NOTICE`, a `WARNING`,
    /// an error that arrived while idle), on the thread using the connection, during the call
    /// that read it. Nil (the default) keeps them in ``recentNotices`` only: a connection never
    /// writes to stderr, which may be a full-screen program's display.
    public var noticeHandler: ((PostgresNotice) -> Void)? {
        get { notices.handler }
        set { notices.handler = newValue }
    }

    /// The last notices the server sent (at most 20), oldest first.
    public var recentNotices: [PostgresNotice] { notices.recent }

    /// Whether the connection is open and usable.
    public var isConnected: Bool {
        guard let handle, !needsReset else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// The socket's file descriptor, for a caller's own `poll`/`select`
    /// loop (-1 when closed). It changes after ``reset(timeout:)``.
    public var socket: Int32 { handle.map(PQsocket) ?? -1 }

    /// The server's process ID serving this connection (`pg_backend_pid()`).
    public var backendPID: Int32 { handle.map(PQbackendPID) ?? 0 }

    /// The server's version as a number (150004 for 15.4).
    public var serverVersion: Int { handle.map { Int(PQserverVersion($0)) } ?? 0 }

    /// A canceller for this connection's running statement, usable from
    /// another thread; nil when closed. Make a new one after a reset.
    public func makeCanceller() -> QueryCanceller? {
        handle.flatMap { QueryCanceller(connection: $0) }
    }

    /// Reconnects with the same parameters (after the server restarted, the
    /// backend was terminated, or a statement timed out), sets the session
    /// up again and listens again on every channel it listened on.
    public func reset(timeout: Double? = nil) throws(PostgresError) {
        guard let handle else { throw .connectionLost(message: "the connection is closed") }
        needsReset = false
        PQsetErrorVerbosity(handle, PQERRORS_VERBOSE)
        guard PQresetStart(handle) == 1 else {
            throw .cannotConnect(message: redacted(PostgresConnection.message(of: handle)))
        }
        try completeConnection(limit: timeout ?? Self.connectTimeout(of: handle)) { PQresetPoll(handle) }
        PQsetErrorVerbosity(handle, PQERRORS_DEFAULT)
        try prepareSession()
        for channel in listening { _ = try execute("LISTEN \(SQLIdentifier.quote(channel))", timeout: timeout) }
    }

    // MARK: Statements

    /// Runs one statement with `$1`, `$2`… bound to `parameters` in text form
    /// (nil is NULL; the server infers each type from its use, cast with
    /// `$1::bigint` where it cannot). Values are never spliced into SQL.
    ///
    /// - Parameters:
    ///   - sql: one statement, with `$1`, `$2`… where the values go.
    ///   - parameters: the values in PostgreSQL's text form; nil is NULL.
    ///   - timeout: seconds to wait for the answer; nil waits as long as it takes.
    @discardableResult
    public func query(
        _ sql: String,
        _ parameters: [String?] = [],
        timeout: Double? = nil
    ) throws(PostgresError)
        -> QueryResult
    {
        let handle = try usableHandle()
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for pointer in copies { free(pointer) } }
        let sent = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
            PQsendQueryParams(handle, sql, Int32(parameters.count), nil, buffer.baseAddress, nil, nil, 0)
        }
        guard sent == 1 else { throw failure(of: handle) }
        return try awaitResults(of: handle, sql: sql, timeout: timeout ?? statementTimeout)
    }

    /// ``query(_:_:timeout:)`` with ``PostgresValue`` parameters, sent in
    /// their ``PostgresValue/parameterText`` form.
    @discardableResult
    public func query(
        _ sql: String,
        values: [PostgresValue],
        timeout: Double? = nil
    ) throws(PostgresError)
        -> QueryResult
    {
        try query(sql, values.map(\.parameterText), timeout: timeout)
    }

    /// The columns one statement would return, without running it: the statement is prepared
    /// (unnamed; the server refuses several statements) and described. Its `$1`, `$2`… get the
    /// types the server infers. An empty array: the statement returns no rows (`INSERT`, `SET`).
    public func describe(_ sql: String, timeout: Double? = nil) throws(PostgresError) -> [QueryResult.Column] {
        let handle = try usableHandle()
        guard PQsendPrepare(handle, "", sql, 0, nil) == 1 else { throw failure(of: handle) }
        _ = try awaitResults(of: handle, sql: sql, timeout: timeout ?? statementTimeout)
        guard PQsendDescribePrepared(handle, "") == 1 else { throw failure(of: handle) }
        return try awaitResults(of: handle, sql: sql, timeout: timeout ?? statementTimeout).columns
    }

    /// Runs SQL without parameters, which may hold several statements
    /// separated by `;` (DDL, a script); returns the last statement's result.
    @discardableResult
    public func execute(_ sql: String, timeout: Double? = nil) throws(PostgresError) -> QueryResult {
        let handle = try usableHandle()
        guard PQsendQuery(handle, sql) == 1 else { throw failure(of: handle) }
        return try awaitResults(of: handle, sql: sql, timeout: timeout ?? statementTimeout)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back
    /// when it throws.
    ///
    ///     try connection.transaction(isolation: "REPEATABLE READ") {
    ///         let snapshot = try connection.query("SELECT pg_current_snapshot()::text")
    ///         let rows = try connection.query("SELECT id FROM events ORDER BY ts DESC, id")
    ///     }
    public func transaction<T>(isolation: String? = nil, _ body: () throws -> T) throws -> T {
        try execute(isolation.map { "BEGIN ISOLATION LEVEL \($0)" } ?? "BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isConnected { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `COPY (…) TO STDOUT` (text format) and calls `row` with each data
    /// row as the server sent it: one line of tab-separated fields, `\N` for
    /// NULL, backslash escapes, ending in a newline. The bytes are valid only
    /// during the call. Streaming: the server writes while `row` works, with no
    /// round trip per page as a cursor's `FETCH` has. Returns the rows read.
    ///
    ///     let count = try connection.copyOut("COPY (SELECT id, title FROM book) TO STDOUT") { line in … }
    ///
    /// - Parameters:
    ///   - sql: a `COPY … TO STDOUT` statement (text format).
    ///   - timeout: seconds to wait for each piece of the answer; nil: ``statementTimeout``.
    ///     A server that stops sending for that long (stopped, frozen, unreachable) ends
    ///     the copy with ``PostgresError/timedOut(seconds:sql:)``.
    ///   - firstRowTimeout: seconds to wait for the start and the first row, which may come
    ///     only after the server has sorted every row; nil: `timeout`.
    ///   - row: called with each row's bytes; what it throws ends the copy (the
    ///     statement is cancelled) and is thrown.
    @discardableResult
    package func copyOut(
        _ sql: String,
        timeout: Double? = nil,
        firstRowTimeout: Double? = nil,
        row: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int {
        let handle = try usableHandle()
        guard PQsendQuery(handle, sql) == 1 else { throw failure(of: handle) }
        let pieceLimit = timeout ?? statementTimeout
        var limit = firstRowTimeout ?? pieceLimit
        try awaitCopyStart(of: handle, sql: sql, timeout: limit)
        var count = 0
        var failure: Error?
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let length = PQgetCopyData(handle, &buffer, 1)
            if length > 0, let buffer {
                defer { PQfreemem(buffer) }
                limit = pieceLimit
                if failure == nil {
                    do {
                        try row(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
                        count += 1
                    } catch {
                        failure = error
                        // Ask the server to stop; the rows already sent are read and dropped.
                        _ = makeCanceller()?.cancel()
                    }
                }
            } else if length == 0 {
                if try !wait(handle, forReading: true, seconds: limit) {
                    if let canceller = makeCanceller() {
                        DispatchQueue.global(qos: .utility).async { canceller.cancel() }
                    }
                    needsReset = true
                    throw PostgresError.timedOut(seconds: limit ?? 0, sql: sql)
                }
                guard PQconsumeInput(handle) == 1 else { throw lost(handle) }
            } else {
                break  // -1: the copy is complete; -2: failed (the result below says why)
            }
        }
        // The copy's own result ("COPY n"), or the error that ended it.
        do {
            _ = try awaitResults(of: handle, sql: sql, timeout: limit)
        } catch {
            if failure == nil { throw error }
        }
        if let failure { throw failure }
        return count
    }

    // MARK: Notifications

    /// Starts listening on `channel` (quoted as an identifier); the channel
    /// is listened on again after a ``reset(timeout:)``.
    public func listen(_ channel: String) throws(PostgresError) {
        try execute("LISTEN \(SQLIdentifier.quote(channel))")
        if !listening.contains(channel) { listening.append(channel) }
    }

    /// Stops listening on `channel`.
    public func unlisten(_ channel: String) throws(PostgresError) {
        try execute("UNLISTEN \(SQLIdentifier.quote(channel))")
        listening.removeAll { $0 == channel }
    }

    /// The notifications that have arrived, reading what the socket holds
    /// without waiting (`PQconsumeInput`, `PQnotifies`).
    public func notifications() throws(PostgresError) -> [PostgresNotification] {
        let handle = try usableHandle()
        guard PQconsumeInput(handle) == 1 else { throw lost(handle) }
        return drainNotifications(handle)
    }

    /// Waits up to `timeout` seconds for at least one notification and
    /// returns what arrived (empty when none did).
    public func waitForNotifications(timeout: Double) throws(PostgresError) -> [PostgresNotification] {
        let handle = try usableHandle()
        let deadline = Deadline(seconds: timeout)
        while true {
            guard PQconsumeInput(handle) == 1 else { throw lost(handle) }
            let arrived = drainNotifications(handle)
            if !arrived.isEmpty { return arrived }
            guard let remaining = deadline.remaining, remaining > 0 else { return [] }
            if try !wait(handle, forReading: true, seconds: remaining) { return [] }
        }
    }

    /// Escapes `identifier` for SQL with libpq (`PQescapeIdentifier`): double
    /// quotes around, embedded quotes doubled. ``SQLIdentifier/quote(_:)``
    /// gives the same text without a connection.
    package func escapeIdentifier(_ identifier: String) -> String {
        guard let handle, let escaped = PQescapeIdentifier(handle, identifier, identifier.utf8.count) else {
            return SQLIdentifier.quote(identifier)
        }
        defer { PQfreemem(escaped) }
        return String(cString: escaped)
    }

    /// Escapes `text` as a SQL string literal with libpq (`PQescapeLiteral`):
    /// for the few places that take no parameters (DDL such as a trigger's
    /// arguments). Anything else binds values as parameters.
    package func escapeLiteral(_ text: String) -> String {
        guard let handle, let escaped = PQescapeLiteral(handle, text, text.utf8.count) else {
            return "'" + text.replacing("'", with: "''") + "'"
        }
        defer { PQfreemem(escaped) }
        return String(cString: escaped)
    }

    // MARK: Steps

    private func prepareSession() throws(PostgresError) {
        if let handle, PQclientEncoding(handle) != PostgresConnection.utf8Encoding {
            // A server that cannot convert to UTF-8 (none can refuse it today): never read its bytes as UTF-8.
            throw .cannotConnect(message: "the server does not send UTF-8 (client_encoding UTF8 was refused)")
        }
        _ = try query("SELECT set_config('DateStyle', 'ISO, MDY', false)")
        if let timeZone {
            do {
                _ = try query("SELECT set_config('TimeZone', $1, false)", [timeZone])
            } catch .statementFailed {
                // A zone the server does not know: keep the server's own.
            }
        }
    }

    /// libpq's number of the UTF8 encoding (`pg_char_to_encoding("UTF8")`).
    private static let utf8Encoding = pg_char_to_encoding("UTF8")

    private func usableHandle() throws(PostgresError) -> OpaquePointer {
        guard let handle else { throw .connectionLost(message: "the connection is closed") }
        if needsReset { throw .connectionLost(message: "a statement timed out; the connection must be reset") }
        guard PQstatus(handle) == CONNECTION_OK else { throw lost(handle) }
        return handle
    }

    /// Drives PQconnectPoll/PQresetPoll to the end, waiting on the socket.
    private func completeConnection(
        limit: Double?,
        poll step: () -> PostgresPollingStatusType
    )
        throws(PostgresError)
    {
        guard let handle else { throw .cannotConnect(message: "the connection is closed") }
        if PQstatus(handle) == CONNECTION_BAD { throw connectionFailure(handle) }
        let deadline = Deadline(seconds: limit)
        var state = PGRES_POLLING_WRITING
        while state != PGRES_POLLING_OK {
            if state == PGRES_POLLING_FAILED { throw connectionFailure(handle) }
            let remaining = deadline.remaining
            if let remaining, remaining <= 0 { throw timedOutConnecting(handle) }
            let ready = try wait(handle, forReading: state == PGRES_POLLING_READING, seconds: remaining)
            if !ready { throw timedOutConnecting(handle) }
            state = step()
        }
    }

    /// Waits for a `COPY TO STDOUT`'s first result: `PGRES_COPY_OUT`, or the error that ends it.
    private func awaitCopyStart(of handle: OpaquePointer, sql: String, timeout: Double?) throws(PostgresError) {
        try awaitInput(of: handle, sql: sql, deadline: Deadline(seconds: timeout), timeout: timeout)
        guard let result = PQgetResult(handle) else { throw lost(handle) }
        if PQresultStatus(result) == PGRES_COPY_OUT {
            PQclear(result)
            return
        }
        let error = statementError(result, sql: sql)
        PQclear(result)
        while let rest = PQgetResult(handle) { PQclear(rest) }
        throw error
    }

    /// Reads the server's input until libpq is no longer busy, or the deadline passes: then the
    /// statement is cancelled, the connection marked for a reset, and `.timedOut` thrown.
    private func awaitInput(
        of handle: OpaquePointer,
        sql: String,
        deadline: Deadline,
        timeout: Double?
    ) throws(PostgresError) {
        while PQisBusy(handle) == 1 {
            let remaining = deadline.remaining
            var ready = remaining.map { $0 > 0 } ?? true
            if ready { ready = try wait(handle, forReading: true, seconds: remaining) }
            if !ready {
                // PQcancel waits for the server's answer, and a frozen server gives none:
                // ask from another thread, never from this one.
                if let canceller = makeCanceller() {
                    DispatchQueue.global(qos: .utility).async { canceller.cancel() }
                }
                needsReset = true
                throw .timedOut(seconds: timeout ?? 0, sql: sql)
            }
            guard PQconsumeInput(handle) == 1 else { throw lost(handle) }
        }
    }

    private func awaitResults(
        of handle: OpaquePointer,
        sql: String,
        timeout: Double?
    ) throws(PostgresError)
        -> QueryResult
    {
        let deadline = Deadline(seconds: timeout)
        var last: QueryResult?
        var firstError: PostgresError?
        while true {
            try awaitInput(of: handle, sql: sql, deadline: deadline, timeout: timeout)
            guard let result = PQgetResult(handle) else { break }
            switch PQresultStatus(result) {
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
                last = QueryResult(handle: result)
            default:
                if firstError == nil { firstError = statementError(result, sql: sql) }
                PQclear(result)
            }
        }
        if PQstatus(handle) != CONNECTION_OK { throw lost(handle) }
        if let firstError { throw firstError }
        guard let last else { throw .connectionLost(message: redacted(PostgresConnection.message(of: handle))) }
        return last
    }

    /// poll(2) on the socket; false when the time ran out.
    private func wait(_ handle: OpaquePointer, forReading: Bool, seconds: Double?) throws(PostgresError) -> Bool {
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(forReading ? POLLIN : POLLOUT), revents: 0)
        guard descriptor.fd >= 0 else { throw lost(handle) }
        let milliseconds = seconds.map { Int32(min(max($0 * 1000, 0).rounded(.up), Double(Int32.max))) } ?? -1
        while true {
            let ready = Glibc.poll(&descriptor, 1, milliseconds)
            if ready >= 0 { return ready > 0 }
            if errno != EINTR { throw .connectionLost(message: String(cString: strerror(errno))) }
        }
    }

    private func drainNotifications(_ handle: OpaquePointer) -> [PostgresNotification] {
        var arrived: [PostgresNotification] = []
        while let notify = PQnotifies(handle) {
            arrived.append(
                PostgresNotification(
                    channel: String(cString: notify.pointee.relname),
                    payload: notify.pointee.extra.map { String(cString: $0) } ?? "",
                    senderPID: notify.pointee.be_pid
                )
            )
            PQfreemem(notify)
        }
        return arrived
    }

    // MARK: Errors

    private static func connectTimeout(of handle: OpaquePointer) -> Double? {
        guard let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "connect_timeout", let value = option.pointee.val,
                let seconds = Double(String(cString: value)), seconds > 0
            {
                return max(seconds, 2)
            }
            option += 1
        }
        return nil
    }

    private static func message(of handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func redacted(_ message: String) -> String {
        ConnectionString.removingPasswords(from: message, connectionString: connectionString)
    }

    private func connectionFailure(_ handle: OpaquePointer) -> PostgresError {
        let verbose = PostgresConnection.message(of: handle)
        let message = redacted(StartupMessage.plain(verbose))
        return StartupMessage.isAuthenticationRefusal(verbose)
            ? .authenticationRefused(message: message) : .cannotConnect(message: message)
    }

    private func timedOutConnecting(_ handle: OpaquePointer) -> PostgresError {
        .cannotConnect(message: "timeout expired while connecting")
    }

    private func lost(_ handle: OpaquePointer) -> PostgresError {
        .connectionLost(message: redacted(PostgresConnection.message(of: handle)))
    }

    private func failure(of handle: OpaquePointer) -> PostgresError {
        PQstatus(handle) == CONNECTION_OK
            ? .statementFailed(sqlState: "", message: redacted(PostgresConnection.message(of: handle)), sql: "")
            : lost(handle)
    }

    private func statementError(_ result: OpaquePointer, sql: String) -> PostgresError {
        let field = { (code: Character) -> String? in
            PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
        }
        let sqlState = field("C") ?? ""
        lastErrorPosition = field("P").flatMap { Int($0) }.map { $0 - 1 }
        var message = field("M") ?? String(cString: PQresultErrorMessage(result))
        if let detail = field("D") { message += " (\(detail))" }
        return .statementFailed(sqlState: sqlState, message: redacted(message), sql: sql)
    }
}

@available(*, unavailable, message: "a connection is used from one thread at a time")
extension PostgresConnection: Sendable {}
