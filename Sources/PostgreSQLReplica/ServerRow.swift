import PostgreSQLClient
import SQLiteStore

/// One row read from the server by ``ReplicaShape/selectList``: its values
/// as the replica keeps them, and its key.
struct ServerRow {
    /// The values, one per stored column of the shape (``ReplicaShape/storedColumnNames``:
    /// the columns, then the order columns' keys).
    var values: [StoreValue]
    /// The key's texts (empty for a table without a key).
    var key: [String]

    /// A row of these values and key.
    init(values: [StoreValue], key: [String]) {
        self.values = values
        self.key = key
    }

    /// Row `row` of `result`, which ``ReplicaShape/selectList`` selected; `keys` makes the
    /// order columns' keys.
    init(_ result: QueryResult, row: Int, shape: ReplicaShape, keys: ReplicaOrderKeys) {
        let count = shape.columns.count
        values = shape.columns.indices.map { ServerRow.value(result, row: row, column: $0, shape.columns[$0]) }
        for index in shape.ordered.indices {
            values.append(.blob(keys.key(order: index, text: result.text(row: row, column: count + index))))
        }
        let keyStart = count + shape.ordered.count
        key = shape.keyColumns.indices.map { result.text(row: row, column: keyStart + $0) ?? "" }
    }

    private static func value(_ result: QueryResult, row: Int, column: Int, _ replica: ReplicaColumn) -> StoreValue {
        guard let text = result.text(row: row, column: column) else { return .null }
        switch replica.storage {
        case .integer:
            if let number = result.int64(row: row, column: column) { return .integer(number) }
            return .text(text)
        case .real:
            // NaN stays text: SQLite would store the number as NULL, and sorts text after every number, as PostgreSQL NaN.
            return Double(text).flatMap { $0.isNaN ? nil : StoreValue.real($0) } ?? .text(text)
        case .boolean:
            return .integer(text == "t" ? 1 : 0)
        case .json:
            return .text(result[row, column].displayText)
        case .byteSize:
            return .text(text == "1" ? "1 byte" : "\(text) bytes")
        case .text, .date, .timestamp:
            return .text(text)
        }
    }
}
