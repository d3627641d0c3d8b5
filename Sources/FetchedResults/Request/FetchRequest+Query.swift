import SQLiteStore

extension FetchRequest {
    /// A request for the rows of a query's result (<doc:FetchingFromAQuery>), in the query's own
    /// order: its entity is the result table's, sorted by the result's order column
    /// (`QueryResultTable.orderColumn`). Set other sort descriptors (and a predicate, a
    /// section key path for the controller) as for any table: the result is one.
    ///
    /// A ``FetchedResultsController`` over it, on a context of the result's store
    /// (`QueryResultTable.openStore()`), is kept current by the `LiveQuery` that fills the
    /// table: each run of the query that changed the result is a change set of the rows that
    /// changed, picked up by `ObjectContext.processExternalChanges()` and delivered as one batch,
    /// the rows told apart by the query's key.
    ///
    ///     let live = try LiveQuery(databasePath: "school.sqlite",
    ///                              sql: "SELECT subject, count(*) AS students FROM student GROUP BY subject",
    ///                              key: ["subject"], resultPath: "/tmp/subjects.sqlite")
    ///     try live.load()
    ///     let controller = FetchedResultsController(fetchRequest: FetchRequest(query: live.result),
    ///                                               context: ObjectContext(store: try live.result.openStore()))
    public init(query result: QueryResultTable) {
        self.init(entity: result.entityName, sortDescriptors: [FetchSort(result.orderColumn)])
    }
}
