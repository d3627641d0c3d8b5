/// What a source of a query's live result does, whatever engine runs the query: a SQLite file's
/// (``LiveQuery``) or a server's. The result is a ``QueryResultTable`` either way, so whatever
/// reads it — a controller, a list, a watch — reads every engine's the same.
package protocol LiveQuerying: AnyObject, Sendable {
    /// The SQL as given.
    var sql: String { get }
    /// The result's columns.
    var columns: [QueryColumn] { get }
    /// The tables the query reads.
    var readTables: [String] { get }
    /// The result.
    var result: QueryResultTable { get }
    /// The one table the rows are rows of, by its key (nil: ``sourceTableRefusal`` says why not).
    var sourceTable: QuerySourceTable? { get }
    /// Why the rows are no rows of one table, when they are not.
    var sourceTableRefusal: String? { get }
    /// How the rows are told apart, in words.
    var identityDescription: String { get }
    /// Runs the query and keeps its rows (on the calling thread); `progress` gets the rows read so far.
    func load(progress: ((Int) -> Void)?) throws
    /// Follows the query's tables on a thread of its own, calling `report` there, until ``stop()``.
    func follow(_ report: @escaping @Sendable (LiveQuery.Event) -> Void)
    /// Stops the run in progress, if any: it ends with ``LiveQuery/Event/cancelled``, the result as it was.
    func cancelRun()
    /// Runs the query again at the next look.
    func refresh()
    /// Stops following.
    func stop()
}

extension LiveQuerying {
    /// Runs the query and keeps its rows, without progress.
    package func load() throws { try load(progress: nil) }
}

extension LiveQuery: LiveQuerying {}
