import CSQLite
import Foundation
import Synchronization

/// A query over a SQLite file as a live source: its result kept in a ``QueryResultTable``, run
/// again whenever another connection commits a change to a table it reads, and brought up to
/// date by the difference — which a controller over the result table reads as the rows that
/// changed, and a table view animates (<doc:QuerySources>).
///
/// The query is checked and prepared on a read-only connection of its own
/// (``Database/openForQueries(path:)``, ``Database/prepareReadOnlyQuery(_:)``). Its rows are
/// told apart by `key` when given; else by the key of the one table it reads when its result
/// holds that key (``sourceTable``); else by their content. After ``load(progress:)``,
/// ``follow(_:)`` watches the file on a thread of its own: each `pollInterval` it asks SQLite
/// whether anyone committed (`PRAGMA data_version`), and on a commit which of the query's tables
/// changed (from their history, or their rows' digests); only then is the query run again. A run never overlaps
/// another: one that takes longer than the interval delays the next look.
///
///     let live = try LiveQuery(databasePath: "school.sqlite",
///                              sql: "SELECT subject, count(*) AS students FROM student GROUP BY subject",
///                              resultPath: "/tmp/subjects.sqlite")
///     try live.load()
///     let context = ObjectContext(store: try live.result.openStore())
///     live.follow { event in if case .refreshed = event { /* post: context.processExternalChanges() */ } }
public final class LiveQuery: @unchecked Sendable {
    /// The file queried.
    public let databasePath: String
    /// The SQL as given.
    public let sql: String
    /// The result's columns.
    public let columns: [QueryColumn]
    /// The tables the query reads (as prepared first).
    public let readTables: [String]
    /// The result.
    public let result: QueryResultTable
    /// The one table the rows are rows of, by its key (nil: ``sourceTableRefusal`` says why not).
    public var sourceTable: QuerySourceTable? { mapping.table }
    /// Why the rows are no rows of one table, when they are not.
    public var sourceTableRefusal: String? { mapping.refusal }
    /// Seconds between two looks for other connections' commits: 0.025 unless set. A look while
    /// nobody commits is one `PRAGMA data_version` (microseconds), so a short interval costs
    /// nothing but brings a change to the result sooner.
    public var pollInterval = 0.025

    /// What ``follow(_:)`` reports, on its thread.
    public enum Event: Sendable {
        /// A run of the query started because `tables` changed, or has read `rows` rows so far.
        case running(rows: Int, tables: [String])
        /// A run ended and the result is up to date with it.
        case refreshed(QueryRefresh)
        /// A run failed; the result is as it was (the query's words, or why).
        case failed(String)
        /// A run was stopped by ``cancelRun()``; the result is as it was.
        case cancelled
    }

    private let parameters: [String: StoreValue]
    /// The query's connection.
    private let database: Database
    /// The query as prepared (again after a change of the schema): used on the thread that runs it.
    private var query: ReadOnlyQuery
    /// ``sourceTable``, ``sourceTableRefusal`` and the key given.
    private let mapping: QuerySourceMapping
    private let watch: TableChangeWatch
    private let stopped = Atomic<Bool>(false)
    private let cancelled = Atomic<Bool>(false)
    private let refreshRequested = Atomic<Bool>(false)
    /// Whether a look began (the result may then differ from the first run).
    private let looked = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()
    private var thread: Thread?

    /// Checks and prepares `sql` over the file at `databasePath`, binds `parameters` (by name),
    /// and makes the result's file at `resultPath`; nothing is run yet.
    ///
    /// - Parameters:
    ///   - databasePath: the SQLite file to query (opened read-only, ``Database/openForQueries(path:)``).
    ///   - sql: one read-only SELECT (``Database/prepareReadOnlyQuery(_:)`` says what is refused).
    ///   - parameters: a value for each of its named parameters, by name without the sign.
    ///   - key: the result's columns that tell rows apart (checked unique in every run); nil: the
    ///     key of the one table the query reads, when the result holds it, else the rows' content.
    ///   - resultPath: the file the result table is made in (replaced if it exists).
    ///   - tracking: the names of the file's history table and triggers, when it has them
    ///     (``Store/installTracking(forTables:)``): tables that have them are watched through the history.
    ///   - resultTracking: the names of the result file's history table and triggers (``QueryResultTable/tracking``).
    /// - Throws: ``QueryRefusal`` (not a query source, a parameter without a value),
    ///   ``QueryResultError/unknownKeyColumn(_:columns:)``, ``StoreError``, ``SQLiteError``.
    public init(
        databasePath: String,
        sql: String,
        parameters: [String: StoreValue] = [:],
        key: [String]? = nil,
        resultPath: String,
        tracking: TrackingNames = .standard,
        resultTracking: TrackingNames = QueryResultTable.defaultTracking
    ) throws {
        self.databasePath = databasePath
        self.parameters = parameters
        self.sql = sql
        database = try Database.openForQueries(path: databasePath)
        let query = try database.prepareReadOnlyQuery(sql)
        try query.bind(parameters)
        self.query = query
        columns = query.columns
        readTables = query.readTables
        let mapping = QuerySourceMapping(try QuerySourceTable.of(query), reason: \.reason, key: key)
        self.mapping = mapping
        result = try QueryResultTable(
            path: resultPath,
            columns: query.columns,
            identity: mapping.identity,
            tracking: resultTracking
        )
        watch = TableChangeWatch(database: database, tables: query.readTables, tracking: tracking)
    }

    deinit {
        // The follower holds this object only weakly between looks: it stops at its next one.
        stopped.store(true, ordering: .relaxed)
        database.interruptUntilResumed()
        wake.signal()
    }

    /// How the rows are told apart, in words: "by id (student's key)", "by code", "by their content".
    public var identityDescription: String { mapping.describe(result.identity) }

    /// Runs the query and keeps its rows (on the calling thread); `progress` gets the rows read so
    /// far. ``cancelRun()`` from another thread stops it (an interrupted ``SQLiteError``), also
    /// when it comes before the load starts: the load then ends so at once.
    ///
    /// - Throws: ``QueryResultError/duplicateKey(columns:values:)`` when the `key` given repeats;
    ///   what SQLite says when the query fails.
    public func load(progress: ((Int) -> Void)? = nil) throws {
        // Resumed first, then the request read: a cancelRun() whose interrupt this resume cleared
        // has set `cancelled` already, and one that comes later interrupts the run itself.
        database.resume()
        result.database.resume()
        if cancelled.exchange(false, ordering: .sequentiallyConsistent) { throw LiveQuery.interruption }
        defer { cancelled.store(false, ordering: .sequentiallyConsistent) }
        defer { query.finishRun() }
        try result.fallingBackToContent(for: mapping) {
            try database.read {
                // The tables' state first: a commit after it runs the query again.
                try watch.start()
                // The rows written by the result's own connection (their index read back on the
                // follower's thread, QueryResultTable.readBackIndex(for:)), else read here.
                let inPlace = try result.loadInPlace(
                    query,
                    from: databasePath,
                    checksKey: mapping.givenKey != nil,
                    progress: progress
                )
                if !inPlace { try result.load(try query.rows(), progress: progress) }
            }
        } again: {
            try database.read {
                try watch.start()
                try result.load(try query.rows(), progress: progress)
            }
        }
    }

    /// How many rows the first run wrote while they are all the result has been: before
    /// ``follow(_:)`` or a look (``lookNow(progress:)``), once loaded. They are the rows with the ids
    /// 1 through that count, in the query's order: each one's place (``QueryResultTable/orderColumn``)
    /// is its row id, so that a list's first fetch of them needs no read of the table
    /// (`PresortedRows(keyPath:ascendingWithIDs:)`). Nil otherwise. Read it on the thread that
    /// calls ``follow(_:)``, before that call.
    package var firstRunRowCount: Int? {
        guard thread == nil, result.isLoaded, !looked.load(ordering: .relaxed) else { return nil }
        return result.count
    }

    /// Follows the file on a thread of its own, calling `report` there (post it to your run loop)
    /// until ``stop()``.
    public func follow(_ report: @escaping @Sendable (Event) -> Void) {
        precondition(thread == nil, "a live query is followed once")
        finished.enter()
        let wake = self.wake
        let finished = self.finished
        let thread = Thread { [weak self] in
            defer { finished.leave() }
            // Before the first look: the first run's index, so that the first change costs no more than the others.
            if let self { self.result.readBackIndex(for: self.mapping) }
            while true {
                guard let interval = self?.pollInterval else { break }
                _ = wake.wait(timeout: .now() + interval)
                guard let self, !self.stopped.load(ordering: .relaxed) else { break }
                if let outcome = self.lookNow(progress: report) { report(outcome) }
            }
        }
        thread.stackSize = 1 << 22
        self.thread = thread
        thread.start()
    }

    /// Stops the run in progress, if any (the first one, or one of ``follow(_:)``'s): it ends with
    /// ``Event/cancelled`` (or ``load(progress:)`` throws), the result as it was.
    public func cancelRun() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        database.interruptUntilResumed()
        result.database.interruptUntilResumed()
    }

    /// Runs the query again at the next look, whether or not its tables changed.
    public func refresh() {
        refreshRequested.store(true, ordering: .relaxed)
        wake.signal()
    }

    /// Stops following (waits for the run in progress to stop; it and the first run's read back
    /// into the index are interrupted, so that quitting after a large first run is not kept waiting).
    public func stop() {
        guard thread != nil, !stopped.exchange(true, ordering: .relaxed) else { return }
        database.interruptUntilResumed()
        result.database.interruptUntilResumed()
        wake.signal()
        finished.wait()
    }

    // MARK: Steps

    /// One look at the file, and a run of the query when a table it reads changed, on the calling
    /// thread: what ``follow(_:)``'s thread does each `pollInterval`. `progress` gets the
    /// ``Event/running(rows:tables:)`` events; the outcome is returned — ``Event/refreshed(_:)``,
    /// ``Event/failed(_:)`` or ``Event/cancelled`` — nil when no table the query reads changed.
    /// For tests and scripts; an app follows.
    @discardableResult
    package func lookNow(progress report: @escaping @Sendable (Event) -> Void = { _ in }) -> Event? {
        looked.store(true, ordering: .relaxed)
        cancelled.store(false, ordering: .relaxed)
        database.resume()
        result.database.resume()
        let started = Date()
        var tables: [String] = []
        do {
            let refresh: QueryRefresh? = try database.read {
                let forced = refreshRequested.exchange(false, ordering: .relaxed)
                switch try watch.look() {
                case .unchanged where !forced: return nil
                case .unchanged: break
                case .changed(let changed): tables = changed
                case .schemaChanged:
                    try prepareAgain()
                    tables = query.readTables
                }
                report(.running(rows: 0, tables: tables))
                defer { query.finishRun() }
                let change = try update(reporting: report, tables: tables)
                return QueryRefresh(
                    date: Date(),
                    tables: tables,
                    change: change,
                    seconds: Date().timeIntervalSince(started)
                )
            }
            return refresh.map { .refreshed($0) }
        } catch let error as SQLiteError where error.isInterrupted {
            return stopped.load(ordering: .relaxed) ? nil : .cancelled
        } catch {
            return .failed(LiveQuery.message(error))
        }
    }

    /// The run, its difference written to the result (a key of the table that repeats now: rows by content).
    private func update(
        reporting report: @escaping @Sendable (Event) -> Void,
        tables: [String]
    ) throws
        -> QueryResultChange
    {
        let progress: (Int) -> Void = { rows in report(.running(rows: rows, tables: tables)) }
        return try result.fallingBackToContent(for: mapping) {
            try result.update(from: try query.rows(), progress: progress)
        }
    }

    /// The file's schema changed: the query prepared again (its columns must be the same), its
    /// tables watched again.
    private func prepareAgain() throws {
        let again = try database.prepareReadOnlyQuery(sql)
        guard again.columns.map(\.name) == query.columns.map(\.name) else { throw QueryResultError.columnsChanged }
        try again.bind(parameters)
        query = again
        try watch.watch(again.readTables)
    }

    /// What a run stopped by ``cancelRun()`` before it began throws: SQLite's interrupt, as one it stopped.
    static let interruption = SQLiteError(code: SQLITE_INTERRUPT, message: "interrupted")

    /// What a failed run says: SQLite's words, or the error's.
    static func message(_ error: Error) -> String {
        if let error = error as? SQLiteError { return error.message }
        return "\(error)"
    }
}

/// One run of a ``LiveQuery`` that brought its result up to date.
public struct QueryRefresh: Sendable, Equatable {
    /// When the run ended.
    public var date: Date
    /// The tables whose change caused it (empty: asked for, ``LiveQuery/refresh()``).
    public var tables: [String]
    /// What it changed in the result.
    public var change: QueryResultChange
    /// How long the look and the run took, in seconds.
    public var seconds: Double

    /// A refresh.
    public init(date: Date, tables: [String], change: QueryResultChange, seconds: Double) {
        self.date = date
        self.tables = tables
        self.change = change
        self.seconds = seconds
    }
}
