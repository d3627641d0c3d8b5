import Foundation
import TerminalUI
import TestSupport
import Testing

@testable import FetchedTableKit

/// A CSV file's load hands its first rows, its progress and its end to the run loop through
/// posts: nothing on the loop's side polls for them.
@Suite struct CSVLoadingSessionTests {
    @Test func theLoadsEndArrivesAsAPostAndTheListTakesTheLoadingScreensPlace() throws {
        let folder = TemporaryDirectory("csv-session")
        defer { folder.remove() }
        let file = folder.path("fruit.csv")
        try "name,count\napple,3\nbanana,5\ncherry,7\n".write(toFile: file, atomically: true, encoding: .utf8)
        let terminal = TestTerminal(width: 50, height: 12)
        let session = CSVLoadingSession(options: TableOptions(file: file), loop: terminal.loop)
        session.start(environment: ["XDG_CACHE_HOME": folder.path("cache")])
        // The loop's clock stands still and no key comes: only the loader's posts move it on.
        let deadline = Date().addingTimeInterval(60)
        while session.browser == nil, session.error == nil, Date() < deadline {
            terminal.runPosted(waitingUpTo: deadline.timeIntervalSinceNow)
        }
        #expect(session.error == nil)
        let browser = try #require(session.browser, "the load never posted its end")
        #expect(terminal.loop.topView === browser.list)
        #expect(terminal.press().contains("banana"))
    }
}
