@_spi(Benchmark) import FetchedResults
import FetchedTableKit
import Foundation
import SQLiteStore

/// The fetch of the `generic` group, made by `fetchedtable`'s own code as
/// `fetchedtable events.sqlite --table events --sort 'ts desc' --section
/// 'day(ts)'` makes it: the catalog's entity over the existing table, the
/// hands-off foreign store, the request (`ts` descending, then the id) and the
/// derived section key `day(ts)`; and the plain SQL that returns the same ids
/// in the same order.
///
///     let opened = try EventsFetch.open("events.sqlite", readOnly: true)
///     let controller = EventsFetch.controller(opened, context: ObjectContext(store: opened.store))
///     try controller.performFetch()
enum EventsFetch {
    /// The reference query of `table10m_raw_query_s`: the same ids in the same order.
    static let rawSQL = "SELECT id FROM events ORDER BY ts DESC, id"

    /// The events table of the database at `path`, opened as the app opens it
    /// (`track`: with `--track`, which installs the history triggers).
    static func open(_ path: String, readOnly: Bool, track: Bool = false) throws -> OpenedTable {
        var options = TableOptions(file: path)
        options.table = "events"
        options.sort = try SortSpecification(parsing: "ts desc")
        options.section = try SectionKeySpecification(parsing: "day(ts)")
        options.readOnly = readOnly
        options.track = track
        let database = try TableDatabase(path: path, kind: .sqlite, databasePath: path, readOnly: readOnly)
        return try database.open(try database.table(named: "events"), options: options)
    }

    /// The controller of the opened table's query, as the browser's tab makes it.
    static func controller(_ opened: OpenedTable, context: ObjectContext) -> FetchedResultsController {
        let query = opened.query
        let request = FetchRequest(
            entity: query.table,
            predicate: query.predicate,
            sortDescriptors: query.sortDescriptors
        )
        return FetchedResultsController(
            fetchRequest: request,
            context: context,
            sectionNameKeyPath: query.section?.keyPath
        )
    }

    /// Runs the reference query through `database` and returns the ids in order.
    static func rawIDs(_ database: Database, expected: Int) throws -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(expected)
        try database.forEachRow(rawSQL) { row in ids.append(row.int64(at: 0)) }
        return ids
    }
}
