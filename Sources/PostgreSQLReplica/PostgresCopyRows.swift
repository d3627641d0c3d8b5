import Foundation
import PostgreSQLClient
import SQLiteStore
import Synchronization

/// The rows of a query streamed by `COPY (query) TO STDOUT` as a ``QueryResultTable`` reads
/// them, decoded as ``PostgresResultRows`` decodes a query's rows (the same values): received
/// and decoded on a thread of their own while the table writes the rows before them, handed
/// over in batches of ``batchRows`` — the server, the decoding and the writing overlap, as a
/// replica's copy does (``ReplicaCopy``), instead of the whole result waiting in libpq's memory.
///
///     let rows = PostgresCopyRows(columns: result.columns)
///     rows.start("COPY (SELECT id, name FROM book) TO STDOUT", on: connection)
///     defer { rows.finish() }          // the copy stopped (if need be) and its thread ended
///     try table.load(rows)
final class PostgresCopyRows: QueryRows {
    /// Rows per batch handed from the copy's thread to the reader.
    static let batchRows = 2048
    /// Batches decoded ahead of the reader at most.
    static let batchesAhead = 4

    let columnCount: Int
    private let kinds: [PostgresResultRows.Kind]
    /// The batch being read, and the row in it.
    private var current: Batch?
    private var row = -1
    /// The batch read before it, kept so that its rows' bytes stay valid (``bytesOutlastRows``).
    private var previous: Batch?
    /// Batches decoded and not read yet; nil after the last one is the end (with the copy's error, if any).
    private var queue: [Batch?] = []
    private var failure: (any Error)?
    private let lock = NSLock()
    private let filled = DispatchSemaphore(value: 0)
    private let free = DispatchSemaphore(value: PostgresCopyRows.batchesAhead)
    /// Set by ``finish()``: the copy's thread stops at its next row.
    private let stopping = Atomic<Bool>(false)
    private var finished = true

    /// Rows whose columns are of the types `typeOIDs` (a result's columns, in order).
    init(typeOIDs: [UInt32]) {
        columnCount = typeOIDs.count
        kinds = typeOIDs.map(PostgresResultRows.kind(of:))
    }

    /// Starts `copy` (a `COPY (…) TO STDOUT` of the query, text format) on `connection`, on a
    /// thread of its own that uses the connection until ``finish()`` returns.
    func start(_ copy: String, on connection: PostgresConnection) {
        finished = false
        let job = CopyJob(rows: self, connection: connection, sql: copy)
        let thread = Thread { job.run() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Stops the copy if it is still running and waits until its thread is done with the connection.
    func finish() {
        guard !finished else { return }
        stopping.store(true, ordering: .relaxed)
        while true {
            filled.wait()
            let next = lock.withLock { queue.removeFirst() }
            free.signal()
            if next == nil { break }
        }
        finished = true
    }

    func next() throws -> Bool {
        row += 1
        if let current, row < current.count { return true }
        guard !finished else { return false }
        filled.wait()
        let next = lock.withLock { queue.removeFirst() }
        free.signal()
        guard let next else {
            finished = true
            row = current?.count ?? 0
            if let failure = lock.withLock({ failure }) { throw failure }
            return false
        }
        guard next.count > 0 else { return try self.next() }
        previous = current
        current = next
        row = 0
        return true
    }

    /// A full batch's rows at least: a row's batch is let go once the batch after the next is read
    /// (only the last batch is not full).
    var bytesOutlastRows: Int { PostgresCopyRows.batchRows }

    /// True, as ``PostgresResultRows/readsBackAsWritten``: the same values.
    var readsBackAsWritten: Bool { true }

    func field(_ index: Int) -> QueryField {
        guard let current else { return .null }
        return current.field(row * columnCount + index)
    }

    // MARK: The copy's thread

    /// Hands `batch` to the reader, waiting while it is ``batchesAhead`` batches behind; nil: the end.
    fileprivate func hand(_ batch: Batch?, failure: (any Error)? = nil) {
        free.wait()
        lock.withLock {
            if batch == nil { self.failure = failure }
            queue.append(batch)
        }
        filled.signal()
    }

    fileprivate var isStopping: Bool { stopping.load(ordering: .relaxed) }

    fileprivate func decode(_ line: UnsafeRawBufferPointer, into batch: Batch) throws {
        var end = line.count
        if end > 0 && line[end - 1] == 0x0A { end -= 1 }
        var start = 0
        for column in 0..<columnCount {
            let stop = CopyRowDecoder.index(of: 0x09, in: line, from: start, to: end)
            if stop == end && column < columnCount - 1 {
                throw PostgresCopyError(message: "a COPY row had \(column + 1) fields, not \(columnCount)")
            }
            batch.append(UnsafeRawBufferPointer(rebasing: line[start..<stop]), kind: kinds[column])
            start = stop + 1
        }
        batch.count += 1
    }

    /// The copy, run on its thread.
    private final class CopyJob: @unchecked Sendable {
        let rows: PostgresCopyRows
        let connection: PostgresConnection
        let sql: String

        init(rows: PostgresCopyRows, connection: PostgresConnection, sql: String) {
            self.rows = rows
            self.connection = connection
            self.sql = sql
        }

        func run() {
            var batch = Batch(columns: rows.columnCount)
            do {
                try connection.copyOut(sql) { line in
                    if rows.isStopping { throw PostgresCopyError(message: "stopped") }
                    try rows.decode(line, into: batch)
                    if batch.count == PostgresCopyRows.batchRows {
                        rows.hand(batch)
                        batch = Batch(columns: rows.columnCount)
                    }
                }
                rows.hand(batch)
                rows.hand(nil)
            } catch {
                rows.hand(nil, failure: error)
            }
        }
    }

    /// Rows decoded: their fields, and the bytes of their texts.
    fileprivate final class Batch {
        enum Field {
            case null
            case integer(Int64)
            case real(Double)
            case text(start: Int, count: Int)
        }

        var fields: [Field] = []
        var count = 0
        private var bytes: UnsafeMutableRawPointer
        private var capacity = 1 << 16
        private var used = 0
        private var scratch: [UInt8] = []

        init(columns: Int) {
            fields.reserveCapacity(columns * PostgresCopyRows.batchRows)
            bytes = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        }

        deinit { bytes.deallocate() }

        func field(_ index: Int) -> QueryField {
            switch fields[index] {
            case .null: .null
            case .integer(let value): .integer(value)
            case .real(let value): .real(value)
            case .text(let start, let count): .text(UnsafeRawBufferPointer(start: bytes + start, count: count))
            }
        }

        /// Appends the field of COPY's text `raw`: `\N` is NULL, else its value as `kind` reads it.
        func append(_ raw: UnsafeRawBufferPointer, kind: PostgresResultRows.Kind) {
            if raw.count == 2 && raw[0] == 0x5C && raw[1] == 0x4E {
                fields.append(.null)
                return
            }
            if CopyRowDecoder.index(of: 0x5C, in: raw, from: 0, to: raw.count) < raw.count {
                scratch.removeAll(keepingCapacity: true)
                CopyRowDecoder.unescape(raw, into: &scratch)
                scratch.withUnsafeBytes { appendValue($0, kind: kind) }
                return
            }
            appendValue(raw, kind: kind)
        }

        private func appendValue(_ text: UnsafeRawBufferPointer, kind: PostgresResultRows.Kind) {
            switch kind {
            case .integer:
                if let value = CopyRowDecoder.integer(text) {
                    fields.append(.integer(value))
                    return
                }
            case .boolean:
                fields.append(.integer(text.first == UInt8(ascii: "t") ? 1 : 0))
                return
            case .real:
                if let value = Double(String(decoding: text, as: UTF8.self)), !value.isNaN {
                    fields.append(.real(value))
                    return
                }
            case .text: break
            }
            if used + text.count > capacity {
                let larger = max(capacity * 2, used + text.count)
                let grown = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 8)
                grown.copyMemory(from: bytes, byteCount: used)
                bytes.deallocate()
                bytes = grown
                capacity = larger
            }
            if let base = text.baseAddress, !text.isEmpty {
                (bytes + used).copyMemory(from: base, byteCount: text.count)
            }
            fields.append(.text(start: used, count: text.count))
            used += text.count
        }
    }
}

/// A COPY row the rows could not read, or a copy stopped by ``PostgresCopyRows/finish()``.
struct PostgresCopyError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
