import Foundation
import SQLiteStore
import TerminalUI
import Testing

@testable import FailedBanksKit

/// Another file renamed over the store's path while `watch`
/// or the browser runs. Each poll notices that the path names another file;
/// `watch` prints a snapshot of the new file (a reset), the browser shows it, and
/// a delete goes into the new file; a new file that is not a store is refused.
@Suite struct ReplacedStoreTests {
    static let first: [CommandTestStore.Bank] = [
        .init("Alpha Bank", "Austin", "TX", "2025-06-27", cert: 1),
        .init("Beta Bank", "Fresno", "CA", "2025-01-10", cert: 2),
        .init("Gamma Bank", "Peoria", "IL", "2024-11-08", cert: 3),
    ]
    static let second: [CommandTestStore.Bank] = [
        .init("Zeta Bank", "Reno", "NV", "2021-03-05", cert: 11),
        .init("Eta Bank", "Ogden", "UT", "2022-08-19", cert: 12),
        .init("Theta Bank", "Omaha", "NE", "2020-02-14", cert: 13),
        .init("Iota Bank", "Tulsa", "OK", "2022-01-07", cert: 14),
    ]

    static func names(at path: String) throws -> [String] {
        let db = try Database(
            path: path,
            options: {
                var o = Database.Options()
                o.readOnly = true
                return o
            }()
        )
        return try db.query("SELECT name FROM failed_bank_info ORDER BY name").compactMap { $0[0].string }
    }

    // MARK: watch

    @Test func watchPrintsASnapshotOfTheFileRenamedOverItsPathAndFollowsIt() throws {
        let store = try CommandTestStore("replaced-watch", banks: Self.first)
        let other = try CommandTestStore("replaced-watch-other", banks: Self.second)
        let run = try WatchRun(
            ["--db", store.path],
            steps: [
                { #expect(rename(other.path, store.path) == 0) },
                { try Database(path: store.path).execute("DELETE FROM failed_bank_info WHERE name = 'Eta Bank'") },
            ]
        )
        #expect(run.status == 0)
        #expect(
            run.initial == [#"{"type":"snapshot","sections":[{"name":"2025","ids":[1,2]},{"name":"2024","ids":[3]}]}"#]
        )
        #expect(run.afterStep.count == 2)
        #expect(
            run.afterStep.first == [
                #"{"type":"snapshot","sections":[{"name":"2022","ids":[2,4]},{"name":"2021","ids":[1]},{"name":"2020","ids":[3]}]}"#
            ]
        )
        #expect(
            run.afterStep.last == [
                #"{"type":"batch","sections":[],"objects":[{"change":"delete","id":2,"from":[0,0]}],"counts":[1,1,1]}"#
            ]
        )
        #expect(run.errors.contains { $0.contains("the store file was replaced") })
    }

    @Test func watchRefusesAFileRenamedOverItsPathThatIsNotAStoreAndExitsNonZero() throws {
        let store = try CommandTestStore("replaced-watch-bad", banks: Self.first)
        let junk = store.scratch.path("notes.txt")
        try Data("not a database, just some notes\n".utf8).write(to: URL(fileURLWithPath: junk))
        let run = try WatchRun(
            ["--db", store.path],
            steps: [
                { #expect(rename(junk, store.path) == 0) },
                {},
            ]
        )
        #expect(run.status == 65)
        #expect(run.afterStep.allSatisfy { $0.isEmpty })
        #expect(run.errors.contains { $0.contains("the store file was replaced") })
        #expect(run.errors.contains { $0.contains(store.path) && $0.contains("not") })
    }

    // MARK: The browser

    /// The browser over the store at `path`, holding nothing else of it (as the launcher hands it over).
    final class Browsing {
        let screen = MemoryBackend(width: 80, height: 24)
        let clock = TestClock(now: 100)
        let browser: BankBrowser

        init(path: String, cacheDirectory: String) throws {
            browser = try BankBrowser(
                store: try Store(path: path, model: BrowserModel.model),
                options: BrowserOptions(),
                backend: screen,
                clock: clock,
                cacheDirectory: cacheDirectory
            )
            browser.loop.draw()
        }

        @discardableResult
        func press(_ events: InputEvent...) -> String {
            TestTerminal.press(events, on: browser.loop, clock: clock)
            return screen.text
        }

        func poll() -> String {
            browser.pollExternalChanges()
            return press()
        }
    }

    @Test func theBrowserShowsTheFileRenamedOverItsPathAndDeletesInIt() throws {
        let store = try CommandTestStore("replaced-browser", banks: Self.first)
        let other = try CommandTestStore("replaced-browser-other", banks: Self.second)
        let b = try Browsing(path: store.path, cacheDirectory: store.scratch.path("cache"))
        #expect(b.screen.text.contains("Alpha Bank"))
        // Keep a name for the old file, to see that nothing goes into it any more.
        let oldFile = store.scratch.path("old.sqlite")
        #expect(link(store.path, oldFile) == 0)
        #expect(rename(other.path, store.path) == 0)

        let frame = b.poll()
        #expect(b.browser.loadError == nil)
        #expect(frame.contains("The store file was replaced"))
        #expect(frame.contains("Eta Bank") && !frame.contains("Alpha Bank"))
        #expect(b.browser.positionText == "1/4")

        b.press(.character("d"))
        let deleted = b.press(.enter)
        #expect(deleted.contains("Deleted Eta Bank"))
        #expect(try Self.names(at: store.path) == ["Iota Bank", "Theta Bank", "Zeta Bank"])
        #expect(try Self.names(at: oldFile) == ["Alpha Bank", "Beta Bank", "Gamma Bank"])
    }

    @Test func theBrowserQuitsWithTheRefusalWhenTheFileRenamedOverItsPathIsNotAStore() throws {
        let store = try CommandTestStore("replaced-browser-bad", banks: Self.first)
        let b = try Browsing(path: store.path, cacheDirectory: store.scratch.path("cache"))
        let junk = store.scratch.path("notes.txt")
        try Data("not a database, just some notes\n".utf8).write(to: URL(fileURLWithPath: junk))
        #expect(rename(junk, store.path) == 0)
        b.browser.pollExternalChanges()
        let refusal = try #require(b.browser.loadError as? StoreRefusal)
        #expect(refusal.status == 65)
        #expect(refusal.message.contains("replaced the store file"))
    }
}
