import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import SQLiteStore

/// The copy of a server table into a new replica file: one `REPEATABLE READ`
/// transaction on the server (its snapshot is where following starts), a
/// cursor read in pages on a thread of its own while this thread appends
/// the previous page to the file, which is built beside its final name
/// without a journal and renamed into place when complete.
struct ReplicaCopy {
    /// Rows per `FETCH`.
    static let pageSize = 20_000

    let shape: ReplicaShape
    let path: String

    func run(
        on connection: PostgresConnection,
        progress: (@Sendable (Int) -> Void)?
    ) throws(ReplicaError)
        -> LoadedReplica
    {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .cache(path: path, message: error.localizedDescription)
        }
        ReplicaLocation.removeStaleCopies(like: path)
        let building = path + ".building"
        removeFiles(building)
        do {
            let loaded = try copy(into: building, on: connection, progress: progress)
            try ReplicaStore.installTracking(path: building, tableName: shape.tableName)
            // WAL, so that the browser reads while the follower writes.
            _ = try ReplicaStore(path: building, shape: shape)
            removeFiles(path)
            guard rename(building, path) == 0 else {
                throw ReplicaError.cache(path: path, message: String(cString: strerror(errno)))
            }
            return loaded
        } catch {
            removeFiles(building)
            if let error = error as? SQLiteError { throw .cache(path: path, message: error.description) }
            throw .wrap(error)
        }
    }

    /// The first rows in the browser's order, straight from the server.
    static func firstPage(
        shape: ReplicaShape,
        orderBy: [OrderTerm],
        limit: Int,
        on connection: PostgresConnection
    ) throws(ReplicaError) -> [[StoreValue]] {
        var order = orderBy
        for key in shape.keyColumns where !order.contains(where: { $0.column == key }) { order.append(OrderTerm(key)) }
        // SQLite sorts NULL first; a NOT NULL column needs no NULLS clause, which would keep the
        // server from reading its index backwards for DESC.
        let nullable = Set(shape.description.columns.filter(\.isNullable).map(\.name))
        let terms = order.map { term in
            let nulls = nullable.contains(term.column) ? (term.ascending ? " NULLS FIRST" : " NULLS LAST") : ""
            return ReplicaShape.sortColumn(term.column) + (term.ascending ? " ASC" : " DESC") + nulls
        }
        let ordering = terms.isEmpty ? "" : " ORDER BY " + terms.joined(separator: ", ")
        do {
            let result = try connection.query(
                "SELECT \(shape.selectList) \(shape.fromClause)\(ordering) LIMIT \(max(0, limit))"
            )
            return (0..<result.rowCount).map { ServerRow(result, row: $0, shape: shape).values }
        } catch {
            throw .server(error)
        }
    }

    // MARK: Steps

    private func copy(
        into file: String,
        on connection: PostgresConnection,
        progress: (@Sendable (Int) -> Void)?
    ) throws -> LoadedReplica {
        let store = try ReplicaStore(path: file, shape: shape, building: true)
        try store.createSchema()
        let counters = try Catalog.changeCounters(of: shape.source, on: connection)
        let wasTracked = try shape.feed?.isInstalled(on: connection) ?? false
        let pages = PageQueue()
        var position = ChangeFeedPosition(snapshot: "", readAt: "")
        var count = 0
        try connection.transaction(isolation: "REPEATABLE READ, READ ONLY") {
            position = try ChangeFeed.position(on: connection)
            try connection.execute(
                "DECLARE replica_copy NO SCROLL CURSOR FOR SELECT \(shape.selectList) \(shape.fromClause)"
                    + shape.keyOrder
            )
            // The server reads page n + 1 while this thread writes page n.
            let handed = UncheckedConnection(connection)
            let reader = Thread { [pages] in pages.fill(connection: handed) }
            reader.start()
            defer { pages.finish() }
            try store.database.transaction {
                let appender = try ReplicaStore.Appender(store: store)
                while let result = try pages.next() {
                    let rows = (0..<result.rowCount).map { ServerRow(result, row: $0, shape: shape) }
                    try appender.append(rows)
                    progress?(appender.count)
                }
                count = appender.count
            }
        }
        let table = ReplicaTable(
            path: path,
            tableName: shape.tableName,
            source: shape.source,
            kind: shape.description.kind,
            keyColumns: shape.keyColumns,
            columns: shape.columns,
            rowIDColumn: shape.integerKey,
            readOnlyReason: shape.readOnlyReason,
            rowCount: count
        )
        return LoadedReplica(table: table, shape: shape, position: position, counters: counters, wasTracked: wasTracked)
    }

    private func removeFiles(_ file: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: file + suffix) }
    }
}

/// A connection handed to the cursor's reading thread while the copying
/// thread waits for its pages and does not touch it: one thread at a time.
struct UncheckedConnection: @unchecked Sendable {
    let connection: PostgresConnection
    init(_ connection: PostgresConnection) { self.connection = connection }
}

/// The pages of the copy's cursor, at most two ahead of the writer.
final class PageQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var pages: [QueryResult] = []
    private var done = false
    private var stopped = false
    private var failure: Error?

    /// On the reading thread: `FETCH` until the cursor is exhausted (or the writer stopped).
    func fill(connection: UncheckedConnection) {
        defer {
            condition.lock()
            done = true
            condition.broadcast()
            condition.unlock()
        }
        do {
            while true {
                let page = try connection.connection.execute("FETCH \(ReplicaCopy.pageSize) FROM replica_copy")
                if page.rowCount == 0 { return }
                condition.lock()
                while pages.count >= 2 && !stopped { condition.wait() }
                let stop = stopped
                if !stop { pages.append(page) }
                condition.broadcast()
                condition.unlock()
                if stop { return }
            }
        } catch {
            condition.lock()
            failure = error
            condition.unlock()
        }
    }

    /// On the writing thread: the next page, nil at the end.
    func next() throws -> QueryResult? {
        condition.lock()
        defer { condition.unlock() }
        while pages.isEmpty && !done { condition.wait() }
        if !pages.isEmpty {
            let page = pages.removeFirst()
            condition.broadcast()
            return page
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the reader and waits until it has let go of the connection.
    func finish() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !done { condition.wait() }
        condition.unlock()
    }
}
