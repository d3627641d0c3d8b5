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

    /// Below this many rows a second thread costs more than it saves.
    static let parallelThreshold = 256

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
        wasSplit = false
        guard !ids.isEmpty else { return [] }
        let main = store.database
        guard splits, ids.count >= RowValuesReader.parallelThreshold, !main.isInTransaction,
              let lease = store.acquireReaderConnection() else {
            return try RowValuesReader.read(ids[...], on: main, sql: ids.count == 1 ? singleSQL : sql, columns: columns)
        }
        defer { lease.release() }   // after `done.wait()` below, on every path
        let half = ids.count / 2
        let job = Job(database: lease.database, ids: ids[..<half], sql: sql, columns: columns)
        let done = DispatchGroup()
        DispatchQueue.global(qos: .userInitiated).async(group: done) { job.run() }
        let mine: [(id: Int64, values: [StoreValue])]
        do {
            mine = try RowValuesReader.read(ids[half...], on: main, sql: sql, columns: columns)
        } catch {
            done.wait()
            throw error
        }
        done.wait()
        guard let theirs = job.result else {
            return try RowValuesReader.read(ids[..<half], on: main, sql: sql, columns: columns) + mine
        }
        wasSplit = true
        return theirs + mine
    }

    /// One query for `ids` on `database`.
    static func read(_ ids: ArraySlice<Int64>, on database: Database, sql: String,
                     columns: Int32) throws -> [(id: Int64, values: [StoreValue])] {
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

    /// The half read on the other thread. The connection is used by that thread
    /// only while the job runs, and the caller waits for it before touching it.
    private final class Job: @unchecked Sendable {
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
