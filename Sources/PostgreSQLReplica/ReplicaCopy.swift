import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import SQLiteStore
import Synchronization

/// The copy of a server table into a new replica file: one `REPEATABLE READ`
/// transaction on the server (its snapshot is where following starts), read
/// by `COPY … TO STDOUT` — one stream, no round trip per page — and appended
/// row by row (decoded without a Swift string per field, written 64 rows per
/// `INSERT`) to the file, which is built beside its final name without a
/// journal and renamed into place when complete, unsynced (``ReplicaDurability``
/// syncs it in the background). With an ``order``, the rows are also sorted in
/// it as they arrive (``RowOrderCollector``).
struct ReplicaCopy {
    /// Rows per `FETCH` of a refetch, and between two progress reports of the copy.
    static let pageSize = 20_000

    let shape: ReplicaShape
    let path: String
    /// The names of the file's tracking table and triggers.
    let tracking: TrackingNames
    /// Seconds the copy waits for its first row (the server may sort before it sends one).
    let timeout: Double
    /// Seconds it waits for each later piece: a server silent that long is out of reach.
    let contactTimeout: Double
    /// The order the rows are also collected in, sorted at the end (``RowOrderCollector``).
    var order: OrderTerm?

    func run(
        on connection: PostgresConnection,
        progress: ((Int) -> Void)?
    ) throws(ReplicaError)
        -> (LoadedReplica, ReplicaRowOrder?)
    {
        try ReplicaLocation.makeFolder((path as NSString).deletingLastPathComponent)
        ReplicaLocation.removeStaleCopies(like: path)
        let building = path + ".building"
        ReplicaLocation.removeFiles(building)
        do {
            let (loaded, collected) = try copy(into: building, on: connection, progress: progress)
            let order = try finishFile(building, mergingAlongside: collected)
            ReplicaLocation.removeFiles(path)
            guard rename(building, path) == 0 else {
                throw ReplicaError.cache(path: path, message: String(cString: strerror(errno)))
            }
            return (loaded, order)
        } catch {
            ReplicaLocation.removeFiles(building)
            if let error = error as? SQLiteError { throw .cache(path: path, message: error.description) }
            throw .wrap(error)
        }
    }

    /// Gives the new file at `file` its triggers and WAL while the collected runs merge on
    /// another core (about 0.07 s of CPU at a million rows); the merged order, if collected.
    private func finishFile(_ file: String, mergingAlongside collected: RowOrderCollector?) throws -> ReplicaRowOrder? {
        let merged = Mutex<ReplicaRowOrder?>(nil)
        let failure = Mutex<(any Error)?>(nil)
        let (shape, tracking) = (shape, tracking)
        DispatchQueue.concurrentPerform(iterations: collected == nil ? 1 : 2) { part in
            if part == 1, let collected {
                let order = collected.sorted()
                merged.withLock { $0 = order }
                return
            }
            do {
                try ReplicaStore.installTracking(path: file, tableName: shape.tableName, tracking: tracking)
                try ReplicaStore.enterWAL(path: file)
            } catch {
                failure.withLock { $0 = error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return merged.withLock { $0 }
    }

    /// The first rows in the browser's order, straight from the server: its `ORDER BY`, which
    /// is the replica's (NULL last ascending and first descending, numbers, collations and enums
    /// as the server orders them: ``ReplicaOrder``), the primary key breaking ties.
    static func firstPage(
        shape: ReplicaShape,
        orderBy: [OrderTerm],
        limit: Int,
        on connection: PostgresConnection
    ) throws(ReplicaError) -> [[StoreValue]] {
        var order = orderBy
        for key in shape.keyColumns where !order.contains(where: { $0.column == key }) { order.append(OrderTerm(key)) }
        let terms = order.map { ReplicaShape.sortColumn($0.column) + ($0.ascending ? " ASC" : " DESC") }
        let ordering = terms.isEmpty ? "" : " ORDER BY " + terms.joined(separator: ", ")
        do {
            let result = try connection.query(
                "SELECT \(shape.selectList) \(shape.fromClause)\(ordering) LIMIT \(max(0, limit))"
            )
            let keys = ReplicaOrderKeys(shape.orders)
            return (0..<result.rowCount).map {
                Array(ServerRow(result, row: $0, shape: shape, keys: keys).values.prefix(shape.columns.count))
            }
        } catch {
            throw .server(error)
        }
    }

    // MARK: Steps

    private func copy(
        into file: String,
        on connection: PostgresConnection,
        progress: ((Int) -> Void)?
    ) throws -> (LoadedReplica, RowOrderCollector?) {
        let store = try ReplicaStore(path: file, shape: shape, tracking: tracking, building: true)
        try store.createSchema()
        let counters = try Catalog.changeCounters(of: shape.source, on: connection)
        var position = ChangeFeedPosition(snapshot: "", readAt: "")
        var count = 0
        var collected: RowOrderCollector?
        try connection.transaction(isolation: "REPEATABLE READ, READ ONLY") {
            position = try ReplicaState.position(of: shape, on: connection)
            try store.database.transaction {
                // No identity until the file is on disk (``ReplicaDurability``): no later session takes it over before.
                try ReplicaState(identity: "", position: position).write(to: store.database)
                let appender = try ReplicaStore.Appender(store: store)
                // COPY streams: the server produces rows while another thread decodes them and this one writes them.
                let stream = CopyStream(
                    shape: shape,
                    order: order.flatMap { RowOrderCollector(term: $0, shape: shape) },
                    rowsPerBatch: appender.perStatement * 16
                )
                stream.start(
                    "COPY (SELECT \(shape.copySelectList) \(shape.fromClause)\(shape.keyOrder)) TO STDOUT",
                    on: connection,
                    timeout: contactTimeout,
                    firstRowTimeout: timeout
                )
                var reported = 0
                do {
                    while let batch = try stream.pipe.nextFull() {
                        try appender.write(batch)
                        stream.pipe.recycle(batch)
                        if appender.count - reported >= ReplicaCopy.pageSize {
                            reported = appender.count
                            progress?(reported)
                        }
                    }
                } catch {
                    stream.pipe.cancelAndWait()
                    throw error
                }
                progress?(appender.count)
                count = appender.count
                collected = stream.collected()
            }
        }
        let table = shape.table(at: path, rowCount: count)
        let loaded = LoadedReplica(
            table: table,
            shape: shape,
            position: position,
            counters: counters,
            tracking: tracking
        )
        return (loaded, collected)
    }
}
