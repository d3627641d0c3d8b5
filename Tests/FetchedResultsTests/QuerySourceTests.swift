import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedResults

/// A query as a controller's source: a ``LiveQuery`` keeps its result table, a controller over
/// ``FetchRequest/init(query:)`` reads each run's difference as a batch. The property: random
/// writes to the query's base tables by another connection; after each, one look (and a run
/// when a table it reads changed) and the context's pick-up give a batch that, applied to the
/// old results by rule 4, gives the new results — whose values, in order, are a fresh run of
/// the query — and rows keep their object by the key.
@Suite struct QuerySourceTests {
    static let query = """
        SELECT j.code, j.title, count(s.id) AS students, sum(s.number) AS total
        FROM subject j LEFT JOIN student s ON s.subject = j.code
        GROUP BY j.code ORDER BY students DESC, j.code
        """

    final class School {
        let folder = TemporaryDirectory("query-source")
        var path: String { folder.path("school.sqlite") }
        let writer: Database

        init() throws {
            writer = try Database(path: folder.path("school.sqlite"))
            try writer.execute(
                """
                CREATE TABLE student (id INTEGER PRIMARY KEY, name TEXT, subject TEXT, number INTEGER);
                CREATE TABLE subject (code TEXT PRIMARY KEY, title TEXT) WITHOUT ROWID;
                CREATE TABLE unrelated (x);
                INSERT INTO subject VALUES ('art', 'Art'), ('math', 'Mathematics'), ('bio', 'Biology');
                INSERT INTO student (name, subject, number) VALUES ('Ada', 'math', 3), ('Brook', 'art', 1),
                    ('Cyril', 'math', 2);
                """
            )
        }

        /// A live query of `sql` on the school, its results kept beside it; `loaded`: run once.
        func liveQuery(
            _ sql: String = QuerySourceTests.query,
            key: [String]? = ["code"],
            loaded: Bool = true
        )
            throws -> LiveQuery
        {
            let live = try LiveQuery(
                databasePath: path,
                sql: sql,
                key: key,
                resultPath: folder.path("result.sqlite")
            )
            if loaded { try live.load() }
            return live
        }

        /// The query run afresh on a connection of its own: its rows' values, in its order.
        func freshRun() throws -> [[StoreValue]] {
            let reader = try Database.openForQueries(path: path)
            return try reader.query(QuerySourceTests.query)
        }
    }

    /// A controller over the results of `live`, on a context of its own (not fetched yet).
    static func controller(_ live: LiveQuery) throws -> FetchedResultsController {
        let context = ObjectContext(store: try live.result.openStore())
        return FetchedResultsController(fetchRequest: FetchRequest(query: live.result), context: context)
    }

    /// The controller's rows' values (the result's columns), in order.
    static func values(_ controller: FetchedResultsController, columns: [QueryColumn]) -> [[StoreValue]] {
        controller.fetchedObjects.map { object in columns.map { object[$0.name] } }
    }

    static func keys(_ controller: FetchedResultsController) -> [StoreValue: ObjectID] {
        var keys: [StoreValue: ObjectID] = [:]
        for (position, object) in controller.fetchedObjects.enumerated() {
            keys[object["code"]] = controller.fetchedObjects.objectID(at: position)
        }
        return keys
    }

    /// One random write to the base tables (or to a table the query does not read).
    static func write(_ school: School, _ rng: inout SplitMix64) throws -> String {
        let codes = ["art", "math", "bio", "chem", "geo"]
        let code = StoreValue.text(codes[Int.random(in: 0..<codes.count, using: &rng)])
        let number = StoreValue.integer(Int64.random(in: 0...9, using: &rng))
        let student = StoreValue.integer(Int64.random(in: 1...12, using: &rng))
        switch Int.random(in: 0..<8, using: &rng) {
        case 0, 1:
            try school.writer.run("INSERT INTO student (name, subject, number) VALUES ('n', ?, ?)", [code, number])
            return "insert student \(code)"
        case 2:
            try school.writer.run("UPDATE student SET subject = ?, number = ? WHERE id = ?", [code, number, student])
            return "move student \(student) to \(code)"
        case 3:
            try school.writer.run("DELETE FROM student WHERE id = ?", [student])
            return "delete student \(student)"
        case 4:
            try school.writer.run("INSERT OR IGNORE INTO subject VALUES (?, upper(?))", [code, code])
            return "insert subject \(code)"
        case 5:
            try school.writer.run("UPDATE subject SET title = title || '+' WHERE code = ?", [code])
            return "retitle \(code)"
        case 6:
            try school.writer.run("DELETE FROM subject WHERE code = ?", [code])
            return "delete subject \(code)"
        default:
            try school.writer.run("INSERT INTO unrelated VALUES (1)")
            return "write a table the query does not read"
        }
    }

    @Test(arguments: [UInt64(7), 42, 2026])
    func everyRunsBatchAppliedToTheOldResultsIsAFreshRunOfTheQuery(seed: UInt64) throws {
        let school = try School()
        let live = try school.liveQuery()
        #expect(Set(live.readTables) == ["student", "subject"])
        let controller = try Self.controller(live)
        var batches: [ChangeBatch] = []
        controller.onChange = { batches.append($0) }
        try controller.performFetch()
        #expect(Self.values(controller, columns: live.columns) == (try school.freshRun()))
        var rng = SplitMix64(seed: seed)
        let steps = ProcessInfo.processInfo.environment["PROPERTY_LONG"] == nil ? 60 : 600
        var stepsWithABatch = 0
        defer { #expect(stepsWithABatch >= steps / 4, "seed \(seed): the writes changed the results") }
        for step in 0..<steps {
            let before = Snapshot(controller)
            let keysBefore = Self.keys(controller)
            let write = try Self.write(school, &rng)
            let outcome = live.lookNow()
            if case .failed(let message)? = outcome {
                Issue.record("seed \(seed) step \(step) (\(write)): the run failed: \(message)")
                return
            }
            batches = []
            try controller.context.processExternalChanges()
            #expect(batches.count <= 1, "seed \(seed) step \(step): one run, one batch")
            if !batches.isEmpty { stepsWithABatch += 1 }
            let after = try batches.last.map { try BatchChecker.apply($0, to: before) } ?? before
            #expect(after == Snapshot(controller), "seed \(seed) step \(step) (\(write)): batch applied ≠ results")
            let fresh = try school.freshRun()
            #expect(
                Self.values(controller, columns: live.columns) == fresh,
                "seed \(seed) step \(step) (\(write)): results ≠ a fresh run"
            )
            for (key, id) in Self.keys(controller) where keysBefore[key] != nil {
                #expect(keysBefore[key] == id, "seed \(seed) step \(step): the row of \(key) kept its object")
            }
        }
    }

    @Test(arguments: [["code"], nil])
    func theFirstRunListedByItsRowIDsIsItsFetchAndTakesTheNextRunsBatch(key: [String]?) throws {
        let school = try School()
        let live = try school.liveQuery(key: key)
        let count = try #require(live.firstRunRowCount)
        let presorted = try Self.controller(live)
        let rows = PresortedRows(keyPath: live.result.orderColumn, ascendingWithIDs: (0..<Int64(count)).map { $0 + 1 })
        #expect(try presorted.performFetch(presorted: rows))
        let fetched = try Self.controller(live)
        try fetched.performFetch()
        #expect(Snapshot(presorted) == Snapshot(fetched))
        #expect(Self.values(presorted, columns: live.columns) == (try school.freshRun()))
        // The next run's batch, applied to the rows as listed, gives that run.
        try school.writer.run("INSERT INTO student (name, subject, number) VALUES ('Dee', 'bio', 5)")
        var batches: [ChangeBatch] = []
        presorted.onChange = { batches.append($0) }
        guard case .refreshed? = live.lookNow() else {
            Issue.record("the run after an insert did not refresh the result")
            return
        }
        #expect(live.firstRunRowCount == nil)
        let before = Snapshot(presorted)
        try presorted.context.processExternalChanges()
        #expect(batches.count == 1)
        let after = try batches.last.map { try BatchChecker.apply($0, to: before) } ?? before
        #expect(after == Snapshot(presorted))
        #expect(Self.values(presorted, columns: live.columns) == (try school.freshRun()))
    }

    @Test func aFollowedQueryReportsARefreshAfterAnotherConnectionCommits() throws {
        let school = try School()
        let live = try school.liveQuery()
        let refreshed = DispatchSemaphore(value: 0)
        live.pollInterval = 0.01
        live.follow { event in if case .refreshed = event { refreshed.signal() } }
        defer { live.stop() }
        try school.writer.run("INSERT INTO student (name, subject, number) VALUES ('Dana', 'bio', 4)")
        // A bound so that a broken follower fails instead of hanging; the refresh itself is guaranteed.
        #expect(refreshed.wait(timeout: .now() + 60) == .success)
        let controller = try Self.controller(live)
        try controller.performFetch()
        #expect(Self.values(controller, columns: live.columns) == (try school.freshRun()))
    }

    @Test func aCommitToATableTheQueryDoesNotReadRunsNothing() throws {
        let school = try School()
        let live = try school.liveQuery()
        #expect(live.lookNow() == nil, "nothing committed")
        try school.writer.run("INSERT INTO unrelated VALUES (1)")
        #expect(live.lookNow() == nil, "a table the query does not read")
        try school.writer.run("UPDATE subject SET title = 'Art!' WHERE code = 'art'")
        guard case .refreshed(let refresh)? = live.lookNow() else {
            Issue.record("a write to subject runs the query")
            return
        }
        #expect(refresh.tables == ["subject"])
        #expect(refresh.change.updated == 1 && refresh.change.inserted == 0 && refresh.change.deleted == 0)
    }

    /// A table without history triggers is told changed by its count and largest row id, else by
    /// its rows' digest: an update in place right after an insert (its digest not read again
    /// yet) is still seen, and so is one after a quiet look; a commit that rewrites a row as it
    /// was, or writes another table, runs nothing.
    @Test func untrackedTablesAreToldChangedByTheirCountThenByTheirRows() throws {
        let school = try School()
        let live = try school.liveQuery("SELECT id, name, number FROM student ORDER BY id", key: nil)
        #expect(live.lookNow() == nil, "nothing committed")
        try school.writer.run("INSERT INTO student (name, subject, number) VALUES ('Dana', 'art', 4)")
        guard case .refreshed(let inserted)? = live.lookNow() else {
            Issue.record("an insert into student runs the query")
            return
        }
        #expect(inserted.change.inserted == 1 && inserted.change.count == 4)
        try school.writer.run("UPDATE student SET number = 9 WHERE name = 'Ada'")
        guard case .refreshed(let updated)? = live.lookNow() else {
            Issue.record("an update in place right after the insert runs the query")
            return
        }
        #expect(updated.change.updated == 1 && updated.change.inserted == 0)
        #expect(live.lookNow() == nil, "a quiet look")
        try school.writer.run("UPDATE student SET number = 10 WHERE name = 'Brook'")
        guard case .refreshed(let again)? = live.lookNow() else {
            Issue.record("an update in place after a quiet look runs the query")
            return
        }
        #expect(again.change.updated == 1)
        try school.writer.run("UPDATE student SET number = number")
        #expect(live.lookNow() == nil, "every row rewritten as it was")
        try school.writer.run("INSERT INTO unrelated VALUES (2)")
        #expect(live.lookNow() == nil, "a table the query does not read")
    }

    @Test func aKeyThatRepeatsIsRefusedNamingTheDuplicate() throws {
        let school = try School()
        let live = try school.liveQuery(
            "SELECT subject, name FROM student ORDER BY name",
            key: ["subject"],
            loaded: false
        )
        #expect(throws: QueryResultError.duplicateKey(columns: ["subject"], values: [.text("math")])) {
            try live.load()
        }
        #expect(
            "\(QueryResultError.duplicateKey(columns: ["subject"], values: [.text("math")]))".contains("subject")
        )
    }

    @Test func withoutAKeyRowsAreToldApartByContent() throws {
        let school = try School()
        let live = try school.liveQuery("SELECT subject, count(*) AS n FROM student GROUP BY subject", key: nil)
        #expect(live.identityDescription == "by their content")
        try school.writer.run("INSERT INTO student (name, subject, number) VALUES ('Dana', 'art', 4)")
        guard case .refreshed(let refresh)? = live.lookNow() else {
            Issue.record("an insert into student runs the query")
            return
        }
        #expect(refresh.change.deleted == 1 && refresh.change.inserted == 1 && refresh.change.updated == 0)
    }
}
