import Dispatch
import SQLiteStore
import Synchronization

/// Reads the values of ``FetchPlan/valueKeyPaths`` for a set of rows — the
/// one expensive step of a large change set (a B-tree descent or three per
/// row, about 4 µs each on a million-row store).
///
/// Up to ``parallelThreshold`` rows it runs one query on the store's
/// connection. Beyond that the rows, in id order, are cut into chunks that two
/// threads take until none is left: another thread on the store's second,
/// read-only connection (``Store/acquireReaderConnection()``, when no other
/// thread has it) from the front, this thread on the store's connection from the
/// back. Whichever thread gets the processor reads more, so a busy core does
/// not hold the read up. It stays on one connection while the store's connection
/// is inside a transaction (the other connection would not see its writes), and
/// reads the other thread's chunks itself when that connection fails.
///
///     let rows = try RowValuesReader(store: context.store, plan: plan).read(ids)
struct RowValuesReader {
    /// Whether the last read was split between the two connections.
    private(set) var wasSplit = false

    /// Below this many rows a second thread costs more than it saves (handing
    /// rows over costs tens of microseconds; reading them, ~5 µs each).
    static let parallelThreshold = 64

    let store: Store
    /// The query for several rows (ids bound as a JSON array), and for one.
    let many: Query
    let single: Query
    /// Whether large reads may use the second connection.
    let splits: Bool

    init(store: Store, plan: FetchPlan, splits: Bool = true) {
        self.store = store
        self.splits = splits
        let columns = Int32(plan.valueKeyPaths.count)
        many = Query(sql: plan.valuesSQL(single: false), columns: columns, computed: plan.sectionValueFromSortValue)
        single = Query(sql: plan.valuesSQL(single: true), columns: columns, computed: plan.sectionValueFromSortValue)
    }

    /// The rows' values in no particular order; rows that no longer exist are missing.
    mutating func read(_ ids: [Int64]) throws -> [(id: Int64, values: [StoreValue])] {
        var rows: [(id: Int64, values: [StoreValue])] = []
        rows.reserveCapacity(ids.count)
        try finish(begin(ids)) { rows += $0 }
        return rows
    }

    /// A read under way: when it is split, the other thread is already taking chunks.
    struct Pending {
        fileprivate let ids: [Int64]
        fileprivate let chunks: SharedChunks?
        fileprivate let done: DispatchGroup?
        fileprivate let lease: ReaderConnectionLease?
    }

    /// Starts reading: when the read is large enough (and the store's second
    /// connection is free) another thread starts taking chunks at once, so that
    /// the caller can do other work before ``finish(_:handingRowsTo:)``.
    mutating func begin(_ ids: [Int64]) -> Pending {
        wasSplit = false
        guard splits, ids.count >= RowValuesReader.parallelThreshold, !store.database.isInTransaction,
            let lease = store.acquireReaderConnection()
        else {
            return Pending(ids: ids, chunks: nil, done: nil, lease: nil)
        }
        let chunks = SharedChunks(ids.sorted(), size: RowValuesReader.chunkSize(of: ids.count))
        let job = Job(database: lease.database, chunks: chunks, query: many)
        let done = DispatchGroup()
        DispatchQueue.global(qos: .userInitiated).async(group: done) { job.run() }
        return Pending(ids: [], chunks: chunks, done: done, lease: lease)
    }

    /// About a dozen chunks: few enough that a query's set-up does not count (tens of
    /// microseconds each), enough that the two threads finish close together.
    static func chunkSize(of count: Int) -> Int { min(128, max(16, count / 12)) }

    /// Hands every row to `body`, on this thread, as rows become available: the
    /// chunks this thread reads, and the other thread's finished chunks in between
    /// (so `body` works on them while the other thread reads on). Every row goes to
    /// `body` exactly once. Returns after the other thread is done; when `body`
    /// throws, the other thread stops after its chunk and is waited for before the
    /// error is rethrown.
    mutating func finish(
        _ pending: Pending,
        handingRowsTo body: ([(id: Int64, values: [StoreValue])]) throws -> Void
    ) throws {
        let main = store.database
        guard let chunks = pending.chunks, let done = pending.done else {
            guard !pending.ids.isEmpty else { return }
            try body(try (pending.ids.count == 1 ? single : many).read(pending.ids[...], on: main))
            return
        }
        defer { pending.lease?.release() }  // after `done.wait()` below, on every path
        do {
            while let next = chunks.nextForCaller() {
                switch next {
                case .read(let rows): try body(rows)
                case .ids(let ids): try body(try many.read(ids, on: main))
                }
            }
        } catch {
            chunks.stop()
            done.wait()
            throw error
        }
        done.wait()
        // The other thread's last chunk, and one it could not read.
        for rows in chunks.remainingRead() { try body(rows) }
        if let failed = chunks.failed { try body(try many.read(failed, on: main)) }
        wasSplit = chunks.otherThreadRead
    }

    /// One values query: its SQL, its value columns (after the id), and the value it leaves to Swift.
    struct Query: Sendable {
        let sql: String
        let columns: Int32
        let computed: FetchPlan.ComputedValue?

        /// The rows of `ids` on `database`, in one statement.
        func read(_ ids: ArraySlice<Int64>, on database: Database) throws -> [(id: Int64, values: [StoreValue])] {
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
                computed?.fill(&values)
                out.append((id, values))
            }
            return out
        }
    }

    /// The chunks of a split read and the rows the other thread has read, shared by the two threads.
    fileprivate final class SharedChunks: Sendable {
        enum Next {
            case read([(id: Int64, values: [StoreValue])])
            case ids(ArraySlice<Int64>)
        }

        private struct State {
            var front = 0  // the next chunk the other thread takes
            var back: Int  // the chunks from here on are taken by the caller
            var read: [[(id: Int64, values: [StoreValue])]] = []
            var failed: ArraySlice<Int64>?
            var otherThreadRead = false
        }

        private let ids: [Int64]
        private let size: Int
        private let state: Mutex<State>

        init(_ ids: [Int64], size: Int) {
            self.ids = ids
            self.size = size
            state = Mutex(State(back: (ids.count + size - 1) / size))
        }

        private func chunk(_ index: Int) -> ArraySlice<Int64> {
            ids[(index * size)..<min(ids.count, (index + 1) * size)]
        }

        /// For the other thread: the next chunk from the front, nil when none is left.
        func nextForOtherThread() -> ArraySlice<Int64>? {
            state.withLock { s in
                guard s.front < s.back else { return nil }
                s.front += 1
                return chunk(s.front - 1)
            }
        }

        /// For the other thread: a chunk's rows.
        func deliver(_ rows: [(id: Int64, values: [StoreValue])]) {
            state.withLock { s in
                s.read.append(rows)
                s.otherThreadRead = true
            }
        }

        /// For the other thread: a chunk it could not read (it takes no more).
        func giveBack(_ ids: ArraySlice<Int64>) { state.withLock { $0.failed = ids } }

        /// For the caller: rows the other thread read, else the next chunk from the back; nil when neither is left.
        func nextForCaller() -> Next? {
            state.withLock { s in
                if !s.read.isEmpty { return .read(s.read.removeLast()) }
                guard s.front < s.back else { return nil }
                s.back -= 1
                return .ids(chunk(s.back))
            }
        }

        /// Leaves the other thread nothing more to take.
        func stop() { state.withLock { $0.front = $0.back } }

        /// Rows read that the caller has not taken yet (after the other thread finished).
        func remainingRead() -> [[(id: Int64, values: [StoreValue])]] {
            state.withLock { s in
                defer { s.read.removeAll() }
                return s.read
            }
        }

        var failed: ArraySlice<Int64>? { state.withLock { $0.failed } }
        var otherThreadRead: Bool { state.withLock { $0.otherThreadRead } }
    }

    /// The other thread's part: chunks from the front until none is left. The
    /// connection is used by that thread only while the job runs, and the caller
    /// waits for it before touching it.
    fileprivate final class Job: @unchecked Sendable {
        let database: Database
        let chunks: SharedChunks
        let query: Query

        init(database: Database, chunks: SharedChunks, query: Query) {
            self.database = database
            self.chunks = chunks
            self.query = query
        }

        func run() {
            while let ids = chunks.nextForOtherThread() {
                do {
                    chunks.deliver(try query.read(ids, on: database))
                } catch {
                    chunks.giveBack(ids)
                    return
                }
            }
        }
    }
}
