import Dispatch
import SQLiteStore

/// Reads the values of ``FetchPlan/valueKeyPaths`` for a set of rows — the
/// one expensive step of a large change set (a B-tree descent or three per
/// row, about 4 µs each on a million-row store).
///
/// Up to ``parallelThreshold`` rows it runs one query on the store's
/// connection. Beyond that it splits the rows in two and reads the first half
/// on the store's second, read-only connection (``Store/acquireReaderConnection()``,
/// when no other thread has it)
/// on another thread while this thread reads the second half, so both cores
/// work. It stays on one connection while the store's connection is inside a
/// transaction (the other connection would not see its writes), and falls back
/// to it when the other connection fails.
///
///     let rows = try RowValuesReader(store: context.store, plan: plan).read(ids)
struct RowValuesReader {
    /// Whether the last ``read(_:)`` was split between the two connections.
    private(set) var wasSplit = false

    /// Below this many rows a second thread costs more than it saves (handing
    /// half the rows over costs tens of microseconds; reading them, ~5 µs each).
    static let parallelThreshold = 64

    let store: Store
    let sql: String
    let singleSQL: String
    let columns: Int32
    /// Whether large reads may use the second connection.
    let splits: Bool

    init(store: Store, plan: FetchPlan, splits: Bool = true) {
        self.store = store
        self.splits = splits
        self.sql = plan.valuesSQL(single: false)
        self.singleSQL = plan.valuesSQL(single: true)
        self.columns = Int32(plan.valueKeyPaths.count)
    }

    /// The rows' values in the order SQLite returns them; rows that no longer exist are missing.
    mutating func read(_ ids: [Int64]) throws -> [(id: Int64, values: [StoreValue])] {
        let pending = begin(ids)
        return try finish(pending)
    }

    /// A read under way: the other connection's share is being read on another
    /// thread; the rest is read on this one by ``finish(_:)``, which must follow.
    struct Pending {
        fileprivate let mine: ArraySlice<Int64>
        fileprivate let theirs: ArraySlice<Int64>
        fileprivate let job: Job?
        fileprivate let done: DispatchGroup?
        fileprivate let lease: ReaderConnectionLease?
    }

    /// Starts reading: when the read is large enough (and the store's second
    /// connection is free) the first `otherShare` of the rows go to another
    /// thread at once, so that the caller can do other work before ``finish(_:)``.
    mutating func begin(_ ids: [Int64], otherShare: Double = 0.5) -> Pending {
        wasSplit = false
        guard splits, ids.count >= RowValuesReader.parallelThreshold, !store.database.isInTransaction,
            let lease = store.acquireReaderConnection()
        else {
            return Pending(mine: ids[...], theirs: [], job: nil, done: nil, lease: nil)
        }
        let cut = min(ids.count - 1, max(1, Int(Double(ids.count) * otherShare)))
        let job = Job(database: lease.database, ids: ids[..<cut], sql: sql, columns: columns)
        let done = DispatchGroup()
        DispatchQueue.global(qos: .userInitiated).async(group: done) { job.run() }
        wasSplit = true
        return Pending(mine: ids[cut...], theirs: ids[..<cut], job: job, done: done, lease: lease)
    }

    /// Reads this thread's share, waits for the other one, and returns all the rows.
    mutating func finish(_ pending: Pending) throws -> [(id: Int64, values: [StoreValue])] {
        var mine: [(id: Int64, values: [StoreValue])] = []
        let theirs = try finish(pending) { mine = $0 }
        return theirs + mine
    }

    /// Reads this thread's share and hands it to `body` *before* waiting for the
    /// other share, so that the caller works on its rows while the other thread
    /// may still be reading; then waits and returns the other share's rows (every
    /// row goes to exactly one of the two). Without a second thread `body` gets
    /// every row and the result is empty. When `body` throws, the other thread is
    /// waited for before the error is rethrown.
    mutating func finish(
        _ pending: Pending,
        handingOwnShareTo body: ([(id: Int64, values: [StoreValue])]) throws -> Void
    ) throws -> [(id: Int64, values: [StoreValue])] {
        let main = store.database
        guard let job = pending.job, let done = pending.done else {
            guard !pending.mine.isEmpty else { return [] }
            try body(
                try RowValuesReader.read(
                    pending.mine,
                    on: main,
                    sql: pending.mine.count == 1 ? singleSQL : sql,
                    columns: columns
                )
            )
            return []
        }
        defer { pending.lease?.release() }  // after `done.wait()` below, on every path
        do {
            try body(try RowValuesReader.read(pending.mine, on: main, sql: sql, columns: columns))
        } catch {
            done.wait()
            throw error
        }
        done.wait()
        guard let theirs = job.result else {
            wasSplit = false
            return try RowValuesReader.read(pending.theirs, on: main, sql: sql, columns: columns)
        }
        return theirs
    }

    /// One query for `ids` on `database`.
    static func read(
        _ ids: ArraySlice<Int64>,
        on database: Database,
        sql: String,
        columns: Int32
    ) throws -> [(id: Int64, values: [StoreValue])] {
        var out: [(id: Int64, values: [StoreValue])] = []
        out.reserveCapacity(ids.count)
        let statement = try database.statement(sql)
        defer { statement.reset() }
        if ids.count == 1 {
            try statement.bind(ids.first!, at: 1)
        } else {
            var text = "["
            text.reserveCapacity(ids.count * 8 + 2)
            for (i, id) in ids.enumerated() {
                if i > 0 { text += "," }
                text += String(id)
            }
            text += "]"
            try statement.bind(text, at: 1)
        }
        while try statement.step() {
            let id = statement.int64(at: 0)
            var values: [StoreValue] = []
            values.reserveCapacity(Int(columns))
            for c in 0..<columns { values.append(statement.value(at: c + 1)) }
            out.append((id, values))
        }
        return out
    }

    /// The share read on the other thread. The connection is used by that thread
    /// only while the job runs, and the caller waits for it before touching it.
    fileprivate final class Job: @unchecked Sendable {
        let database: Database
        let ids: ArraySlice<Int64>
        let sql: String
        let columns: Int32
        var result: [(id: Int64, values: [StoreValue])]?

        init(database: Database, ids: ArraySlice<Int64>, sql: String, columns: Int32) {
            self.database = database
            self.ids = ids
            self.sql = sql
            self.columns = columns
        }

        func run() { result = try? RowValuesReader.read(ids, on: database, sql: sql, columns: columns) }
    }
}
