import Foundation
import SQLiteStore
import TestSupport
import Testing

@_spi(Benchmark) @testable import FetchedResults

/// Date-times written with a space (`2024-01-01 09:30:00`, as a PostgreSQL
/// replica copies a server's timestamps), some with a fraction of a second,
/// beside SQLiteStore's own `2024-01-01T09:30:00Z`: the rows' sort prefixes
/// place moved rows without reading probe rows, and the batch still equals
/// a fresh fetch (the prefixes keep SQLite's text order across the forms).
@Suite struct SpacedDateTimeTests {
    static let rows = 2000

    /// Row `n`'s time: minutes permuted over the first days of 2024; every 50th row
    /// in SQLiteStore's form, every 7th with a fraction.
    static func time(_ n: Int, shift: Int = 0) -> String {
        let minutes = (n * 7919) % rows + shift
        let day = 1 + minutes / 1440
        let text = String(format: "2024-01-%02d %02d:%02d:00", day, (minutes / 60) % 24, minutes % 60)
        if n % 50 == 0 { return text.replacingOccurrences(of: " ", with: "T") + "Z" }
        return n % 7 == 0 ? text + ".25" : text
    }

    @Test func aMoveOfManyRowsIsPlacedByPrefixesAndEqualsAFreshFetch() throws {
        let directory = TemporaryDirectory("frc-spaced")
        defer { directory.remove() }
        let path = directory.path("events.sqlite")
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, ts TIMESTAMP, name TEXT)")
        try writer.transaction {
            for n in 1...Self.rows {
                try writer.run(
                    "INSERT INTO events (id, ts, name) VALUES (?, ?, ?)",
                    [.integer(Int64(n)), .text(Self.time(n)), .text("event \(n)")]
                )
            }
        }
        let catalog = try DatabaseCatalog(path: path)
        let entity = try #require(catalog.table(named: "events")).entity(named: "events")
        let model = Model(version: 1, applicationID: 0, entities: [entity])
        let store = try Store(foreignDatabaseAt: path, model: model, readOnly: false)
        try store.installTracking(forTables: ["events"])
        let context = ObjectContext(store: store)
        var request = FetchRequest(entity: "events")
        request.sortDescriptors = [FetchSort("ts", ascending: false)]
        let controller = FetchedResultsController(fetchRequest: request, context: context)
        var batches: [ChangeBatch] = []
        controller.onChange = { batches.append($0) }
        try controller.performFetch()
        try controller.prepareForChanges()
        let before = Snapshot(controller)

        // 200 rows (no fraction, the spaced form) move by ten hours, in one transaction.
        let moved = (1...Self.rows).filter { $0 % 7 != 0 && $0 % 50 != 0 }.prefix(200)
        try writer.transaction {
            for n in moved {
                try writer.run(
                    "UPDATE events SET ts = ? WHERE id = ?",
                    [.text(Self.time(n, shift: 600)), .integer(Int64(n))]
                )
            }
        }
        let probesBefore = controller.statistics.probeReads
        try context.processExternalChanges()

        #expect(controller.statistics.refetches == 0)
        #expect(batches.count == 1)
        // Placed by prefixes: a probe only where a fraction ties two prefixes (a binary search
        // through SQL for each row, as without them, would read more than 200 × 10).
        #expect(controller.statistics.probeReads - probesBefore < 200)
        let fresh = FetchedResultsController(fetchRequest: request, context: ObjectContext(store: store))
        try fresh.performFetch()
        if let batch = batches.first { #expect(try BatchChecker.apply(batch, to: before) == Snapshot(fresh)) }
        #expect(Snapshot(controller) == Snapshot(fresh))
        // The fetch's order is SQLite's text order across the forms.
        let sqlOrder = try writer.query("SELECT id FROM events ORDER BY ts DESC, id").compactMap { $0.first?.int64 }
        #expect(Snapshot(controller).sections.flatMap(\.ids).map(\.rowID) == sqlOrder)
    }
}
