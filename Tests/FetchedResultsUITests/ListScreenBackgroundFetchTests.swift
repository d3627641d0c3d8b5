import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

/// `ListScreenConfiguration.fetchesInBackground`: the first tab's full fetch runs on
/// the store's second connection while the run loop goes on answering keys; the
/// loop's ticker installs the results once it is done.
@Suite struct ListScreenBackgroundFetchTests {
    /// A clock that moves on a millisecond each time it is read: `run()` over a
    /// `MemoryBackend` (whose script never blocks) then fires its tickers as it spins.
    final class SpinningClock: TerminalUI.TimeSource {
        private var time = 100.0
        var now: Double {
            time += 0.001
            return time
        }
    }

    @Test func qQuitsWhileTheFirstFetchRunsWithoutWaitingForIt() throws {
        let f = try ListScreenFixture(cache: false, fetchesInBackground: true)
        // The first frame is the preview; the fetch went to the second connection.
        #expect(f.list.isLoading)
        #expect(f.text.contains("1986 (…)"))
        #expect(f.text.contains("Loading…"))
        f.screen.enqueue(.character("q"))
        // The loop's clock stands still: no ticker can install the results before q.
        #expect(f.loop.run() == .quit)
        #expect(f.list.isLoading)
    }

    @Test func theFetchsWorkerHandsTheResultsToTheLoopWhichInstallsThemWithoutATickOrAKey() throws {
        let f = try ListScreenFixture(cache: false, fetchesInBackground: true)
        #expect(f.list.isLoading)
        // The clock stands still and no key comes: only the worker's post can end the loading.
        #expect(f.loop.runPosted(waitingUpTo: 60) >= 1, "the background fetch never posted")
        #expect(!f.list.isLoading)
        #expect(f.list.loadError == nil)
        f.loop.draw()
        #expect(f.text.contains("1986 (1)"))
        #expect(!f.text.contains("Loading…"))
    }

    @Test func aRefetchAfterAnotherProgramsWriteComesBackThroughTheLoopNotThroughThePoll() throws {
        let folder = TemporaryDirectory("list-refetch")
        defer { folder.remove() }
        let path = folder.path("items.sqlite")
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE items (name TEXT); INSERT INTO items VALUES ('apple'), ('banana');")
        let entity = try #require(try DatabaseCatalog(path: path).table(named: "items")).entity(named: "items")
        let store = try Store(
            foreignDatabaseAt: path,
            model: Model(version: 1, applicationID: 0, entities: [entity]),
            readOnly: false
        )
        var tab = ListTab(title: "Items", entity: "items", sortDescriptors: [FetchSort("name")]) { item in
            TableCell(title: item.string("name") ?? "")
        }
        // An untracked file: a write by another program is a reset, refetched in the background.
        tab.refetchesInBackgroundOnReset = true
        var configuration = ListScreenConfiguration(title: "Items", tabs: [tab])
        configuration.animated = false
        let terminal = TestTerminal(width: 40, height: 10)
        let list = try ListScreen(
            context: ObjectContext(store: store),
            configuration: configuration,
            loop: terminal.loop
        )
        terminal.press()
        #expect(list.adapter.controller.numberOfObjects == 2)
        try writer.execute("INSERT INTO items VALUES ('cherry')")
        list.pollExternalChanges()
        #expect(list.adapter.controller.backgroundWork.contains(.refetch))
        // No poll from here on: only the refetch's post can deliver it.
        while list.adapter.controller.backgroundWork.contains(.refetch), terminal.runPosted(waitingUpTo: 60) > 0 {}
        #expect(list.adapter.controller.numberOfObjects == 3)
        #expect(terminal.text.contains("cherry"))
    }

    @Test func keysTypedWhileItRunsActOnTheResultsOnceTheyShow() throws {
        let f = try ListScreenFixture(cache: false, fetchesInBackground: true, loopClock: SpinningClock())
        f.screen.enqueue(.down, .character("x"))
        let started = Date()
        f.loop.addTicker(every: 0.01) { [list = f.list, loop = f.loop] _ in
            if !list.isLoading || Date().timeIntervalSince(started) > 20 { loop.quit() }
        }
        #expect(f.loop.run() == .quit)
        #expect(!f.list.isLoading)
        // ↓ then x, on the results: the second book of the Year tab (1986, then 1984).
        #expect(f.extraKeyTitles == ["Neuromancer"])
        #expect(f.selectedTitle == "Neuromancer")
    }

    @Test func theLoopInstallsTheResultsOnceTheFetchIsDone() throws {
        let f = try ListScreenFixture(cache: false, fetchesInBackground: true, loopClock: SpinningClock())
        #expect(f.list.isLoading)
        let started = Date()
        f.loop.addTicker(every: 0.01) { [list = f.list, loop = f.loop] _ in
            if !list.isLoading || Date().timeIntervalSince(started) > 20 { loop.quit() }
        }
        #expect(f.loop.run() == .quit)
        #expect(!f.list.isLoading, "the background fetch was never installed")
        #expect(f.list.loadError == nil)
        f.loop.draw()
        #expect(f.text.contains("1986 (1)"))
        #expect(!f.text.contains("Loading…"))
        #expect(f.list.positionText == "1/8")
        #expect(f.selectedTitle == "Count Zero")
    }

    @Test func aWriteWhileTheFetchRunsShowsAfterIt() throws {
        let f = try ListScreenFixture(cache: false, fetchesInBackground: true, loopClock: SpinningClock())
        try Database(path: f.store.path).execute(
            "INSERT INTO book(title, author, year) VALUES ('Binti', 'Okorafor', '2015')"
        )
        let started = Date()
        f.loop.addTicker(every: 0.01) { [list = f.list, loop = f.loop] _ in
            let shown = !list.isLoading && list.adapter.controller.numberOfObjects == 9
            if shown || Date().timeIntervalSince(started) > 20 { loop.quit() }
        }
        _ = f.loop.run()
        #expect(!f.list.isLoading)
        #expect(f.list.adapter.controller.numberOfObjects == 9)
        // The new book sorts first (2015); the selection stayed where it was: g goes up to it.
        #expect(f.press(.character("g")).contains("2015 (1)"))
        #expect(f.selectedTitle == "Binti")
    }

    @Test func aPoppedListNoLongerPolls() throws {
        final class Count { var polls = 0 }
        let count = Count()
        let f = try ListScreenFixture(
            willPoll: { _ in
                count.polls += 1
                return true
            },
            loopClock: SpinningClock()
        )
        let started = Date()
        var stop = false
        f.loop.addTicker(every: 0.05) { [loop = f.loop] _ in
            if stop || Date().timeIntervalSince(started) > 20 { loop.quit() }
        }
        f.loop.addTicker(every: 1) { _ in stop = count.polls > 0 }
        _ = f.loop.run()
        #expect(count.polls > 0, "the list polls while it shows")
        _ = f.loop.pop()
        let before = count.polls
        stop = false
        f.loop.push(PlainView())
        f.loop.addTicker(every: 2) { _ in stop = true }
        _ = f.loop.run()
        #expect(count.polls == before, "a list that is no longer on the loop's stack polled")
    }

    final class PlainView: View {
        func render(into canvas: inout Canvas, frame: Rect, at time: Double) {}
    }
}
