import Foundation
import TerminalUI
import TestSupport
import Testing

@testable import FetchedTableKit

/// A CSV file in a fresh folder and its ``CSVLoadingSession`` on a 50×12 ``TestTerminal``, its
/// cache in the folder: the set-up of the loading session's tests, written once.
///
///     let fixture = try CSVLoadingFixture("csv-session", csv: "name,count\napple,3\n")
///     defer { fixture.remove() }
///     fixture.start()
///     let browser = try fixture.waitForBrowser()
final class CSVLoadingFixture {
    let folder: TemporaryDirectory
    let terminal = TestTerminal(width: 50, height: 12)
    let session: CSVLoadingSession

    /// Writes `fruit.csv` holding `csv` in a new folder named after `label`; the session made, not started.
    init(_ label: String, csv: String) throws {
        folder = TemporaryDirectory(label)
        let file = folder.path("fruit.csv")
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        session = CSVLoadingSession(options: TableOptions(file: file), loop: terminal.loop)
    }

    /// Removes the folder.
    func remove() { folder.remove() }

    /// Starts the load, its cache in the folder (`XDG_CACHE_HOME`).
    func start() {
        session.start(environment: ["XDG_CACHE_HOME": folder.path("cache")])
    }

    /// Runs the loop's posts — its clock standing still, no key coming: only the loader's posts
    /// move it on — until the load ends (60 s at most); expects no error and returns the browser.
    func waitForBrowser(sourceLocation: SourceLocation = #_sourceLocation) throws -> TableBrowser {
        let deadline = Date().addingTimeInterval(60)
        while session.browser == nil, session.error == nil, Date() < deadline {
            terminal.runPosted(waitingUpTo: deadline.timeIntervalSinceNow)
        }
        #expect(session.error == nil, sourceLocation: sourceLocation)
        return try #require(session.browser, "the load never posted its end", sourceLocation: sourceLocation)
    }
}
