import Foundation
import PostgreSQLClient

/// Collects, as the copy appends its rows, each row's id and the text of one column, and
/// sorts them into a ``ReplicaRowOrder``: SQLite's `ORDER BY column [DESC], id` of the
/// replica, computed from what was written instead of read back. Each run of
/// `runLength` rows is sorted on a thread of its own while the copy goes on (the core the
/// copying thread leaves); ``sorted()`` merges the runs.
///
/// Only for a table whose rows are named by an integer key, and a column the replica keeps
/// as text compared byte for byte (text, date, timestamp: declared `TEXT`, `DATE` or
/// `TIMESTAMP`, whose values from the server never read as numbers), or an order column
/// (``ReplicaColumn/orderColumn``, whose keys are never NULL). NULL sorts as the server sorts
/// it (``nullsGreatest``): last ascending, first descending.
struct RowOrderCollector: Sendable {
    /// A row: the first 24 bytes of its text, big-endian (zero-padded), its id, and where the
    /// rest of a longer text is in its run's arena.
    struct Entry: Sendable {
        var prefix: (UInt64, UInt64, UInt64)
        var id: Int64
        var start: UInt32
        /// `UInt32.max` for NULL.
        var length: UInt32
    }

    /// Rows collected and sorted: the entries, and the bytes of their texts past the first 24.
    struct Run: Sendable {
        var entries: [Entry] = []
        var rest: [UInt8] = []
    }

    static let prefixLength = 24

    let term: OrderTerm
    /// The replica column sorted by: the term's, or its order column.
    let column: String
    /// Whether NULL is above every text (PostgreSQL's order), not below it (SQLite's).
    let nullsGreatest: Bool
    /// The column's index among the copy's fields, and the key's.
    let valueField: Int
    let idField: Int
    /// Rows per run sorted on its own.
    let runLength: Int
    private var current = Run()
    private let sorter: RunSorter

    /// A collector of `term` for `shape` — a column, or an order column — in the server's order,
    /// or nil when its rows or that column cannot be ordered here.
    init?(term: OrderTerm, shape: ReplicaShape) {
        guard let key = shape.integerKey, let keyIndex = shape.columns.firstIndex(where: { $0.name == key })
        else { return nil }
        let names = shape.storedColumnNames
        if let column = shape.columns.first(where: { $0.name == term.column || $0.orderColumn == term.column }),
            let orderColumn = column.orderColumn, let index = names.firstIndex(of: orderColumn)
        {
            self.init(term: term, column: orderColumn, valueField: index, idField: keyIndex, nullsGreatest: true)
            return
        }
        guard let index = shape.columns.firstIndex(where: { $0.name == term.column }),
            [.text, .date, .timestamp].contains(shape.columns[index].storage)
        else { return nil }
        self.init(term: term, valueField: index, idField: keyIndex, nullsGreatest: true)
    }

    /// A collector of `term`, whose values and ids are the copy's fields `valueField` and `idField`
    /// (the replica column `column`, the term's by default), NULL last ascending with `nullsGreatest`.
    init(
        term: OrderTerm,
        column: String? = nil,
        valueField: Int,
        idField: Int,
        runLength: Int = 1 << 16,
        nullsGreatest: Bool = false
    ) {
        self.term = term
        self.column = column ?? term.column
        self.nullsGreatest = nullsGreatest
        self.valueField = valueField
        self.idField = idField
        self.runLength = runLength
        sorter = RunSorter(ascending: term.ascending, nullsGreatest: nullsGreatest)
        current.entries.reserveCapacity(runLength)
    }

    /// Adds a row: its id and its text (nil: NULL). False when the text does not fit a run's offsets.
    mutating func add(id: Int64, text: UnsafeRawBufferPointer?) -> Bool {
        if let text {
            guard current.rest.count + text.count < Int(UInt32.max) else { return false }
            let prefix = (Self.word(text, 0), Self.word(text, 8), Self.word(text, 16))
            current.entries.append(
                Entry(prefix: prefix, id: id, start: UInt32(current.rest.count), length: UInt32(text.count))
            )
            if text.count > Self.prefixLength { current.rest.append(contentsOf: text[Self.prefixLength...]) }
        } else {
            current.entries.append(Entry(prefix: (0, 0, 0), id: id, start: 0, length: .max))
        }
        if current.entries.count == runLength {
            sorter.sort(current)
            current = Run()
            current.entries.reserveCapacity(runLength)
        }
        return true
    }

    /// The rows in order.
    consuming func sorted() -> ReplicaRowOrder {
        sorter.sort(current)
        current = Run()
        let runs = sorter.finish()
        let merged = RunMerge(runs: runs, ascending: term.ascending, nullsGreatest: nullsGreatest)
        return merged.order(column: column)
    }

    /// Eight bytes of `text` from `start`, big-endian, zero-padded past its end.
    @inline(__always)
    private static func word(_ text: UnsafeRawBufferPointer, _ start: Int) -> UInt64 {
        if start + 8 <= text.count {
            return UInt64(bigEndian: text.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        }
        var word: UInt64 = 0
        var index = start
        while index < text.count {
            word = word << 8 | UInt64(text[index])
            index += 1
        }
        return word << (8 * UInt64(8 - max(0, text.count - start)))
    }

    /// SQLite's BINARY order of two rows' texts, NULL first (last with `nullsGreatest`): -1, 0
    /// or 1 (`rest` their runs' arenas).
    @inline(__always)
    static func compare(
        _ a: Entry,
        _ b: Entry,
        restA: UnsafeRawBufferPointer,
        restB: UnsafeRawBufferPointer,
        nullsGreatest: Bool = false
    ) -> Int {
        if a.length == .max || b.length == .max {
            return a.length == b.length ? 0 : ((a.length == .max) == nullsGreatest ? 1 : -1)
        }
        if a.prefix.0 != b.prefix.0 { return a.prefix.0 < b.prefix.0 ? -1 : 1 }
        if a.prefix.1 != b.prefix.1 { return a.prefix.1 < b.prefix.1 ? -1 : 1 }
        if a.prefix.2 != b.prefix.2 { return a.prefix.2 < b.prefix.2 ? -1 : 1 }
        // Equal on their first 24 bytes (zeros past a shorter text's end): the rest decides, then the length.
        let common = Int(min(a.length, b.length)) - prefixLength
        if common > 0 {
            let c = memcmp(restA.baseAddress! + Int(a.start), restB.baseAddress! + Int(b.start), common)
            if c != 0 { return c < 0 ? -1 : 1 }
        }
        return a.length == b.length ? 0 : (a.length < b.length ? -1 : 1)
    }

    /// Whether `a` comes before `b` in the order: the text in its direction, then the id ascending.
    @inline(__always)
    static func precedes(
        _ a: Entry,
        _ b: Entry,
        restA: UnsafeRawBufferPointer,
        restB: UnsafeRawBufferPointer,
        ascending: Bool,
        nullsGreatest: Bool = false
    ) -> Bool {
        let c = compare(a, b, restA: restA, restB: restB, nullsGreatest: nullsGreatest)
        return c == 0 ? a.id < b.id : (ascending ? c < 0 : c > 0)
    }
}
