import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

/// `ListScreenConfiguration.neverWaitsForLocks`: another connection holds a rollback-journal
/// file locked exclusively; the screen's thread never waits for it. A poll or a delete that
/// meets the lock says so and hands the wait to a connection of its own, off the thread;
/// the delete is done once the lock goes.
@Suite struct ListScreenLockTests {
    final class Fixture {
        let folder = TemporaryDirectory("list-lock")
        let path: String
        let other: Database
        let terminal = TestTerminal(width: 80, height: 12)
        let list: ListScreen

        init() throws {
            path = folder.path("items.sqlite")
            var options = Database.Options()
            options.walMode = false  // a rollback journal: an exclusive lock keeps readers out too
            other = try Database(path: path, options: options)
            try other.execute(
                "CREATE TABLE items (name TEXT); INSERT INTO items VALUES ('apple'), ('banana'), ('cherry');"
            )
            let entity = try #require(try DatabaseCatalog(path: path).table(named: "items")).entity(named: "items")
            let store = try Store(
                foreignDatabaseAt: path,
                model: Model(version: 1, applicationID: 0, entities: [entity]),
                readOnly: false
            )
            let tab = ListTab(title: "Items", entity: "items", sortDescriptors: [FetchSort("name")]) { item in
                TableCell(title: item.string("name") ?? "")
            }
            var configuration = ListScreenConfiguration(title: "Items", tabs: [tab])
            configuration.animated = false
            configuration.neverWaitsForLocks = true
            list = try ListScreen(
                context: ObjectContext(store: store),
                configuration: configuration,
                loop: terminal.loop
            )
            terminal.press()
        }

        deinit { folder.remove() }
    }

    @Test func aPollThatMeetsTheLockSaysSoAndTheWaitPollsOnceItGoes() throws {
        let f = try Fixture()
        try f.other.execute("BEGIN EXCLUSIVE; INSERT INTO items VALUES ('date');")
        f.list.pollExternalChanges()  // gives up at once: a connection of its own waits
        #expect(f.terminal.press().contains("waiting for another program's write lock…"))
        try f.other.execute("COMMIT")
        // Other work may post first (the prefixes built after the first fetch): until the wait's own post.
        let deadline = Date().addingTimeInterval(60)
        while f.terminal.text.contains("waiting for another program's write lock…"), Date() < deadline {
            f.terminal.runPosted(waitingUpTo: deadline.timeIntervalSinceNow)
        }
        let frame = f.terminal.press()
        #expect(!frame.contains("waiting for another program's write lock…"))
        #expect(frame.contains("date"), "polled once the lock went:\n\(frame)")
    }

    @Test func aDeleteThatMeetsTheLockWaitsOffTheThreadAndIsDoneOnceItGoes() throws {
        let f = try Fixture()
        try f.other.execute("BEGIN EXCLUSIVE")
        f.terminal.press(.down, .character("d"), .enter)  // banana
        #expect(f.terminal.text.contains("waiting for another program's write lock…"), "\(f.terminal.text)")
        #expect(f.list.adapter.controller.numberOfObjects == 3)
        // A second change while the first waits is refused, not lost.
        f.terminal.press(.character("u"))
        #expect(f.terminal.text.contains("a change waits for another program's lock"))
        try f.other.execute("ROLLBACK")
        while f.terminal.runPosted(waitingUpTo: 60) > 0, f.list.adapter.controller.numberOfObjects == 3 {}
        #expect(f.list.adapter.controller.numberOfObjects == 2)
        #expect(
            try f.other.query("SELECT name FROM items ORDER BY name").compactMap { $0[0].string } == [
                "apple", "cherry",
            ]
        )
        #expect(f.terminal.press().contains("u to undo"))
    }
}
