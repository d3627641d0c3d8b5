import CLIKit
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

@testable import FetchedTableKit

#if canImport(Glibc)
import Glibc
#endif

/// The browser's `:` line: a query typed on the status line runs as a new tab beside the tables;
/// a refused one shows SQLite's message and where; Esc returns; the history is a private file;
/// Tab completes the file's table and column names; a first run shows its progress and Esc stops it.
@Suite struct QueryLineTests {
    /// The browser over a school of two tables (the table list first) on an in-memory screen,
    /// its `:` history in `folder`.
    final class Browsing {
        let screen = MemoryBackend(width: 90, height: 16)
        let clock = TestClock(now: 100)
        let browser: TableBrowser
        let historyPath: String

        init(folder: TemporaryDirectory) throws {
            let path = folder.path("school.sqlite")
            try Database(path: path).execute(
                """
                CREATE TABLE student (id INTEGER PRIMARY KEY, name TEXT, subject TEXT, number INTEGER);
                CREATE TABLE teacher (name TEXT, subject TEXT, since TEXT);
                INSERT INTO student (name, subject, number) VALUES ('Ada', 'Math', 1), ('Bo', 'Art', 2), ('Cy', 'Math', 3);
                INSERT INTO teacher VALUES ('Ms Ito', 'Math', '2019'), ('Mr Obi', 'Art', '2021');
                """
            )
            let options = try TableOptions(parseArguments([path], spec: TableOptions.browserSpec))
            browser = try TableBrowser(
                database: try TableDatabase.open(options: options),
                options: options,
                backend: screen,
                clock: clock
            )
            historyPath = folder.path("state/fetchedtable/query-history")
            browser.queries.historyPath = historyPath
            press()
        }

        @discardableResult
        func press(_ events: InputEvent...) -> String {
            TestTerminal.press(events, on: browser.loop, clock: clock)
            return screen.text
        }

        @discardableResult
        func type(_ text: String) -> String {
            for character in text { press(.character(character)) }
            return screen.text
        }

        /// Runs what the loop is posted until `condition` holds (60 s at most).
        func waitUntil(_ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(60)
            while !condition(), Date() < deadline {
                browser.loop.runPosted(waitingUpTo: 0.2)
                press()
            }
        }

        var line: QueryLine? { browser.loop.topView as? QueryLine }
    }

    @Test func aRefusedQueryKeepsTheLineWithSQLitesMessageAndWhereAndEscReturns() throws {
        let folder = TemporaryDirectory("ft-queryline")
        defer { folder.remove() }
        let b = try Browsing(folder: folder)
        #expect(b.screen.text.contains("student") && b.screen.text.contains("teacher"))
        b.press(.character(":"))
        #expect(b.line != nil)
        b.type("SELECT nme FROM student")
        let frame = b.press(.enter)
        #expect(frame.contains("no such column: nme (at column 8)"), "\(frame)")
        let line = try #require(b.line, "the line stays open")
        #expect(line.text == "SELECT nme FROM student")
        #expect(line.field.cursorIndex == 7, "the cursor at the column named")
        let back = b.press(.escape)
        #expect(b.browser.loop.topView === b.browser.tableList)
        #expect(!back.contains("no such column"), "\(back)")
        #expect(b.browser.queries.tabs.isEmpty)
    }

    @Test func theHistoryIsAPrivateFileOfOneJSONStringALineRecalledByUpAndDown() throws {
        let folder = TemporaryDirectory("ft-queryhistory")
        defer { folder.remove() }
        let b = try Browsing(folder: folder)
        for query in ["SELECT nme FROM student", "SELECT nme FROM student", "SELECT 'say \"hi\"' FROM nowhere"] {
            b.press(.character(":"))
            b.type(query)
            b.press(.enter)
            b.press(.escape)
        }
        let text = try String(contentsOfFile: b.historyPath, encoding: .utf8)
        #expect(
            text == #""SELECT nme FROM student"\#n"SELECT 'say \"hi\"' FROM nowhere"\#n"#,
            "one line each, a repeat kept once: \(text)"
        )
        var info = stat()
        #expect(stat(b.historyPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat((b.historyPath as NSString).deletingLastPathComponent, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)

        b.press(.character(":"))
        b.type("SEL")
        b.press(.up)
        #expect(b.line?.text == "SELECT 'say \"hi\"' FROM nowhere")
        b.press(.up)
        #expect(b.line?.text == "SELECT nme FROM student")
        b.press(.up)
        #expect(b.line?.text == "SELECT nme FROM student", "the oldest stays")
        b.press(.down, .down)
        #expect(b.line?.text == "SEL", "past the newest: the text typed")
    }

    @Test func theHistoryKeepsItsLimitDroppingTheOldest() throws {
        let folder = TemporaryDirectory("ft-queryhistory-limit")
        defer { folder.remove() }
        let path = folder.path("fetchedtable/query-history")
        var history = QueryHistory(path: path)
        history.limit = 3
        for number in 1...5 { #expect(history.record("SELECT \(number)") == nil) }
        #expect(QueryHistory(path: path).entries == ["SELECT 3", "SELECT 4", "SELECT 5"])
        #expect(
            QueryHistory.standardPath(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])
                == "/s/fetchedtable/query-history"
        )
    }

    @Test func completionOffersTheColumnsOfTheTablesNamedFirstThenTablesThenOtherColumns() {
        let names = QueryCompletion(tables: ["student": ["id", "name", "subject"], "teacher": ["name", "since"]])
        #expect(names.candidates(in: "SELECT s", cursor: 8)?.words == ["student", "subject", "since"])
        let named = names.candidates(in: "SELECT s FROM teacher", cursor: 8)
        #expect(named?.words == ["since", "student", "subject"])
        #expect(named?.range == 7..<8)
        #expect(names.candidates(in: "SELECT t.na", cursor: 11)?.words == ["name"])
        #expect(names.candidates(in: "SELECT ", cursor: 7) == nil)
    }

    @Test func tabCompletesTheWordAtTheCursorAndCyclesShowingTheCandidates() throws {
        let folder = TemporaryDirectory("ft-querytab")
        defer { folder.remove() }
        let b = try Browsing(folder: folder)
        b.press(.character(":"))
        b.type("SELECT nu")
        b.press(.tab)
        #expect(b.line?.text == "SELECT number")
        b.type(", s")
        let frame = b.press(.tab)
        #expect(b.line?.text == "SELECT number, student")
        #expect(frame.contains("student subject since"), "the candidates shown: \(frame)")
        b.press(.tab)
        #expect(b.line?.text == "SELECT number, subject")
        b.press(.tab, .tab)
        #expect(b.line?.text == "SELECT number, student", "round again")
    }

    @Test func enterRunsTheQueryAsANewTabBesideTheTablesKeptCurrent() throws {
        let folder = TemporaryDirectory("ft-querytabrun")
        defer { folder.remove() }
        let b = try Browsing(folder: folder)
        b.press(.character(":"))
        b.type("SELECT s.subject, t.name AS teacher, count(*) AS students FROM student s ")
        b.type("JOIN teacher t USING (subject) GROUP BY s.subject, t.name ORDER BY s.subject")
        b.press(.enter)
        b.waitUntil { b.browser.queries.tabs.first?.browser.list?.isLoading == false }
        let tab = try #require(b.browser.queries.tabs.first)
        #expect(tab.title.hasPrefix(":1 SELECT s.subject, t.name AS"))
        var frame = b.press()
        #expect(frame.contains(":1 SELECT s.subject") && frame.contains("Ms Ito"), "\(frame)")
        b.clock.advance(by: 30)  // past the opening's "read-only" message
        frame = b.press()

        // Another connection commits to a table the query reads: the tab changes, and says why.
        try Database(path: folder.path("school.sqlite")).execute(
            "INSERT INTO student (name, subject, number) VALUES ('Di', 'Math', 4)"
        )
        b.waitUntil { b.screen.text.contains("after a change to student") }
        frame = b.screen.text
        #expect(frame.contains("refreshed ") && frame.contains("after a change to student"), "\(frame)")

        let list = b.press(.escape)
        #expect(b.browser.loop.topView === b.browser.tableList)
        #expect(list.contains(":1 SELECT s.subject") && list.contains("query ·"), "\(list)")
    }

    @Test func aQueryTabOfOneTablesRowsDeletesFromThatTableAndUndoes() throws {
        let folder = TemporaryDirectory("ft-querytabwrite")
        defer { folder.remove() }
        let b = try Browsing(folder: folder)
        b.press(.character(":"))
        b.type("SELECT id, name, number FROM student WHERE number > 1 ORDER BY number")
        b.press(.enter)
        b.waitUntil { b.browser.queries.tabs.first?.browser.list?.isLoading == false }
        let tab = try #require(b.browser.queries.tabs.first)
        #expect(tab.browser.database.readOnlyReason == nil)
        let file = try Database(path: folder.path("school.sqlite"))
        b.press(.character("d"))
        b.press(.enter)
        #expect(try file.scalar("SELECT count(*) FROM student WHERE name = 'Bo'") == .integer(0))
        b.waitUntil { !b.screen.text.contains(" Bo ") }
        #expect(!b.screen.text.contains(" Bo "), "\(b.screen.text)")
        b.press(.character("u"))
        #expect(try file.scalar("SELECT number FROM student WHERE name = 'Bo'") == .integer(2))
        b.waitUntil { b.screen.text.contains(" Bo ") }
        #expect(b.screen.text.contains(" Bo "), "\(b.screen.text)")
    }

    @Test func escDuringASlowFirstRunStopsItAndReopensTheLineSayingCancelled() throws {
        let folder = TemporaryDirectory("ft-querycancel")
        defer { folder.remove() }
        let b = try Browsing(folder: folder)
        let slow =
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c"
        b.press(.character(":"))
        b.type(slow)
        let running = b.press(.enter)
        #expect(running.contains("Running…"), "\(running)")
        let loading = try #require(b.browser.queries.running)
        let frame = b.press(.escape)
        #expect(b.line?.text == slow)
        #expect(frame.contains("cancelled"), "\(frame)")
        loading.waitUntilStopped()
        #expect(b.browser.queries.tabs.isEmpty)
    }

    @Test func aServerThatNeverAnswersLeavesTheScreenAnsweringKeysAndEscKeepsTheLineWithItsText() throws {
        let folder = TemporaryDirectory("ft-querysilent")
        defer { folder.remove() }
        let silent = try SilentServer()
        defer { silent.close() }
        let b = try Browsing(folder: folder)
        // The browser over a server's table: its `:` queries are checked there, which never answers.
        b.browser.queries.server = PostgresTarget(
            connectionString: "postgresql://nobody@127.0.0.1:\(silent.port)/shop?connect_timeout=120&sslmode=disable"
        )
        b.press(.character(":"))
        b.type("SELECT 1")
        let checking = b.press(.enter)
        #expect(checking.contains("Checking on the server…"), "\(checking)")
        #expect(b.line?.checking != nil)
        let waiting = b.type("x")
        #expect(waiting.contains("Checking on the server…") && b.line?.text == "SELECT 1", "\(waiting)")
        let back = b.press(.escape)
        #expect(b.line?.text == "SELECT 1", "\(back)")
        #expect(b.line?.checking == nil)
        #expect(!back.contains("Checking on the server"), "\(back)")
        #expect(b.browser.queries.running == nil && b.browser.queries.tabs.isEmpty)
        b.type("2")
        #expect(b.line?.text == "SELECT 12", "the line takes keys again")
        b.press(.escape)
        #expect(b.line == nil)
    }

    @Test func aQueryTabShowsItsTitleNotItsResultTablesNameInTheStatusLineAndTheDetailView() throws {
        let folder = TemporaryDirectory("ft-querytitle")
        defer { folder.remove() }
        let b = try Browsing(folder: folder)
        b.press(.character(":"))
        b.type("SELECT name, subject FROM student ORDER BY name")
        b.press(.enter)
        b.waitUntil { b.browser.queries.tabs.first?.browser.list?.isLoading == false }
        b.clock.advance(by: 30)  // past the opening's "read-only" message
        let frame = b.press()
        let status = try #require(frame.split(separator: "\n").last)
        #expect(status.contains(":1 SELECT name, subject FROM student"), "\(frame)")
        #expect(!frame.contains("query_result"), "\(frame)")
        let detail = b.press(.enter)
        #expect(detail.contains("‹ :1 SELECT name, subject"), "\(detail)")
        #expect(!detail.contains("query_result"), "\(detail)")
    }

    @Test func aServersRefusalSaysTheCharacterAsPostgreSQLCountsItAndPutsTheCursorThere() {
        let refusal = QueryRefusal(.invalid, "column \"nmae\" does not exist", offset: 7)
        let server = PostgresTarget(connectionString: "postgres://alice@db/shop")
        let said = TableBrowser.queryError(refusal, server: server)
        #expect(said.message == "column \"nmae\" does not exist (at character 8)")
        #expect(said.offset == 7)
        #expect(TableBrowser.queryError(refusal).message.hasSuffix("(at column 8)"), "a file's: as SQLite says")
    }

    @Test func aQueryTitleIsItsWordsOnOneLineAtMost40Characters() {
        #expect(QuerySource.title(of: "SELECT name\n  FROM student") == "SELECT name FROM student")
        let long = QuerySource.title(of: "SELECT s.subject, count(*) AS students FROM student s GROUP BY s.subject")
        #expect(long == "SELECT s.subject, count(*) AS students …" && long.count == 40)
        #expect(QueryTabs.title(number: 2, sql: "SELECT 1") == ":2 SELECT 1")
    }
}

/// A TCP port on 127.0.0.1 that takes connections (the kernel completes them) and never says a
/// word: a PostgreSQL client connecting there waits for its connect timeout. ``close()`` resets them.
private final class SilentServer {
    let port: UInt16
    private var listener: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0, "socket: \(String(cString: strerror(errno)))")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            Glibc.close(fd)
            try #require(Bool(false), "bind/listen: \(String(cString: strerror(errno)))")
            throw CancellationError()
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Stops listening: the connections never accepted are reset.
    func close() {
        guard listener >= 0 else { return }
        Glibc.close(listener)
        listener = -1
    }
}
