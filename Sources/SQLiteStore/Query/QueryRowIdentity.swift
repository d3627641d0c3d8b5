/// How the rows of a query's result are told apart from one run to the next: what makes a
/// row of the new run "the same row" as one of the last (so that it is updated, or moved, in
/// place), rather than another row (a delete and an insert).
///
///     let identity = QueryRowIdentity.key(["id"])   // fetchedtable --key id
///     let anonymous = QueryRowIdentity.content      // no key: a changed row is another row
public enum QueryRowIdentity: Sendable, Hashable, CustomStringConvertible {
    /// By the values of these columns (their names), which every run must keep unique
    /// (``QueryResultError/duplicateKey(columns:values:)`` otherwise).
    case key([String])
    /// By the whole row: a row whose values changed is deleted and another inserted; equal rows
    /// are told apart by their occurrence.
    case content

    public var description: String {
        switch self {
        case .key(let columns): "by " + columns.joined(separator: ", ")
        case .content: "by their content"
        }
    }
}

/// Why a run of a query could not be kept as its result.
public enum QueryResultError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two rows of one run have the same key: the key's columns and the repeated values.
    case duplicateKey(columns: [String], values: [StoreValue])
    /// A key column the result does not have.
    case unknownKeyColumn(String, columns: [String])
    /// The query's columns changed since the result was made (another program altered a table
    /// it reads): the result must be made again.
    case columnsChanged

    public var description: String {
        switch self {
        case .duplicateKey(let columns, let values):
            let pairs = zip(columns, values).map { "\($0) = \($1)" }.joined(separator: ", ")
            return "the key (\(columns.joined(separator: ", "))) is not unique: two rows have \(pairs)"
        case .unknownKeyColumn(let name, let columns):
            return "no column \"\(name)\" in the result; its columns: \(columns.joined(separator: ", "))"
        case .columnsChanged:
            return "the query's columns changed"
        }
    }
}
