import BaseDirectories
import CLIKit
import FetchedResults
import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import Synchronization

/// A server table's local SQLite copy (``PostgresReplica``), open as any SQLite table:
/// the SQLite face's `list`, `watch` and browser then run over it unchanged, while the
/// replica keeps it current from the server (the history with `--track`, else polling).
///
/// The copy lives in `$XDG_CACHE_HOME/fetchedtable/postgres/` (`~/.cache` when unset),
/// a file per server, database and table, never named after a password.
///
///     let copy = try PostgresCopy.load(opening, options: options)
///     let (opened, controller) = try copy.fetch(options)
struct PostgresCopy {
    /// The replica (every call but `stop` talks to the server).
    let replica: PostgresReplica
    /// The table as copied.
    let table: ReplicaTable
    /// The server.
    let target: PostgresTarget
    /// The copied rows in the order asked of ``load(_:target:sortingBy:progress:status:)``, for the
    /// browser's first fetch (which lets go of them); nil when there is none.
    var presortedRows: PresortedRows?

    /// The folder of the copies.
    static func cacheDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) as NSString).appendingPathComponent(".cache")
        return (base as NSString).appendingPathComponent("fetchedtable/postgres")
    }

    /// The replica of `opening`'s table (not copied yet).
    static func replica(of opening: PostgresOpening) throws(FetchedTableError) -> PostgresReplica {
        try replica(of: opening.table.name, on: opening.server.target, cacheLimit: opening.cacheLimit)
    }

    /// The replica of `table` on `target`'s server (not copied yet), the copies no session
    /// uses first pruned to `cacheLimit` (least recently used first).
    static func replica(
        of table: TableName,
        on target: PostgresTarget,
        cacheLimit: CacheLimit = .standard
    ) throws(FetchedTableError) -> PostgresReplica {
        let directory = cacheDirectory()
        ReplicaCache(directory: directory).prune(toFit: cacheLimit.bytes)
        do {
            // Both fetchedtable's cache folder and this one hold private copies: 0700, made or tightened.
            try PrivateFiles.makeFolder((directory as NSString).deletingLastPathComponent)
            try PrivateFiles.makeFolder(directory)
        } catch {
            throw FetchedTableError(
                "cannot make the folder of the server tables' copies \(directory): \(error)",
                status: ExitStatus.cantCreate
            )
        }
        let replica = PostgresReplica(
            connectionString: target.connectionString,
            table: table,
            cacheDirectory: directory,
            applicationName: PostgresServer.applicationName,
            localTracking: TableFileNames.tracking,
            changeFeed: TableFileNames.changeFeed
        )
        replica.noticeHandler = PostgresNoticeLog.shared.record
        return replica
    }

    /// Copies `opening`'s table now. While another session's lock keeps it waiting, `command`
    /// (`fetchedtable list`) says so on stderr, once, naming who holds it (``sayingLockWaits(_:table:)``).
    static func load(_ opening: PostgresOpening, command: String) throws(FetchedTableError) -> PostgresCopy {
        let replica = try replica(of: opening)
        replica.lockWaitHandler = sayingLockWaits(command, table: opening.table.displayName)
        return try load(replica, target: opening.server.target)
    }

    /// ``load(_:command:)`` on a thread of its own, `shouldStop` asked every `interval` meanwhile:
    /// once it says so (Ctrl-C), the copy is cancelled on the server and nil returned once it has
    /// stopped (a server that does not answer is waited for two seconds at most).
    static func load(
        _ opening: PostgresOpening,
        command: String,
        until shouldStop: () -> Bool,
        interval: useconds_t
    ) throws(FetchedTableError) -> PostgresCopy? {
        let replica = try replica(of: opening)
        replica.lockWaitHandler = sayingLockWaits(command, table: opening.table.displayName)
        let target = opening.server.target
        let outcome = LoadOutcome()
        let thread = Thread {
            outcome.result = Result(catching: { () throws(FetchedTableError) -> PostgresCopy in
                try load(replica, target: target)
            })
            outcome.ended.signal()
        }
        thread.start()
        while outcome.ended.wait(timeout: .now() + .microseconds(Int(interval))) == .timedOut {
            if shouldStop() {
                replica.cancelLoad()
                _ = outcome.ended.wait(timeout: .now() + 2)
                return nil
            }
        }
        return try outcome.result?.get()
    }

    /// The copy's end, handed from its thread (``LoadOutcome/ended`` orders the two).
    private final class LoadOutcome: @unchecked Sendable {
        var result: Result<PostgresCopy, FetchedTableError>?
        let ended = DispatchSemaphore(value: 0)
    }

    /// Whether a message was said.
    private final class SaidOnce: Sendable {
        let flag = Atomic<Bool>(false)
    }

    /// What a command without a screen does while a copy waits for another session's lock: says
    /// `fetchedtable list: waiting for a lock on t held by another session (pid 4242: psql, user
    /// alice); Ctrl-C stops` on stderr once, after the first half second of waiting.
    static func sayingLockWaits(_ command: String, table: String) -> @Sendable (ReplicaLockWait?) -> Void {
        let said = SaidOnce()
        return { wait in
            guard let wait, !said.flag.exchange(true, ordering: .relaxed) else { return }
            let text = PostgresConnectionState.lockWaitText(wait, table: table)
            writeStandardError("\(command): \(text); Ctrl-C stops\n")
        }
    }

    /// Copies `replica`'s table now; `progress` is called with the rows copied so far. With
    /// `status`, a server out of reach is reported there and the copy is made again once it
    /// answers (``PostgresReplica/load(progress:status:)``), instead of failing. For the browser
    /// (`browsing`), the rows are also sorted in the order `sort` as they arrive
    /// (``presortedRows``), when they can be, and a new copy is synced to disk in the background
    /// (``PostgresReplica/load(sortingBy:progress:status:)``); `list` and `watch` wait for it.
    static func load(
        _ replica: PostgresReplica,
        target: PostgresTarget,
        browsing: Bool = false,
        sortingBy sort: FetchSort? = nil,
        progress: (@Sendable (Int) -> Void)? = nil,
        status: (@Sendable (ReplicaStatus) -> Void)? = nil
    ) throws(FetchedTableError) -> PostgresCopy {
        do {
            let term = sort.map { OrderTerm($0.keyPath, ascending: $0.ascending) }
            let (table, order) =
                browsing
                ? try replica.load(sortingBy: term, progress: progress, status: status)
                : (try replica.load(progress: progress, status: status), nil)
            let rows = order.map {
                PresortedRows(
                    keyPath: $0.column,
                    ascending: $0.ascending,
                    ids: $0.ids,
                    text: $0.text,
                    offsets: $0.offsets,
                    isNull: $0.isNull,
                    nullsGreatest: $0.nullsGreatest
                )
            }
            return PostgresCopy(replica: replica, table: table, target: target, presortedRows: rows)
        } catch {
            throw PostgresCopy.refusal(error, target: target)
        }
    }

    /// A replica's error as the user reads it (69, 77, 64, 74).
    static func refusal(_ error: ReplicaError, target: PostgresTarget) -> FetchedTableError {
        switch error {
        case .server(let error): PostgresServer.refusal(error, target: target)
        case .noSuchTable: .usage("\(target.label): \(target.redacted(error.description))")
        case .readOnly(let reason): .usage(target.redacted(reason))
        case .conflict(let reason): FetchedTableError(target.redacted(reason), status: 1)
        case .trackingRefused: FetchedTableError(target.redacted(error.description), status: ExitStatus.noPermission)
        case .cache, .notLoaded, .locked:
            FetchedTableError(target.redacted(error.description), status: ExitStatus.ioError)
        }
    }

    /// The options of the SQLite face over the copy: its table, never writing the file
    /// (deletes go to the server), no triggers of ours (the copy has them).
    func localOptions(_ options: TableOptions) -> TableOptions {
        var local = options
        local.postgres = nil
        local.file = table.path
        local.table = table.tableName
        local.readOnly = true
        local.track = false
        return local
    }

    /// The copy's database, named after the server for messages, ordered as the server orders
    /// (NULL last ascending; numbers, enums and collations by the copy's order columns, which
    /// are not shown).
    func database(_ options: TableOptions) throws(FetchedTableError) -> TableDatabase {
        var database = try TableDatabase(path: options.file, kind: .sqlite, databasePath: table.path, readOnly: true)
        database.serverOrder = serverOrder
        database.columnLabels = columnLabels
        return database
    }

    /// The labels of the copy's `timestamptz` columns: their name and the zone their times are
    /// in (the terminal's), said once in the detail screen since the times carry no offset.
    var columnLabels: [String: String] {
        let zone = replica.timeZone ?? "the server's time zone"
        return Dictionary(
            table.columns.filter(\.isTimestampWithTimeZone).map { ($0.name, "\($0.name) (\(zone))") },
            uniquingKeysWith: { first, _ in first }
        )
    }

    /// The server's order over the copy: its columns' order columns.
    var serverOrder: TableQuery.ServerOrder {
        TableQuery.ServerOrder(
            orderColumns: Dictionary(
                table.columns.compactMap { column in column.orderColumn.map { (column.name, $0) } },
                uniquingKeysWith: { first, _ in first }
            )
        )
    }

    /// The copy's table opened with `options` (the server's names) and fetched, as `list` and `watch` do.
    func fetch(_ options: TableOptions) throws(FetchedTableError) -> (OpenedTable, FetchedResultsController) {
        let local = localOptions(options)
        let database = try database(options)
        let table = try database.table(named: table.tableName)
        let opened = try database.open(table, options: local)
        let controller = TableFetch.makeController(opened.query, context: ObjectContext(store: opened.store))
        do {
            try controller.performFetch()
        } catch {
            throw TableDatabase.refusal(error, path: options.file)
        }
        return (opened, controller)
    }
}
