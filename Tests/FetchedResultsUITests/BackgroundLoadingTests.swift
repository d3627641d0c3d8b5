import Foundation
import TerminalUI
import Testing

@testable import FetchedResultsUI

/// A background load shows its first rows and progress on its loading screen and hands its end
/// to the loop's thread, all through posts; once cancelled, nothing it posts arrives.
@Suite struct BackgroundLoadingTests {
    @Test func theFirstRowsAndTheProgressAreShownAndTheEndIsHandedToTheLoop() throws {
        let terminal = TestTerminal(width: 40, height: 10)
        let loading = BackgroundLoading(title: "fruit.csv", loop: terminal.loop)
        #expect(terminal.loop.topView === loading.screen)
        let showRows = loading.rowsPoster { (names: [String]) in names.map { TableCell(title: $0) } }
        let showProgress = loading.progressPoster { (rows: Int) in "Loading… \(rows) rows" }
        var ended: Int?
        loading.start {
            showRows(["apple", "banana"])
            showRows(["cherry"])  // later rows are not a preview: ignored
            showProgress(2)
            return 3
        } then: { rows in
            ended = rows
        }
        let deadline = Date().addingTimeInterval(60)
        while ended == nil, Date() < deadline { terminal.runPosted(waitingUpTo: deadline.timeIntervalSinceNow) }
        #expect(ended == 3)
        #expect(loading.screen.rows.map(\.title) == ["apple", "banana"])
        #expect(loading.screen.progressText == "Loading… 2 rows")
    }

    @Test func afterCancelNothingTheLoadPostsIsShownAndItsEndIsDropped() throws {
        let terminal = TestTerminal(width: 40, height: 10)
        let loading = BackgroundLoading(title: "fruit.csv", progressText: "Copying…", loop: terminal.loop)
        let showProgress = loading.progressPoster { (rows: Int) in "Copying… \(rows) rows" }
        let release = DispatchSemaphore(value: 0)
        var ended = false
        loading.start {
            release.wait()  // the load reports only once cancelled
            showProgress(5)
            return true
        } then: { _ in
            ended = true
        }
        loading.cancel()
        release.signal()
        // The progress and the end are posted (two posts), and dropped when they run.
        var ran = 0
        let deadline = Date().addingTimeInterval(60)
        while ran < 2, Date() < deadline { ran += terminal.runPosted(waitingUpTo: deadline.timeIntervalSinceNow) }
        #expect(ran == 2)
        #expect(!ended)
        #expect(loading.screen.progressText == "Copying…")
    }
}
