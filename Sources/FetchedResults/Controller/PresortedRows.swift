/// Every row of an entity's table, already in the order of one sort on a stored text
/// attribute (SQLite's BINARY order, NULL first ascending and last descending — or, with
/// ``nullsGreatest``, last ascending and first descending as PostgreSQL sorts —, ties by
/// id ascending) — sorted by whoever wrote the rows, as they wrote them — with the text
/// of that attribute: what ``FetchedResultsController/performFetch(presorted:)`` installs
/// instead of having SQLite sort the table.
///
/// Row `i` has the id `ids[i]` and the text `text[offsets[i] ..< offsets[i + 1]]`, or NULL
/// when `isNull[i]` (its range is then empty).
///
///     let rows = PresortedRows(keyPath: "ts", ascending: false, ids: [7, 3],
///                              text: Array("2024-01-022024-01-01".utf8), offsets: [0, 10, 20],
///                              isNull: [false, false])
package final class PresortedRows: Sendable {
    /// The attribute the rows are sorted by.
    package let keyPath: String
    /// The direction of the sort.
    package let ascending: Bool
    /// The ids in order.
    package let ids: [Int64]
    /// The texts of the rows, one after the other, in order.
    package let text: [UInt8]
    /// Where each row's text starts in ``text`` (one more than the rows: the last is the end).
    package let offsets: [UInt32]
    /// Which rows hold NULL.
    package let isNull: [Bool]
    /// Whether NULL is above every text (`FetchSort.NullOrder.greatest`), not below.
    package let nullsGreatest: Bool
    /// Whether ``text`` holds the attribute's values; false for ``init(keyPath:ascendingWithIDs:)``'s
    /// rows, which stand for no fetch sectioned by a value.
    package let holdsValues: Bool

    package convenience init(
        keyPath: String,
        ascending: Bool,
        ids: [Int64],
        text: [UInt8],
        offsets: [UInt32],
        isNull: [Bool],
        nullsGreatest: Bool = false
    ) {
        self.init(
            keyPath: keyPath,
            ascending: ascending,
            ids: ids,
            text: text,
            offsets: offsets,
            isNull: isNull,
            nullsGreatest: nullsGreatest,
            holdsValues: true
        )
    }

    /// Every row of a table whose attribute `keyPath` ascends as its ids do, `ids` ascending: a
    /// table written in that order, numbered as it was written (a query's first run, whose
    /// place in the query's order is its row id). The ids alone give the order, so no value is
    /// kept: every row's text is the same (empty), ties are by id.
    ///
    ///     let rows = PresortedRows(keyPath: "query_order", ascendingWithIDs: Array(1...1_000_000))
    package convenience init(keyPath: String, ascendingWithIDs ids: [Int64]) {
        self.init(
            keyPath: keyPath,
            ascending: true,
            ids: ids,
            text: [],
            offsets: Array(repeating: 0, count: ids.count + 1),
            isNull: Array(repeating: false, count: ids.count),
            holdsValues: false
        )
    }

    private init(
        keyPath: String,
        ascending: Bool,
        ids: [Int64],
        text: [UInt8],
        offsets: [UInt32],
        isNull: [Bool],
        nullsGreatest: Bool = false,
        holdsValues: Bool
    ) {
        precondition(offsets.count == ids.count + 1 && isNull.count == ids.count, "one offset and flag per row")
        self.keyPath = keyPath
        self.ascending = ascending
        self.ids = ids
        self.text = text
        self.offsets = offsets
        self.isNull = isNull
        self.nullsGreatest = nullsGreatest
        self.holdsValues = holdsValues
    }

    package var count: Int { ids.count }

    /// Calls `body` with the rows' arrays as buffers (valid while it runs).
    func withUnsafeRows<Result>(
        _ body: (
            UnsafeBufferPointer<Int64>, UnsafeRawBufferPointer, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<Bool>
        ) -> Result
    ) -> Result {
        ids.withUnsafeBufferPointer { ids in
            text.withUnsafeBytes { text in
                offsets.withUnsafeBufferPointer { offsets in
                    isNull.withUnsafeBufferPointer { isNull in body(ids, text, offsets, isNull) }
                }
            }
        }
    }
}
