import FetchedResultsUI
import Foundation
import TerminalUI
import TestSupport
import Testing

@testable import FetchedTableKit

/// A CSV file's load hands its first rows, its progress and its end to the run loop through
/// posts: nothing on the loop's side polls for them.
@Suite struct CSVLoadingSessionTests {
    @Test func theLoadsEndArrivesAsAPostAndTheListTakesTheLoadingScreensPlace() throws {
        let fixture = try CSVLoadingFixture("csv-session", csv: "name,count\napple,3\nbanana,5\ncherry,7\n")
        defer { fixture.remove() }
        fixture.start()
        let browser = try fixture.waitForBrowser()
        #expect(fixture.terminal.loop.topView === browser.list)
        #expect(fixture.terminal.press().contains("banana"))
    }

    /// Keys typed before the load is complete — a filter and its text, with a `q` in it — reach
    /// the list once it opens, in order; none is lost on the loading screen. (Before the loading
    /// screen kept them, the filter's keys went nowhere and the list opened unfiltered.)
    @Test func keysTypedWhileLoadingReachTheListOnceItOpens() throws {
        let fixture = try CSVLoadingFixture(
            "csv-session-keys",
            csv: "name,count\napple,3\nbanana,5\ncherry,7\nquince,9\n"
        )
        defer { fixture.remove() }
        let terminal = fixture.terminal
        let screen = fixture.session.screen
        fixture.start()
        // Dispatched without running the loop's posts: the load's end cannot arrive before them.
        let typed = [InputEvent.character("\\")] + "name == 'quince'".map { InputEvent.character($0) } + [.enter]
        for event in typed { terminal.loop.dispatch(event) }
        #expect(terminal.loop.topView === screen, "q typed in the filter's text must not quit or leave")
        #expect(screen.keptEvents == typed)
        let browser = try fixture.waitForBrowser()
        #expect(terminal.loop.topView === browser.list)
        #expect(screen.keptEvents.isEmpty)
        let text = terminal.press()
        #expect(text.contains("quince"))
        #expect(!text.contains("banana"), "the filter typed while loading was not applied:\n\(text)")
    }

    /// `q` typed before any other key is the loop's: it quits, as before.
    @Test func qTypedFirstWhileLoadingQuits() {
        let screen = LoadingListScreen(title: "fruit.csv")
        #expect(screen.handle(.character("q")) == .ignored)
        #expect(screen.handle(.escape) == .ignored)
        #expect(screen.handle(.control("s")) == .handled)
        #expect(screen.handle(.character("q")) == .handled, "after a kept key, q is text for the list")
        #expect(screen.keptEvents == [.control("s"), .character("q")])
    }
}
