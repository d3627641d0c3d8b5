import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import SQLiteStore

/// A PostgreSQL table or view browsed through a local SQLite copy of it —
/// the replica — kept current from the server: the engine's fetched results
/// controller, sections, index, search, filter, detail, `list` and `watch`
/// then run over the copy exactly as over any SQLite table.
///
/// ``load(progress:status:)`` copies the rows into a SQLite file in the cache
/// folder (one file per server, database, schema and table), in one
/// transaction snapshot of the server. ``follow(track:status:applied:)``
/// then keeps it current on a thread of its own: from the change history
/// (PostgreSQLChangeFeed's, named by ``changeFeed``) when tracking, else by
/// polling the table's change counters and refetching. Each server
/// transaction's worth of changes is applied in one SQLite transaction, and
/// the file carries SQLiteStore's tracking triggers (named by
/// ``localTracking``), so a browser following the file reads each batch as
/// the exact rows it changed.
///
///     let replica = PostgresReplica(connectionString: "postgres://alice@db/shop",
///                                   table: TableName(schema: "public", name: "events"),
///                                   cacheDirectory: cacheFolder)
///     let preview = try replica.firstPage(orderBy: [OrderTerm("ts", ascending: false)], limit: 50)
///     let table = try replica.load { rows in print("\(rows) rows copied") }
///     replica.follow(track: false) { status in print(status) }
///     // open table.path with SQLiteStore, read-only, and follow it as another process's file
///     let deleted = try replica.delete(rowIDs: [42])
///     try replica.restore(deleted)   // undo
///     replica.stop()
///
/// Every method but ``stop(waiting:)`` talks to the server: call them off the
/// thread that reads keys. Each uses a connection of its own.
public final class PostgresReplica: @unchecked Sendable {
    /// The names of the replica file's tracking table and triggers (SQLiteStore's): a
    /// browser opens the file with them (SQLiteStore's `DatabaseCatalog`,
    /// `Store`), or it reads each change as a reset.
    public let localTracking: TrackingNames
    /// The names of the server table's change history (PostgreSQLChangeFeed's): the
    /// history table, its triggers and channel that tracking installs and reads.
    public let changeFeed: ChangeFeedConfiguration

    /// The libpq connection string (a URI or `key=value` pairs); nil for
    /// libpq's environment alone (`PGHOST`, `PGDATABASE`…).
    public let connectionString: String?
    /// The server table or view.
    public let table: TableName
    /// The folder the replica file goes in.
    public let cacheDirectory: String
    /// `application_name` of the replica's connections (`pg_stat_activity`); nil for libpq's
    /// default (`PGAPPNAME`, else none).
    public let applicationName: String?
    /// Seconds to wait for a connection, and for any one statement of a
    /// follower (then it reconnects).
    public let timeout: Double
    /// The time zone `timestamptz` values are copied in: the terminal's by default.
    public let timeZone: String?

    /// Called with each notice the server sends on any of the replica's connections (a
    /// `WARNING`, an error that arrived while idle), on the thread of that connection; nil
    /// drops them. Never printed: the replica's connections write nothing to stderr.
    public var noticeHandler: (@Sendable (PostgresNotice) -> Void)? {
        get { lock.withLock { notices } }
        set { lock.withLock { notices = newValue } }
    }
    private var notices: (@Sendable (PostgresNotice) -> Void)?

    /// Called while a load (``firstPage(orderBy:limit:)``, ``load(progress:status:)``) waits
    /// for a lock another session holds on the table, each half second, with who holds it; then
    /// with nil once it has the lock. On the load's thread; nil (the default) says nothing. The
    /// load waits as long as the lock is held — PostgreSQL's way — with no statement of its own
    /// on the server for longer than half a second at a time, until the load is cancelled.
    public var lockWaitHandler: (@Sendable (ReplicaLockWait?) -> Void)? {
        get { lock.withLock { lockWaits } }
        set { lock.withLock { lockWaits = newValue } }
    }
    private var lockWaits: (@Sendable (ReplicaLockWait?) -> Void)?

    private let lock = NSLock()
    private var loaded: LoadedReplica?
    private var follower: ReplicaFollower?
    /// The background syncs of the files this replica copied (``ReplicaDurability``).
    private var syncs: [ReplicaDurability] = []
    /// Wakes a ``load(progress:status:)`` waiting to copy again when ``stop(waiting:)`` is called.
    private let loadCondition = NSCondition()
    private var loadStopped = false
    /// ``cancelLoad()`` was called: no load copies from then on (never reset).
    private var loadCancelled = false
    /// The cancel of the copy's connection, while a copy runs.
    private var loadCanceller: QueryCanceller?

    /// A replica of `table` on the server `connectionString` names, kept in
    /// `cacheDirectory` with the tracking triggers `localTracking` (SQLiteStore's
    /// `store_tracking` unless given), tracking the server table with the history
    /// `changeFeed` names (PostgreSQLChangeFeed's defaults unless given); its connections
    /// wait `timeout` seconds at most and read `timestamptz` in `timeZone`.
    public init(
        connectionString: String?,
        table: TableName,
        cacheDirectory: String,
        applicationName: String? = nil,
        timeout: Double = 10,
        timeZone: String? = TimeZone.current.identifier,
        localTracking: TrackingNames = .standard,
        changeFeed: ChangeFeedConfiguration = ChangeFeedConfiguration()
    ) {
        self.localTracking = localTracking
        self.changeFeed = changeFeed
        self.timeZone = timeZone
        self.connectionString = connectionString
        self.table = table
        self.cacheDirectory = cacheDirectory
        self.applicationName = applicationName
        self.timeout = timeout
    }

    deinit { follower?.stop() }

    // MARK: Copying

    /// The replica's file path: in ``cacheDirectory``, named after the
    /// server, database, schema and table (never the password).
    public var path: String {
        ReplicaLocation(connectionString: connectionString, table: table, directory: cacheDirectory).path
    }

    /// The first `limit` rows in the order `orderBy` (the primary key breaks
    /// ties, as the replica's row id does; the server's order, which the
    /// replica's order columns keep: NULL last ascending), read straight from the
    /// server: what a browser shows while ``load(progress:status:)`` still copies.
    ///
    /// - Throws: ``ReplicaError/server(_:)``, ``ReplicaError/noSuchTable(name:existing:)``.
    public func firstPage(orderBy: [OrderTerm], limit: Int) throws(ReplicaError) -> ReplicaPreview {
        let connection = try connect()
        connection.statementTimeout = timeout  // a frozen server fails the page, never hangs it
        try startCancellableLoad(on: connection)
        defer { loadCondition.withLock { loadCanceller = nil } }
        try waitForTheTable(on: connection)
        let description = try describe(on: connection)
        let shape = ReplicaShape(description, changeFeed: changeFeed)
        let rows = try ReplicaCopy.firstPage(shape: shape, orderBy: orderBy, limit: limit, on: connection)
        return ReplicaPreview(columns: shape.columns, rows: rows)
    }

    /// Copies the table into a new replica file (replacing an older one
    /// atomically: a browser that has the old one open keeps reading it)
    /// and returns it, ready to browse. `progress` is called with the rows
    /// copied so far, on this thread.
    ///
    /// The copy reads one transaction snapshot of the server and remembers
    /// it, so that ``follow(track:status:applied:)`` applies exactly what
    /// committed after it. When a session that ended left a replica of the
    /// same table, made under the change history installed now, that file is
    /// taken over instead and brought up to date from the history before this
    /// returns (the rows are the server's as of now, as after a copy); any
    /// other left file — another table's identity (oid, columns, key, time
    /// zone), no history then, a history made again since, a position older
    /// than its retention — is removed and the table copied. A server that sends nothing for two seconds (or
    /// ``timeout`` when shorter; the first row may take the whole ``timeout``)
    /// counts as out of reach, as for a follower.
    ///
    /// Without `status`, the first failure is thrown. With it, a server out of
    /// reach — not answering, a lost connection, a restart — does not end the
    /// load: `status` gets ``ReplicaStatus/reconnecting(since:lastError:)`` (the
    /// time of the server's last answer), the copy starts again from the start
    /// (a new snapshot: nothing is lost) after a backoff of 0.25 s doubling to
    /// 5 s, and `.live` once the server answers again — until the copy is
    /// complete, fails otherwise (an unknown table, a refused role, the cache),
    /// or ``stop(waiting:)`` is called (then the last failure is thrown).
    ///
    ///     let table = try replica.load(progress: { rows in … }, status: { status in /* status line */ })
    ///
    /// - Throws: ``ReplicaError/server(_:)``, ``ReplicaError/noSuchTable(name:existing:)``,
    ///   ``ReplicaError/cache(path:message:)``.
    public func load(
        progress: (@Sendable (Int) -> Void)? = nil,
        status: (@Sendable (ReplicaStatus) -> Void)? = nil
    ) throws(ReplicaError) -> ReplicaTable {
        try load(sortingBy: nil, syncingInBackground: false, progress: progress, status: status).table
    }

    /// ``load(progress:status:)`` for a browser waiting to show the whole list: the copied rows
    /// also come in the order `term` (then the id), sorted as they arrived on another core, so
    /// that its first fetch need not sort the replica again; and a new copy is synced to disk
    /// in the background instead of before this returns (see *Copying, and what it costs*;
    /// ``stop(waiting:)`` waits for that sync). The order is the server's (NULL last
    /// ascending); for a column with an order column (``ReplicaColumn/orderColumn``, which
    /// `term` may name as well) it is of that column's keys. It is nil without `term`, when the
    /// rows are not named by one integer key, when the column is neither kept as text compared
    /// byte for byte (text, date, timestamp) nor ordered by an order column, or when an earlier
    /// session's replica was taken over instead of copied.
    ///
    ///     let (table, order) = try replica.load(sortingBy: OrderTerm("ts", ascending: false))
    ///
    /// - Throws: as ``load(progress:status:)``.
    public func load(
        sortingBy term: OrderTerm?,
        progress: (@Sendable (Int) -> Void)? = nil,
        status: (@Sendable (ReplicaStatus) -> Void)? = nil
    ) throws(ReplicaError) -> (table: ReplicaTable, order: ReplicaRowOrder?) {
        try load(sortingBy: term, syncingInBackground: true, progress: progress, status: status)
    }

    private func load(
        sortingBy term: OrderTerm?,
        syncingInBackground: Bool,
        progress: (@Sendable (Int) -> Void)?,
        status: (@Sendable (ReplicaStatus) -> Void)?
    ) throws(ReplicaError) -> (table: ReplicaTable, order: ReplicaRowOrder?) {
        loadCondition.withLock { loadStopped = false }
        var lastContact = Date()
        var failing = false
        var backoff = 0.25
        var reshaped = 0
        while true {
            do {
                let loaded = try copyOnce(sortingBy: term, syncingInBackground: syncingInBackground) { rows in
                    lastContact = Date()
                    if failing {
                        failing = false
                        status?(.live)
                    }
                    progress?(rows)
                }
                if failing { status?(.live) }
                return loaded
            } catch {
                // A column renamed or dropped while the copy ran: described again and copied with the new shape.
                if error.isShapeChange && reshaped < 3 {
                    reshaped += 1
                    continue
                }
                guard let status, error.isOutOfReach, !loadCondition.withLock({ loadCancelled }) else { throw error }
                failing = true
                status(.reconnecting(since: lastContact, lastError: error.description))
                guard pauseLoad(backoff) else { throw error }
                backoff = min(backoff * 2, 5)
            }
        }
    }

    /// One copy of the table, start to end.
    private func copyOnce(
        sortingBy term: OrderTerm?,
        syncingInBackground: Bool,
        progress: @escaping (Int) -> Void
    ) throws(ReplicaError) -> (table: ReplicaTable, order: ReplicaRowOrder?) {
        let connection = try connect()
        connection.statementTimeout = timeout
        try startCancellableLoad(on: connection)
        defer { loadCondition.withLock { loadCanceller = nil } }
        try waitForTheTable(on: connection)
        let description = try describe(on: connection)
        let shape = ReplicaShape(description, changeFeed: changeFeed)
        let identity: String
        let adopted: LoadedReplica?
        do {
            identity = try ReplicaState.identity(of: shape, timeZone: timeZone, tracking: localTracking, on: connection)
            adopted = try ReplicaAdoption(shape: shape, path: path, tracking: localTracking, identity: identity)
                .adopt(on: connection)
        } catch {
            throw .wrap(error)
        }
        if let adopted {
            lock.withLock { loaded = adopted }
            return (adopted.table, nil)
        }
        var copy = ReplicaCopy(
            shape: shape,
            path: path,
            tracking: localTracking,
            timeout: timeout,
            contactTimeout: min(timeout, ReplicaFollower.contactTimeout)
        )
        copy.order = term
        let (copied, order) = try copy.run(on: connection, progress: progress)
        let sync = ReplicaDurability(path: path, identity: identity)
        if !syncingInBackground { sync.wait() }
        lock.withLock {
            loaded = copied
            syncs.append(sync)
        }
        return (copied.table, order)
    }

    /// Stops a ``load(progress:status:)`` for good (a person gave up waiting for it), and a
    /// ``firstPage(orderBy:limit:)`` of it: the statement either runs is cancelled on the server (`PQcancel`, sent from a thread of
    /// its own, as it waits for the server's answer), it copies no more, and it throws — the
    /// replica's file left as a failed copy leaves it (a copy half made is removed). One
    /// asked before the load starts stops it before it copies. Any thread may call it.
    package func cancelLoad() {
        let canceller = loadCondition.withLock {
            loadCancelled = true
            loadStopped = true
            loadCondition.broadcast()
            return loadCanceller
        }
        if let canceller { DispatchQueue.global(qos: .userInitiated).async { canceller.cancel() } }
    }

    /// Lets ``cancelLoad()`` cancel the copy's statements on `connection`; throws when it was already called.
    private func startCancellableLoad(on connection: PostgresConnection) throws(ReplicaError) {
        let cancelled = loadCondition.withLock {
            loadCanceller = connection.makeCanceller()
            return loadCancelled
        }
        if cancelled { throw .server(.statementFailed(sqlState: "57014", message: "the copy was cancelled", sql: "")) }
    }

    /// Waits until no other session holds a lock that keeps the table from being read, telling
    /// ``lockWaitHandler`` who does each try (``ReplicaLockWait``); the copy's own statements
    /// then need not wait for it, nor count a lock's wait as a server out of reach.
    ///
    /// - Throws: ``ReplicaError/server(_:)``: the connection's failures, and a ``cancelLoad()``.
    private func waitForTheTable(on connection: PostgresConnection) throws(ReplicaError) {
        var since: Date?
        do throws(PostgresError) {
            while try !ReplicaLockWait.tryLock(table, on: connection) {
                let start = since ?? Date(timeIntervalSinceNow: -Double(ReplicaLockWait.tryMilliseconds) / 1000)
                since = start
                let holders = try ReplicaLockWait.holders(of: table, on: connection)
                lockWaitHandler?(ReplicaLockWait(table: table, holders: holders, since: start))
                if loadCondition.withLock({ loadCancelled }) {
                    throw PostgresError.statementFailed(sqlState: "57014", message: "the copy was cancelled", sql: "")
                }
            }
        } catch {
            throw .server(error)
        }
        if since != nil { lockWaitHandler?(nil) }
    }

    /// Sleeps up to `seconds` before a load copies again; false when stopped meanwhile.
    private func pauseLoad(_ seconds: Double) -> Bool {
        loadCondition.lock()
        defer { loadCondition.unlock() }
        let until = Date(timeIntervalSinceNow: seconds)
        while !loadStopped && loadCondition.wait(until: until) {}
        return !loadStopped
    }

    // MARK: Following

    /// Installs the change history on the server table: PostgreSQLChangeFeed's
    /// history table and triggers, named by ``changeFeed``.
    /// Needs the right to create a table in the schema and triggers on the table.
    ///
    /// - Throws: ``ReplicaError/readOnly(reason:)`` for a view or a table
    ///   without a primary key; ``ReplicaError/trackingRefused(message:)`` when
    ///   the server refuses; ``ReplicaError/server(_:)``.
    public func installTracking() throws(ReplicaError) {
        let connection = try connect()
        let shape = ReplicaShape(try describe(on: connection), changeFeed: changeFeed)
        guard let feed = shape.feed else {
            throw .readOnly(reason: shape.readOnlyReason ?? "the table has no primary key")
        }
        do {
            try feed.install(on: connection)
        } catch let error as PostgresError {
            if let state = error.sqlState, state.hasPrefix("42") { throw .trackingRefused(message: error.description) }
            throw .server(error)
        } catch {
            throw .trackingRefused(message: "\(error)")
        }
    }

    /// Removes everything ``installTracking()`` made: the schema is as before.
    public func removeTracking() throws(ReplicaError) {
        let connection = try connect()
        let shape = ReplicaShape(try describe(on: connection), changeFeed: changeFeed)
        guard let feed = shape.feed else { return }
        do { try feed.uninstall(on: connection) } catch { throw ReplicaError.wrap(error) }
    }

    /// Starts keeping the replica current on a thread of its own (with its
    /// own connection), until ``stop(waiting:)``. With `track`, from the change
    /// history (installed if it was never in place; a refusal is reported through
    /// `status` as `.reconnecting` — call ``installTracking()`` first to
    /// report it yourself; removed while following, the table is copied again and
    /// polled: ``ReplicaStatus/untracked(reason:)``) — for a view, the histories of
    /// the tables it reads, whose notifications refetch it; without, by polling
    /// the table's change counters (a view's or a partitioned table's: its tables')
    /// about once a second and refetching. Rows no counter follows are copied again
    /// every few seconds (``ReplicaStatus/notLive(reason:checkedAt:)``). `status` is
    /// called (on the follower's thread) when the connection is lost or back; `applied`
    /// after each applied batch. Does nothing before ``load(progress:status:)``,
    /// or when already following.
    public func follow(
        track: Bool,
        status: @escaping @Sendable (ReplicaStatus) -> Void,
        applied: (@Sendable (ReplicaBatch) -> Void)? = nil
    ) {
        lock.withLock {
            guard let loaded, follower == nil else { return }
            let made = ReplicaFollower(
                replica: loaded,
                track: track,
                connect: { [connectionString, applicationName, timeout, timeZone, notices] in
                    let connection = try PostgresConnection(
                        connectionString,
                        applicationName: applicationName,
                        timeZone: timeZone,
                        timeout: timeout
                    )
                    connection.noticeHandler = notices
                    connection.statementTimeout = timeout
                    return connection
                },
                timeout: timeout,
                status: status,
                applied: applied
            )
            follower = made
            made.start()
        }
    }

    /// Stops following (and a ``load(progress:status:)`` waiting to copy again) and,
    /// with `waiting`, waits until the follower's thread
    /// has ended (at most about one statement's ``timeout``). A program about
    /// to exit need not wait — a frozen server would hold its exit that long:
    /// the thread then ends at its next step, and a batch it was applying is
    /// one SQLite transaction, whole or not at all. The replica keeps what it holds.
    /// Waiting also waits for the sync of a file it copied (a quarter of a second at a million
    /// rows): a later session takes the file over only once it is on disk.
    public func stop(waiting: Bool = true) {
        loadCondition.withLock {
            loadStopped = true
            loadCondition.broadcast()
        }
        let (stopping, syncing) = lock.withLock {
            let current = follower
            follower = nil
            return (current, syncs)
        }
        stopping?.stop(waiting: waiting)
        if waiting { for sync in syncing { sync.wait() } }
    }

    // MARK: Writing

    /// What the connected role may do with the table (`has_table_privilege`).
    public func privileges() throws(ReplicaError) -> TablePrivileges {
        let connection = try connect()
        do { return try Catalog.privileges(of: table, on: connection) } catch { throw .server(error) }
    }

    /// Deletes the rows the replica names `rowIDs` on the server, by primary
    /// key, in one transaction, then from the replica (one SQLite
    /// transaction: a browser following the file sees them go as one batch).
    /// Returns the rows as the server held them, for ``restore(_:)``. Rows
    /// already gone are left out. Connecting and each statement wait
    /// ``timeout`` at most; it blocks meanwhile, so call it off the thread
    /// that reads keys.
    ///
    /// - Throws: ``ReplicaError/readOnly(reason:)`` for a view or a table
    ///   without a primary key, or a row whose undo could not be done
    ///   (``undoRefusal(of:on:)``); ``ReplicaError/locked(holders:waited:)`` when
    ///   another transaction holds the row (or the table) for more than 60 % of
    ///   ``timeout``, naming it; ``ReplicaError/server(_:)`` when the server
    ///   refuses (a constraint, no privilege, a lost connection) — then
    ///   nothing was deleted anywhere.
    public func delete(rowIDs: [Int64]) throws(ReplicaError) -> [DeletedRow] {
        let replica = try loadedReplica()
        let connection = try connect()
        connection.statementTimeout = timeout  // a server that stops answering fails the delete, never hangs it
        // A lock another transaction holds is given up on before the statement's timeout, to say whose it is.
        var writes = ReplicaWrites(replica: replica)
        writes.lockTimeout = max(0.5, timeout * 0.6)
        return try writes.delete(rowIDs: rowIDs, on: connection)
    }

    /// Writes `rows` (from ``delete(rowIDs:)``) back to the server in one
    /// transaction, then to the replica under their old row ids (undo). Returns them as
    /// the server then holds them, for ``delete(_:)`` (redo).
    ///
    /// - Throws: ``ReplicaError/server(_:)`` (a row with the key exists
    ///   again, no privilege…) — then nothing was written.
    @discardableResult
    public func restore(_ rows: [DeletedRow]) throws(ReplicaError) -> [AddedRow] {
        let replica = try loadedReplica()
        let connection = try connect()
        connection.statementTimeout = timeout
        return try ReplicaWrites(replica: replica).restore(rows, on: connection)
    }

    /// Deletes rows a write put on the server — undo of ``insert(_:)``, redo of a delete
    /// ``restore(_:)`` undid — in one transaction, each only while it still holds what the
    /// write left there (every column's server text compared, the rows locked `FOR UPDATE`),
    /// then from the replica. Returns the rows as the server held them, for ``restore(_:)``;
    /// rows already gone are left out.
    ///
    ///     let added = try replica.insert(["name": "Ada"])
    ///     let deleted = try replica.delete([added])   // undo
    ///
    /// - Throws: ``ReplicaError/conflict(reason:)`` when another session changed a row since
    ///   (`qty was changed by another session since it was added: not deleted`) — nothing is
    ///   deleted, and the replica shows their row; otherwise as ``delete(rowIDs:)``.
    public func delete(_ rows: [AddedRow]) throws(ReplicaError) -> [DeletedRow] {
        let replica = try loadedReplica()
        let connection = try connect()
        connection.statementTimeout = timeout
        var writes = ReplicaWrites(replica: replica)
        writes.lockTimeout = max(0.5, timeout * 0.6)
        return try writes.delete(rows, on: connection)
    }

    /// Writes `text` (nil: NULL), cast to the column's type, into `column` of the row the
    /// replica names `rowID` — only when the server still holds `expecting` there (the value the
    /// browser showed): the row is locked, compared and updated in one transaction, then the
    /// replica reads it again (one SQLite transaction). Returns the write, for ``revert(_:)``.
    ///
    ///     let edit = try replica.update(rowID: 7, column: "price", to: "2.50", expecting: .shown(.text("2.00")))
    ///     let undone = try replica.revert(edit)   // undo; try replica.revert(undone) redoes
    ///
    /// - Throws: ``ReplicaError/conflict(reason:)`` when another session changed or deleted the
    ///   row since (nothing written; the replica then shows its value);
    ///   ``ReplicaError/readOnly(reason:)`` for a view, a table without a primary key, a generated
    ///   or `GENERATED ALWAYS` identity column, `bytea`, a value before that is not UTF-8;
    ///   ``ReplicaError/locked(holders:waited:)``; ``ReplicaError/server(_:)`` when the server
    ///   refuses the value (its SQLSTATE: `22P02` not of the type, `23502` NOT NULL, `23514`
    ///   CHECK, `23505` UNIQUE, `23503` a foreign key, `42501` no privilege).
    public func update(
        rowID: Int64,
        column: String,
        to text: String?,
        expecting: CellExpectation
    ) throws(ReplicaError) -> EditedCell {
        let replica = try loadedReplica()
        let connection = try connect()
        connection.statementTimeout = timeout
        var writes = ReplicaWrites(replica: replica)
        writes.lockTimeout = max(0.5, timeout * 0.6)
        return try writes.update(rowID: rowID, column: column, to: text, expecting: expecting, on: connection)
    }

    /// Writes `edit`'s value before back, only when the server still holds the value `edit`
    /// left (undo); returns the reverse write, whose revert is redo.
    ///
    /// - Throws: as ``update(rowID:column:to:expecting:)``: a ``ReplicaError/conflict(reason:)``
    ///   when another session changed the cell since.
    public func revert(_ edit: EditedCell) throws(ReplicaError) -> EditedCell {
        let replica = try loadedReplica()
        let connection = try connect()
        connection.statementTimeout = timeout
        var writes = ReplicaWrites(replica: replica)
        writes.lockTimeout = max(0.5, timeout * 0.6)
        return try writes.revert(edit, on: connection)
    }

    /// Inserts a row on the server (`INSERT … RETURNING` its key) with `values` — column name to
    /// text cast to the column's type, nil for NULL; the columns left out take their DEFAULT,
    /// identity or generated value — then into the replica; returns the row as the server
    /// held it (``AddedRow``: every column's text, read back in the insert's transaction) and
    /// its row id there. Undo is ``delete(_:)``, which deletes it only while it still holds that.
    ///
    ///     let added = try replica.insert(["name": "Ada", "born": "1815-12-10"])
    ///     print(added.rowID)
    ///
    /// - Throws: ``ReplicaError/readOnly(reason:)`` for a view, a table without a primary key,
    ///   a generated column given; ``ReplicaError/server(_:)`` when the server refuses the row.
    public func insert(_ values: [String: String?]) throws(ReplicaError) -> AddedRow {
        let replica = try loadedReplica()
        let connection = try connect()
        connection.statementTimeout = timeout
        return try ReplicaWrites(replica: replica).insert(values, on: connection)
    }

    /// Why a cell of `column` is never edited by ``update(rowID:column:to:expecting:)`` (nil: it
    /// can be): a generated column, an identity column `GENERATED ALWAYS`, `bytea` (the replica
    /// holds its size). A browser asks before it opens the editor.
    ///
    ///     PostgresReplica.editRefusal(of: total)   // "total is a generated column (the server computes it)"
    public static func editRefusal(of column: ColumnDescription) -> String? {
        TableWrites.editRefusal(of: column)
    }

    /// Why a row deleted from `table` could not be written back as it was by ``restore(_:)``
    /// — then ``delete(rowIDs:)`` refuses to delete it — or nil when it can: the role may insert
    /// every column undo writes (all but generated ones), and no other table's foreign key
    /// changes rows when one is deleted (`ON DELETE CASCADE`, `SET NULL`, `SET DEFAULT`).
    /// A browser asks before it offers delete.
    ///
    ///     if let reason = try PostgresReplica.undoRefusal(of: table, on: connection) { print(reason) }
    public static func undoRefusal(
        of table: TableDescription,
        on connection: PostgresConnection
    ) throws(PostgresError) -> String? {
        try TableWrites.undoRefusal(of: table, on: connection)
    }

    // MARK: Steps

    private func loadedReplica() throws(ReplicaError) -> LoadedReplica {
        guard let loaded = lock.withLock({ loaded }) else { throw .notLoaded }
        return loaded
    }

    private func connect() throws(ReplicaError) -> PostgresConnection {
        do {
            let connection = try PostgresConnection(
                connectionString,
                applicationName: applicationName,
                timeZone: timeZone,
                timeout: timeout
            )
            connection.noticeHandler = noticeHandler
            return connection
        } catch {
            throw .server(error)
        }
    }

    private func describe(on connection: PostgresConnection) throws(ReplicaError) -> TableDescription {
        do {
            if let found = try Catalog.table(named: table.description, on: connection)
                ?? Catalog.table(named: table.quoted, on: connection)
            {
                return found
            }
            throw ReplicaError.noSuchTable(
                name: table.description,
                existing: try Catalog.tables(on: connection).map(\.displayName)
            )
        } catch let error as ReplicaError {
            throw error
        } catch {
            throw .wrap(error)
        }
    }
}

extension ReplicaError {
    /// Whether the server is out of reach (not answering, a lost connection, a restart),
    /// which trying again later may mend.
    var isOutOfReach: Bool {
        guard case .server(let error) = self else { return false }
        switch error {
        case .cannotConnect, .connectionLost, .timedOut: return true
        case .statementFailed(let state, _, _): return state.hasPrefix("57") || state.hasPrefix("08")
        case .authenticationRefused: return false
        }
    }

    /// Whether the server refused a statement for naming a column the table no longer has
    /// (renamed or dropped since the table was described).
    var isShapeChange: Bool {
        guard case .server(let error) = self else { return false }
        return error.sqlState == "42703"
    }

    /// Any error of the layers below as a replica error.
    static func wrap(_ error: Error) -> ReplicaError {
        switch error {
        case let error as ReplicaError: error
        case let error as PostgresError: .server(error)
        case let error as SQLiteError: .cache(path: "", message: error.description)
        default: .cache(path: "", message: "\(error)")
        }
    }
}
