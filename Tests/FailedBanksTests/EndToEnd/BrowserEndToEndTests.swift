import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The browser in a real terminal: tmux panes driven by keys, screens read
/// back with `capture-pane`, the store checked with the `sqlite3` shell.
/// Serialized: the suite shares two CPU cores with the rest of CI, and the
/// live-update deadline must not be eaten by a neighbour's import.
@Suite(
    .serialized,
    .enabled(
        if: BrowserFixture.isAvailable,
        Comment(rawValue: BrowserFixture.unavailableReason ?? "")
    )
)
struct BrowserEndToEndTests {
    /// A fixture, the app started on it, and the store's facts.
    private func start(
        _ arguments: [String] = [],
        width: Int = 80,
        height: Int = 24
    )
        throws -> (BrowserFixture, TmuxSession, StoreFacts)
    {
        let fixture = try BrowserFixture()
        let facts = try StoreFacts(fixture)
        let tmux = try fixture.launch(arguments, width: width, height: height)
        try tmux.waitFor("Failed Banks", timeout: 10)
        return (fixture, tmux, facts)
    }

    private func position(_ n: Int, of total: Int) -> String { "\(n)/\(total)" }

    @Test func firstScreenShowsTitleNewestYearItsBanksNewestFirstAndTheYearIndex() throws {
        let (fixture, tmux, facts) = try start()
        defer {
            tmux.close()
            fixture.remove()
        }
        let newest = facts.years[0]
        let header = "\(newest) (\(facts.count(inYear: newest)))"
        // The first frame is a provisional page ("Loading…" where the position
        // goes, headers counted already); the checks below are of the loaded list.
        try tmux.waitFor(position(1, of: facts.byDate.count), timeout: 10)
        let screen = try tmux.waitFor(header)
        #expect(screen.lines[0].contains("Failed Banks"))
        for tab in ["Date", "Name", "State"] { #expect(screen.contains(tab)) }
        #expect(screen.contains(position(1, of: facts.byDate.count)))

        // The newest year's banks, newest first, each name above its "City, ST".
        let shown = facts.byDate.filter { $0.year == newest }.prefix(4)
        var previousLine = screen.lineIndex(containing: header) ?? 0
        for bank in shown {
            let lines = screen.lines
            let line = try #require(
                lines.indices.first { $0 > previousLine && lines[$0].contains(String(bank.name.prefix(24))) },
                "\(bank.name) below line \(previousLine):\n\(screen)"
            )
            #expect(screen.lines[line + 1].contains(bank.cityState), "\(bank.cityState) under \(bank.name)")
            previousLine = line
        }
        // The year index on the right edge: the newest year at the top, the oldest at the bottom.
        let rightEdge = screen.lines.map {
            $0.count >= 75 ? String($0.suffix(5)).trimmingCharacters(in: .whitespaces) : ""
        }
        #expect(rightEdge.contains(newest), "newest year in the index:\n\(screen)")
        #expect(rightEdge.contains(facts.years.last!), "oldest year in the index:\n\(screen)")
    }

    @Test func keysMoveSelectionPageJumpSectionsAndSwitchTabs() throws {
        let (fixture, tmux, facts) = try start()
        defer {
            tmux.close()
            fixture.remove()
        }
        let total = facts.byDate.count
        try tmux.waitFor(position(1, of: total))

        tmux.send("Down")
        try tmux.waitFor(position(2, of: total))
        tmux.send("j")
        try tmux.waitFor(position(3, of: total))
        tmux.send("k")
        try tmux.waitFor(position(2, of: total))

        // A page moves by a screenful and shows the bank now selected.
        tmux.send("PageDown")
        let paged = try tmux.waitUntil("a page down") { screen in
            guard let p = selectedPosition(screen, total: total) else { return false }
            return p >= 6
        }
        let p = selectedPosition(paged, total: total)!
        #expect(paged.showsName(facts.byDate[p - 1].name))
        tmux.send("PageUp")
        try tmux.waitFor(position(2, of: total))

        // } goes to the next year, { back.
        let second = facts.years[1]
        tmux.send("}")
        let next = try tmux.waitFor(position(facts.firstPosition(ofYear: second), of: total))
        #expect(next.contains("\(second) (\(facts.count(inYear: second)))"))
        tmux.send("{")
        try tmux.waitFor(position(1, of: total))
        tmux.send("G")
        try tmux.waitFor(position(total, of: total))
        tmux.send("g")
        try tmux.waitFor(position(1, of: total))

        // f + a year jumps to it.
        let year = facts.years[facts.years.count / 2]
        tmux.type("f")
        tmux.type(year)
        let jumped = try tmux.waitFor(position(facts.firstPosition(ofYear: year), of: total))
        #expect(jumped.contains("\(year) (\(facts.count(inYear: year)))"))
        // The prompt closed itself on the year's last digit (the only title with that prefix).

        // Tab to Name: the same bank stays selected; g goes to the first by name.
        let selectedBank = facts.byDate[facts.firstPosition(ofYear: year) - 1]
        tmux.send("Tab")
        let byName = try StoreFacts.banks(fixture, orderBy: "i.name COLLATE NOCASE, i.id")
        let nameIndex = byName.firstIndex { $0.id == selectedBank.id }! + 1
        let nameScreen = try tmux.waitFor(position(nameIndex, of: total))
        #expect(nameScreen.contains("Name"))
        #expect(nameScreen.showsName(selectedBank.name))
        tmux.send("g")
        let top = try tmux.waitFor(position(1, of: total))
        #expect(top.showsName(byName[0].name))

        // Tab to State.
        tmux.send("Tab")
        let byState = try StoreFacts.banks(fixture, orderBy: "i.state, i.name COLLATE NOCASE, i.id")
        let stateIndex = byState.firstIndex { $0.id == byName[0].id }! + 1
        try tmux.waitFor(position(stateIndex, of: total))
        tmux.send("g")
        let stateTop = try tmux.waitFor(position(1, of: total))
        let firstState = byState[0].state
        #expect(stateTop.contains("\(firstState) (\(byState.filter { $0.state == firstState }.count))"))
        #expect(stateTop.showsName(byState[0].name))
    }

    @Test func deleteButtonRemovesTheBankFromScreenAndStoreAndUndoBringsItBack() throws {
        let (fixture, tmux, facts) = try start()
        defer {
            tmux.close()
            fixture.remove()
        }
        let total = facts.byDate.count
        // A bank of the newest year whose name appears once on the first screen.
        let newest = facts.byDate.filter { $0.year == facts.years[0] }
        let index = newest.count > 1 ? 1 : 0
        let bank = newest[index]
        for _ in 0..<index { tmux.send("Down") }
        try tmux.waitFor(position(index + 1, of: total))

        tmux.send("d")
        try tmux.waitFor("Delete")
        tmux.send("Enter")
        let gone = try tmux.waitUntil("\(bank.name) to leave the screen") { screen in
            !screen.contains(bank.cityState) || !screen.showsName(bank.name)
        }
        #expect(gone.contains("Deleted \(bank.name.prefix(20))"), "status line:\n\(gone)")
        try tmux.waitFor("/\(total - 1)")
        #expect(try fixture.sql("SELECT count(*) FROM failed_bank_info WHERE id = \(bank.id)") == "0")

        tmux.send("u")
        try tmux.waitUntil("\(bank.name) to come back") { $0.showsName(bank.name) && $0.contains("/\(total)") }
        #expect(
            try fixture.sql(
                "SELECT count(*) FROM failed_bank_info WHERE name = '\(bank.name.replacingOccurrences(of: "'", with: "''"))'"
            ) != "0"
        )
        #expect(try fixture.sql("SELECT count(*) FROM failed_bank_info") == "\(total)")
    }

    @Test func bankInsertedBySQLiteShellAppearsInItsSection() throws {
        let (fixture, tmux, facts) = try start()
        defer {
            tmux.close()
            fixture.remove()
        }
        let newest = facts.byDate[0]
        let year = newest.year
        try tmux.waitFor("\(year) (\(facts.count(inYear: year)))")
        // Same closing date as the newest bank and a name sorting after it: row 2 of the first section.
        try fixture.sql(
            """
            INSERT INTO failed_bank_info(name, city, state) VALUES ('Zz Live Test Bank', 'Testville', 'KS');
            INSERT INTO failed_bank_details(close_date, cert, info_id, acquiring_institution, fund)
              VALUES ('\(newest.closeDate)', 9999991, last_insert_rowid(), 'Nobody', 1);
            """
        )
        // Settled: the name with "City, ST" under it (not mid-fade). The browser polls every 200 ms (its
        // ticker, tested on a virtual clock); the deadline here is generous, for a loaded machine.
        let screen = try tmux.waitUntil("the new bank on screen", timeout: 30) { screen in
            guard let row = screen.lineIndex(containing: "Zz Live Test Bank"), row + 1 < screen.lines.count else {
                return false
            }
            return screen.lines[row + 1].contains("Testville, KS")
        }
        let header = try #require(
            screen.lineIndex(containing: "\(year) (\(facts.count(inYear: year) + 1))"),
            "the header counts the new bank:\n\(screen)"
        )
        let row = try #require(screen.lineIndex(containing: "Zz Live Test Bank"))
        #expect(row > header)
        #expect(screen.lines[row + 1].contains("Testville, KS"))
        // The selection stayed on the bank that was selected.
        #expect(screen.contains("1/\(facts.byDate.count + 1)"))
    }

    @Test func resizingRelayoutsWithoutGarbageAndTinyWindowSaysTooSmall() throws {
        let (fixture, tmux, facts) = try start()
        defer {
            tmux.close()
            fixture.remove()
        }
        let total = facts.byDate.count
        tmux.send("Down")
        let before = try tmux.waitFor(position(2, of: total))

        tmux.resize(width: 40, height: 12)
        // The whole frame: its last line, the status line, is drawn last. (Under load tmux shows a
        // frame half written: the new title and rows above what tmux cut of the old screen.)
        let small = try tmux.waitUntil("a 40×12 layout") { screen in
            screen.lines.count == 12 && screen.lines[0].contains("Failed Banks") && screen.lines[11].contains("2/")
        }
        #expect(small.lines.allSatisfy { $0.count <= 40 })
        #expect(small.contains(position(2, of: total)) || small.contains("2/"))
        // What the incremental update left equals a full repaint: no garbage. (The help
        // overlay opened and closed after Ctrl-L proves the repaint has been processed.)
        tmux.send("C-l")
        tmux.send("?")
        try tmux.waitFor("Keys")
        tmux.send("x")
        // Garbage stays; a frame still being written is not garbage: wait for the repaint to end.
        let repainted =
            (try? tmux.waitUntil("the help to close and the repaint to equal the layout") { screen in
                !screen.contains("Keys") && screen == small
            }) ?? tmux.capture()
        #expect(repainted == small, "after Ctrl-L:\n\(repainted)\nbefore:\n\(small)")

        tmux.resize(width: 10, height: 3)
        try tmux.waitUntil("the too-small message") { $0.contains("small") || $0.contains("Termin") }

        tmux.resize(width: 80, height: 24)
        // The old 40×12 frame's status line (with the position) is still on line 12 until the app repaints.
        let back =
            (try? tmux.waitUntil("the 80×24 layout again") { screen in
                screen.lines.count == 24 && screen.lines[23].contains(position(2, of: total)) && screen == before
            }) ?? tmux.capture()
        #expect(back == before, "after:\n\(back)\nbefore:\n\(before)")
    }

    @Test func firstLaunchImportsTheBundledListThenShowsIt() throws {
        let fixture = try BrowserFixture(importing: false)
        let csv = try #require(BrowserFixture.sourceCSV)
        let tmux = try fixture.launch(environment: ["FAILEDBANKS_DATA": csv])
        defer {
            tmux.close()
            fixture.remove()
        }
        try tmux.waitFor("Failed Banks", timeout: 10)
        let facts = try StoreFacts(fixture)
        #expect(facts.byDate.count > 0)
        let screen = try tmux.waitFor("1/\(facts.byDate.count)")
        #expect(screen.contains("\(facts.years[0]) (\(facts.count(inYear: facts.years[0])))"))
        if csv.hasSuffix("Data/banklist.csv") {
            // The bundled list is the FDIC's, newest first: The Santa Anna National Bank, 27 June 2025.
            #expect(facts.byDate.count == 572)
            #expect(facts.byDate.first?.name == "The Santa Anna National Bank")
            #expect(screen.contains("2025 (2)") && screen.contains("The Santa Anna National Bank"), "\(screen)")
        }
        #expect(fixture.standardError().contains("first launch: importing"))
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test(arguments: ["q", "C-c", "SIGTERM", "SIGHUP"])
    func everyWayOutRestoresTheTerminalAndLeavesTheStoreIntact(way: String) throws {
        let (fixture, tmux, facts) = try start()
        defer {
            tmux.close()
            fixture.remove()
        }
        try tmux.waitFor(position(1, of: facts.byDate.count))
        switch way {
        case "SIGTERM", "SIGHUP":
            let pid = try #require(fixture.appPID())
            kill(pid, way == "SIGTERM" ? SIGTERM : SIGHUP)
        default:
            tmux.send(way)
        }
        let status = try #require(fixture.exitStatus(), "the app exits")
        switch way {
        case "q": #expect(status == 0)
        case "C-c": #expect(status == 128 + SIGINT)
        case "SIGHUP": #expect(status == 128 + SIGHUP)
        default: #expect(status == 128 + SIGTERM)
        }
        let stty = try #require(fixture.sttyAfterExit())
        let flags = stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init)
        #expect(flags.contains("icanon") && !flags.contains("-icanon"), "stty -a:\n\(stty)")
        #expect(flags.contains("echo") && !flags.contains("-echo"), "stty -a:\n\(stty)")
        let screen = try tmux.waitFor("EXITED")
        #expect(!screen.contains("Failed Banks") || screen.lineIndex(containing: "EXITED") != nil)
        #expect(try fixture.sql("PRAGMA integrity_check") == "ok")
        #expect(try fixture.sql("SELECT count(*) FROM failed_bank_info") == "\(facts.byDate.count)")
        #expect(fixture.standardError().isEmpty, "stderr: \(fixture.standardError())")
    }
}

/// The selection's position from the status line's `n/total`.
func selectedPosition(_ screen: String, total: Int) -> Int? {
    let suffix = "/\(total)"
    for line in screen.lines.reversed() {
        guard let range = line.range(of: suffix) else { continue }
        let digits = line[..<range.lowerBound].reversed().prefix { $0.isNumber }
        if let n = Int(String(digits.reversed())) { return n }
    }
    return nil
}
