import Synchronization

/// How a live query's result tells its rows apart, and the one table they are rows of when they
/// are — decided alike for every engine's query (``LiveQuery``, a server's): by the key given
/// (checked unique in every run); else by the key of the one table the query reads, when its
/// result holds that key; else by their content. When that table's key repeats in a run (a
/// self-join, `UNION ALL`), the mapping is dropped and the rows are told apart by their content
/// from then on (``QueryResultTable/fallingBackToContent(for:_:again:)``).
package final class QuerySourceMapping: Sendable {
    /// The key given by the user (nil: the table's key, or the content).
    package let givenKey: [String]?
    /// How the result's rows are told apart at first.
    package let identity: QueryRowIdentity
    /// ``table`` and ``refusal``, read on any thread.
    private let state: Mutex<(table: QuerySourceTable?, refusal: String?)>

    /// The mapping of a query whose one table was `found` (or why not, in the words `reason`
    /// gives), its rows told apart by `key` when given.
    package init<Failure: Error>(
        _ found: Result<QuerySourceTable, Failure>,
        reason: (Failure) -> String,
        key: [String]?
    ) {
        givenKey = key
        var identity = QueryRowIdentity.content
        let state: (table: QuerySourceTable?, refusal: String?)
        switch found {
        case .success(let table):
            let columns = table.keyColumns.map(\.result)
            if let key, key != columns {
                state = (nil, "the rows are told apart by \(key.joined(separator: ", ")), not by \(table.table)'s key")
            } else {
                state = (table, nil)
                identity = .key(columns)
            }
        case .failure(let failure):
            state = (nil, reason(failure))
        }
        if let key { identity = .key(key) }
        self.identity = identity
        self.state = Mutex(state)
    }

    /// The one table the rows are rows of, by its key (nil: ``refusal`` says why not).
    package var table: QuerySourceTable? { state.withLock { $0.table } }
    /// Why the rows are no rows of one table, when they are not.
    package var refusal: String? { state.withLock { $0.refusal } }

    /// Whether a key that repeats in a run makes the rows be told apart by their content: the
    /// table's key does; a key given does not (the run fails).
    package var fallsBackToContent: Bool { givenKey == nil && table != nil }

    /// How rows told apart by `identity` are, in words: "by id (student's key)", "by code", "by their content".
    package func describe(_ identity: QueryRowIdentity) -> String {
        switch identity {
        case .content: return "by their content"
        case .key(let columns):
            let names = columns.joined(separator: ", ")
            return table.map { "by \(names) (\($0.table)'s key)" } ?? "by \(names)"
        }
    }

    /// The table's key repeats in the result: no table, and that is why.
    package func drop() {
        state.withLock { state in
            state = (nil, state.table.map { "\($0.table)'s key repeats in the result" } ?? state.refusal)
        }
    }
}
