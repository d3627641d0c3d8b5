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
/// not hold the read up; the other thread keeps off this thread's processor
/// (``ProcessorPlacement``), where Linux often starts it. It stays on one
/// connection while the store's connection is inside a transaction (the other
/// connection would not see its writes), and reads the other thread's chunks
/// itself when that connection fails.
///
/// Values a change set already holds (``SQLiteStore/WrittenRows``: the rows a
/// save wrote, as committed) are not read again: a row whose values are all
/// known is not read at all, and one whose values are partly known is read
/// for the others only, by a query that joins only what those need (a bank
/// whose closing date was set reads its name alone: one B-tree descent instead
/// of three).
///
///     let rows = try RowValuesReader(store: context.store, plan: plan).read(ids)
struct RowValuesReader {
    /// Whether the last read was split between the two connections.
    private(set) var wasSplit = false

    /// Below this many rows a second thread costs more than it saves (handing
    /// rows over costs tens of microseconds; reading them, ~5 µs each).
    static let parallelThreshold = 64

    let store: Store
    let plan: FetchPlan
    /// The query for several rows (ids bound as a JSON array), and for one.
    let many: Query
    let single: Query
    /// Whether large reads may use the second connection.
    let splits: Bool
    /// A test hook: a split read's caller waits until the other thread has read a chunk (or
    /// given up) before it reads any, so that the read is split whatever the scheduler does.
    let waitsForOtherThread: Bool

    init(store: Store, plan: FetchPlan, splits: Bool = true, waitsForOtherThread: Bool = false) {
        self.store = store
        self.plan = plan
        self.splits = splits
        self.waitsForOtherThread = waitsForOtherThread
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
        /// Rows whose values were all known: nothing to read.
        fileprivate let known: [(id: Int64, values: [StoreValue])]
        /// The queries the pieces name.
        fileprivate let queries: [Query]
        /// What this thread reads alone when the read is not split.
        fileprivate let pieces: [Piece]
        fileprivate let chunks: SharedChunks?
        fileprivate let done: DispatchGroup?
        fileprivate let lease: ReaderConnectionLease?
    }

    /// Some rows to read with one of a read's queries.
    fileprivate struct Piece: Sendable {
        let query: Int
        let ids: ArraySlice<Int64>
    }

    /// Starts reading: when the read is large enough (and the store's second
    /// connection is free) another thread starts taking chunks at once, so that
    /// the caller can do other work before ``finish(_:handingRowsTo:)``.
    ///
    /// `known` holds values already known (nil where not, in ``FetchPlan/valueKeyPaths``
    /// order; see ``SQLiteStore/WrittenRows``): only the others are read.
    mutating func begin(_ ids: [Int64], known: [Int64: [StoreValue?]] = [:]) -> Pending {
        wasSplit = false
        let (rows, queries, groups) = plan(ids, known: known)
        let count = groups.reduce(0) { $0 + $1.count }
        guard splits, count >= RowValuesReader.parallelThreshold, !store.database.isInTransaction,
            let lease = store.acquireReaderConnection()
        else {
            let pieces = groups.enumerated().compactMap { q, ids in ids.isEmpty ? nil : Piece(query: q, ids: ids[...]) }
            return Pending(known: rows, queries: queries, pieces: pieces, chunks: nil, done: nil, lease: nil)
        }
        let chunks = SharedChunks(groups.map { $0.sorted() }, size: RowValuesReader.chunkSize(of: count))
        let job = Job(database: lease.database, chunks: chunks, queries: queries, caller: ProcessorPlacement.current)
        let done = DispatchGroup()
        DispatchQueue.global(qos: .userInitiated).async(group: done) { job.run() }
        return Pending(known: rows, queries: queries, pieces: [], chunks: chunks, done: done, lease: lease)
    }

    /// Sorts `ids` by what is left to read: rows known entirely, and for each set of
    /// unknown values a query and its ids (the full query first, for rows nothing is known of).
    private func plan(
        _ ids: [Int64],
        known: [Int64: [StoreValue?]]
    ) -> (known: [(id: Int64, values: [StoreValue])], queries: [Query], groups: [[Int64]]) {
        // Up to 64 values a row: which are unknown is a bit set (a plan with more reads them all).
        guard !known.isEmpty, plan.valueKeyPaths.count <= 64 else { return ([], [many], [ids]) }
        var rows: [(id: Int64, values: [StoreValue])] = []
        var queries = [many]
        var groups: [[Int64]] = [[]]
        var queryFor: [UInt64: Int] = [:]
        let computed = many.computed
        let computedBit: UInt64 = computed.map { 1 << UInt64($0.index) } ?? 0
        for id in ids {
            guard let values = known[id] else {
                groups[0].append(id)
                continue
            }
            var unknown: UInt64 = 0
            for (i, value) in values.enumerated() where value == nil { unknown |= 1 << UInt64(i) }
            unknown &= ~computedBit
            if unknown == 0 {
                var complete = values.map { $0 ?? .null }
                computed?.fill(&complete)
                rows.append((id, complete))
                continue
            }
            if let q = queryFor[unknown] {
                groups[q].append(id)
                continue
            }
            let slots = values.indices.filter { unknown & (1 << UInt64($0)) != 0 }
            guard let sql = try? plan.valuesSQL(of: slots, model: store.model) else {
                groups[0].append(id)
                continue
            }
            queryFor[unknown] = queries.count
            queries.append(Query(sql: sql, columns: Int32(slots.count), computed: computed, known: known, slots: slots))
            groups.append([id])
        }
        return (rows, queries, groups)
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
        let queries = pending.queries
        guard let chunks = pending.chunks, let done = pending.done else {
            if !pending.known.isEmpty { try body(pending.known) }
            for piece in pending.pieces {
                let query = piece.query == 0 && piece.ids.count == 1 ? single : queries[piece.query]
                try body(try query.read(piece.ids, on: main))
            }
            return
        }
        defer { pending.lease?.release() }  // after `done.wait()` below, on every path
        if waitsForOtherThread { chunks.waitForOtherThreadsFirstChunk() }
        do {
            if !pending.known.isEmpty { try body(pending.known) }
            while let next = chunks.nextForCaller() {
                switch next {
                case .read(let rows): try body(rows)
                case .piece(let piece): try body(try queries[piece.query].read(piece.ids, on: main))
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
        if let failed = chunks.failed { try body(try queries[failed.query].read(failed.ids, on: main)) }
        wasSplit = chunks.otherThreadRead
    }

    /// One values query: its SQL, its value columns (after the id), and the value it leaves to Swift.
    /// A query for some of the values only has `slots` (where each column goes among
    /// ``FetchPlan/valueKeyPaths``) and takes the others from `known`.
    struct Query: Sendable {
        let sql: String
        let columns: Int32
        let computed: FetchPlan.ComputedValue?
        var known: [Int64: [StoreValue?]] = [:]
        var slots: [Int]? = nil

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
                if let slots, let partial = known[id] {
                    values = partial.map { $0 ?? .null }
                    for (c, slot) in slots.enumerated() { values[slot] = statement.value(at: Int32(c + 1)) }
                } else {
                    values.reserveCapacity(Int(columns))
                    for c in 0..<columns { values.append(statement.value(at: c + 1)) }
                }
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
            case piece(Piece)
        }

        private struct State {
            var front = 0  // the next chunk the other thread takes
            var back: Int  // the chunks from here on are taken by the caller
            var read: [[(id: Int64, values: [StoreValue])]] = []
            var failed: Piece?
            var otherThreadRead = false
        }

        private let pieces: [Piece]
        private let state: Mutex<State>
        /// Signalled once the other thread has delivered its first chunk, or has stopped.
        private let otherThreadStarted = DispatchSemaphore(value: 0)
        private let startSignalled = Atomic<Bool>(false)

        /// Each query's ids (in id order) cut into chunks of `size`.
        init(_ groups: [[Int64]], size: Int) {
            var pieces: [Piece] = []
            for (query, ids) in groups.enumerated() {
                var start = 0
                while start < ids.count {
                    let end = min(ids.count, start + size)
                    pieces.append(Piece(query: query, ids: ids[start..<end]))
                    start = end
                }
            }
            self.pieces = pieces
            state = Mutex(State(back: pieces.count))
        }

        /// For the other thread: the next chunk from the front, nil when none is left.
        func nextForOtherThread() -> Piece? {
            state.withLock { s in
                guard s.front < s.back else { return nil }
                s.front += 1
                return pieces[s.front - 1]
            }
        }

        /// For the other thread: a chunk's rows.
        func deliver(_ rows: [(id: Int64, values: [StoreValue])]) {
            state.withLock { s in
                s.read.append(rows)
                s.otherThreadRead = true
            }
            signalStart()
        }

        /// For the other thread: it takes no more chunks.
        func otherThreadStopped() { signalStart() }

        private func signalStart() {
            if !startSignalled.exchange(true, ordering: .acquiringAndReleasing) { otherThreadStarted.signal() }
        }

        /// For the caller (``RowValuesReader/waitsForOtherThread``): waits until the other
        /// thread has delivered a chunk or stopped.
        func waitForOtherThreadsFirstChunk() { otherThreadStarted.wait() }

        /// For the other thread: a chunk it could not read (it takes no more).
        func giveBack(_ piece: Piece) { state.withLock { $0.failed = piece } }

        /// For the caller: rows the other thread read, else the next chunk from the back; nil when neither is left.
        func nextForCaller() -> Next? {
            state.withLock { s in
                if !s.read.isEmpty { return .read(s.read.removeLast()) }
                guard s.front < s.back else { return nil }
                s.back -= 1
                return .piece(pieces[s.back])
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

        var failed: Piece? { state.withLock { $0.failed } }
        var otherThreadRead: Bool { state.withLock { $0.otherThreadRead } }
    }

    /// The other thread's part: chunks from the front until none is left. The
    /// connection is used by that thread only while the job runs, and the caller
    /// waits for it before touching it.
    fileprivate final class Job: @unchecked Sendable {
        let database: Database
        let chunks: SharedChunks
        let queries: [Query]
        /// The processor of the thread that started the job: this one keeps off it.
        let caller: Int32

        init(database: Database, chunks: SharedChunks, queries: [Query], caller: Int32) {
            self.database = database
            self.chunks = chunks
            self.queries = queries
            self.caller = caller
        }

        func run() {
            let placement = ProcessorPlacement.leave(caller)
            defer {
                placement?.restore()
                chunks.otherThreadStopped()
            }
            while let piece = chunks.nextForOtherThread() {
                do {
                    chunks.deliver(try queries[piece.query].read(piece.ids, on: database))
                } catch {
                    chunks.giveBack(piece)
                    return
                }
            }
        }
    }
}
