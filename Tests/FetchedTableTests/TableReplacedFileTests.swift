import CLIKit
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

@testable import FetchedTableKit

/// Another database renamed over the open path (`mv new.sqlite db.sqlite`) while the browser
/// or `watch` runs: each poll compares the path's device and inode with the open file's
/// (`Store.fileAtPath()`, as failedbanks does); the file now there is shown, or refused.
@Suite struct TableReplacedFileTests {
    /// A database at `path` with a `person` table of `names` (ids 1, 2, …).
    static func makeFile(_ path: String, names: [String]) throws {
        let values = names.enumerated().map { "(\($0.offset + 1), '\($0.element)')" }.joined(separator: ", ")
        try Database(path: path).execute(
            "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO person VALUES \(values);"
        )
    }

    static func names(at path: String) throws -> [String] {
        try Database(path: path).query("SELECT name FROM person ORDER BY name").compactMap { $0[0].string }
    }

    /// The browser over `path`'s `person` table on an in-memory screen.
    final class Browsing {
        let screen = MemoryBackend(width: 60, height: 16)
        let clock = TestClock(now: 100)
        let browser: TableBrowser

        init(path: String) throws {
            let options = try TableOptions(parseArguments([path, "--table", "person"], spec: TableOptions.browserSpec))
            browser = try TableBrowser(
                database: try TableDatabase.open(options: options),
                options: options,
                backend: screen,
                clock: clock
            )
            press()
            // The first fetch runs in the background: its results come back through the loop.
            let deadline = Date().addingTimeInterval(60)
            while browser.list?.isLoading == true, Date() < deadline {
                browser.loop.runPosted(waitingUpTo: deadline.timeIntervalSinceNow)
            }
            press()
        }

        @discardableResult
        func press(_ events: InputEvent...) -> String {
            TestTerminal.press(events, on: browser.loop, clock: clock)
            return screen.text
        }
    }

    @Test func theBrowserShowsTheTableOfTheFileRenamedOverItsPathAndDeletesInIt() throws {
        let folder = TemporaryDirectory("ft-replaced")
        defer { folder.remove() }
        let path = folder.path("db.sqlite")
        try Self.makeFile(path, names: ["Ada", "Brook"])
        try Self.makeFile(folder.path("new.sqlite"), names: ["Xia", "Yan", "Zed"])
        let b = try Browsing(path: path)
        #expect(b.screen.text.contains("Ada"))
        let oldName = folder.path("old.sqlite")
        #expect(link(path, oldName) == 0)
        #expect(rename(folder.path("new.sqlite"), path) == 0)

        b.browser.list?.pollExternalChanges()
        let frame = b.press()
        #expect(b.browser.loadError == nil)
        #expect(frame.contains("was replaced"), "\(frame)")
        #expect(frame.contains("Xia") && !frame.contains("Ada"), "\(frame)")
        #expect(b.browser.list?.positionText == "1/3")

        b.press(.character("d"))
        #expect(b.press(.enter).contains("u to undo"))
        #expect(try Self.names(at: path) == ["Yan", "Zed"])
        #expect(try Self.names(at: oldName) == ["Ada", "Brook"])
    }

    @Test func theBrowserQuitsSayingWhyWhenTheFileRenamedOverItsPathHasNoSuchTable() throws {
        let folder = TemporaryDirectory("ft-replaced-other")
        defer { folder.remove() }
        let path = folder.path("db.sqlite")
        try Self.makeFile(path, names: ["Ada", "Brook"])
        try Database(path: folder.path("new.sqlite")).execute(
            "CREATE TABLE invoice (id INTEGER PRIMARY KEY, total REAL)"
        )
        let b = try Browsing(path: path)
        #expect(rename(folder.path("new.sqlite"), path) == 0)
        b.browser.list?.pollExternalChanges()
        let refusal = try #require(b.browser.loadError as? FetchedTableError)
        #expect(refusal.message.contains("no table person"), "\(refusal.message)")
    }

    @Test func watchPrintsASnapshotOfTheFileRenamedOverItsPathAndFollowsIt() throws {
        let folder = TemporaryDirectory("ft-replaced-watch")
        defer { folder.remove() }
        let path = folder.path("db.sqlite")
        try Self.makeFile(path, names: ["Ada", "Brook"])
        try Self.makeFile(folder.path("new.sqlite"), names: ["Xia", "Yan", "Zed"])
        var lines: [String] = []
        var errors: [String] = []
        var step = 0
        let deadline = Date().addingTimeInterval(60)
        let status = TableWatchCommand.run(
            [path, "--table", "person"],
            output: {
                lines.append($0)
                return true
            },
            errorOutput: { errors.append($0) },
            shouldStop: {
                switch (step, lines.count) {
                case (0, 1):
                    #expect(rename(folder.path("new.sqlite"), path) == 0)
                    step = 1
                case (1, 2):
                    try? Database(path: path).execute("DELETE FROM person WHERE name = 'Yan'")
                    step = 2
                case (2, 3):
                    return true
                default:
                    break
                }
                return Date() > deadline
            },
            pollInterval: 10_000
        )
        #expect(status == 0)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first == #"{"type":"snapshot","sections":[{"name":"","ids":[1,2]}]}"#)
        #expect(lines.dropFirst().first == #"{"type":"snapshot","sections":[{"name":"","ids":[1,2,3]}]}"#)
        #expect(lines.last?.contains(#"{"change":"delete","id":2,"from":[0,1]}"#) == true, "\(lines)")
        #expect(errors.contains { $0.contains("was replaced by another file") }, "\(errors)")
    }
}
