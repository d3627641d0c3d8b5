import Foundation
import TestSupport
import Testing

/// Work on a column, end to end in tmux, on a SQLite copy of a real public file (the FDIC's
/// failed bank list, made by the `sqlite3` shell): sort by the cursor's column, open its
/// frequency sheet, and watch a count change on screen when another process inserts a row
/// — without a key; Enter then filters the list to that value.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableColumnsEndToEndTests {
    static let fdic = TableGridEndToEndTests.fdic

    /// `banks.sqlite` beside the school: the FDIC list as the `sqlite3` shell imports it.
    static func banksCopy(_ fixture: TableFixture) throws -> String {
        let path = fixture.directory.appendingPathComponent("banks.sqlite").path
        try fixture.sql(
            """
            CREATE TABLE banks("Bank Name" TEXT, City TEXT, State TEXT, Cert INTEGER,
                               "Acquiring Institution" TEXT, "Closing Date" TEXT, Fund INTEGER);
            """,
            database: path
        )
        try fixture.sql(".import --csv --skip 1 \(fdic) banks", database: path)
        return path
    }

    /// The count on the frequency sheet's line of `value` (nil: no such line).
    static func count(of value: String, in screen: String) -> Int? {
        for line in screen.screenLines {
            let words = line.split(separator: " ")
            if words.first == Substring(value), words.count > 1 {
                return Int(words[1].replacingOccurrences(of: ",", with: ""))
            }
        }
        return nil
    }

    @Test func theFrequencySheetOfTheSortedColumnChangesWhenAnotherProcessInsertsARow() throws {
        try #require(FileManager.default.fileExists(atPath: Self.fdic), "missing fixture \(Self.fdic)")
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let banks = try Self.banksCopy(fixture)
        #expect(try fixture.sql("SELECT count(*) FROM banks WHERE State = 'GA'", database: banks) == "93")
        let tmux = try fixture.launch([banks], width: 100, height: 20)
        defer { tmux.close() }
        try tmux.waitUntil("the grid") { $0.contains("1/569") && $0.screenLines[1].contains("State") }
        // The cursor to State, then ] sorts by it, descending.
        tmux.send("Right")
        tmux.send("Right")
        tmux.send("]")
        let sorted = try tmux.waitUntil("sorted by State") { $0.contains("Sorted by State, descending") }
        #expect(sorted.screenLines[2].contains("  WY  "), "Wyoming's bank first: \(sorted)")
        // F: the states, most failures first.
        tmux.send("F")
        let sheet = try tmux.waitUntil("the frequency of State") {
            $0.contains("State · frequency") && Self.count(of: "GA", in: $0) != nil
        }
        #expect(sheet.screenLines[2].hasPrefix(" GA"), "\(sheet)")
        #expect(Self.count(of: "GA", in: sheet) == 93, "\(sheet)")
        #expect(sheet.contains("569 rows"), "\(sheet)")
        // Another process inserts a Georgia bank: the count moves on screen, no key pressed.
        try fixture.sql(
            "INSERT INTO banks VALUES ('Live Bank', 'Atlanta', 'GA', 99999, 'Nobody', '1-Jan-25', 99999)",
            database: banks
        )
        let live = try tmux.waitUntil("GA counted again") { Self.count(of: "GA", in: $0) == 94 }
        #expect(live.contains("570 rows"), "\(live)")
        // Enter on GA: the list of Georgia's banks alone.
        tmux.send("Enter")
        let georgia = try tmux.waitUntil("the list filtered") { $0.contains("94 rows where State == 'GA'") }
        #expect(georgia.screenLines[0].contains("94 rows"), "\(georgia)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func sSectionsByTheCursorsColumnAndFCountsADateColumnByItsYearWithTab() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write(
            "closings.csv",
            """
            name,state,closed
            Alpha,GA,2019-05-01
            Beta,GA,2020-03-04
            Gamma,TX,2020-01-01
            Delta,CA,2020-07-09
            Epsilon,TX,2021-02-02
            Zeta,GA,2021-11-30

            """
        )
        let tmux = try fixture.launch([csv], width: 80, height: 16)
        defer { tmux.close() }
        try tmux.waitUntil("the grid") { $0.contains("1/6") && $0.screenLines[1].contains("closed") }
        // s on state: a section per state, in order, each with its count.
        tmux.send("Right")
        tmux.send("s")
        let sectioned = try tmux.waitUntil("sections by state") { $0.contains("Sections by state") }
        let lines = sectioned.screenLines
        #expect(lines[2].hasPrefix(" CA (1) ─"), "\(sectioned)")
        #expect(lines[4].hasPrefix(" GA (3) ─") && lines[5].hasPrefix(" Alpha"), "\(sectioned)")
        #expect(lines.contains { $0.hasPrefix(" TX (2) ─") }, "\(sectioned)")
        // s again on the same column: no sections.
        tmux.send("s")
        let plain = try tmux.waitUntil("no sections") { $0.contains("No sections") }
        #expect(plain.screenLines[2].hasPrefix(" Alpha") && !plain.contains("GA (3)"), "\(plain)")
        // F on the date column, then Tab: counted by year, most rows first.
        tmux.send("Right")
        tmux.send("F")
        try tmux.waitUntil("the frequency of closed") { $0.contains("closed · frequency") && $0.contains("1/6 values") }
        tmux.send("Tab")
        let years = try tmux.waitUntil("by year") {
            $0.contains("year(closed) · frequency") && $0.contains("1/3 values")
        }
        #expect(years.screenLines[2].hasPrefix(" 2020") && years.screenLines[2].contains("50.0 %"), "\(years)")
        #expect(years.screenLines[3].hasPrefix(" 2021") && years.screenLines[4].hasPrefix(" 2019"), "\(years)")
        // Enter on 2020: the list of 2020's three rows.
        tmux.send("Enter")
        let filtered = try tmux.waitUntil("the list filtered") {
            $0.contains("3 rows where \"year(closed)\" == '2020'")
        }
        #expect(
            filtered.screenLines[2].hasPrefix(" Beta") || filtered.screenLines[2].hasPrefix(" Gamma"),
            "\(filtered)"
        )
        #expect(!filtered.contains("Alpha") && !filtered.contains("Zeta"), "\(filtered)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func typeGivesACSVColumnItsTypeInTheCacheAndRefusesOneWhoseValuesDoNotRead() throws {
        try #require(FileManager.default.fileExists(atPath: Self.fdic), "missing fixture \(Self.fdic)")
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let asText = try fixture.run([
            "list", Self.fdic, "--columns", "Cert", "--type", "Cert=text", "--format", "json",
        ])
        #expect(asText.status == 0, "\(asText.standardError)")
        #expect(asText.standardOutput.contains(#""Cert":"27332""#), "\(asText.standardOutput.prefix(300))")
        // The cache keeps the type; --type Cert=integer gives the numbers back.
        let kept = try fixture.run(["list", Self.fdic, "--columns", "Cert", "--format", "json"])
        #expect(kept.standardOutput.contains(#""Cert":"27332""#))
        let back = try fixture.run([
            "list", Self.fdic, "--columns", "Cert", "--type", "Cert=integer", "--format", "json",
        ])
        #expect(back.standardOutput.contains(#""Cert":27332"#), "\(back.standardOutput.prefix(300))")
        let refused = try fixture.run(["list", Self.fdic, "--type", "State=integer"])
        #expect(refused.status == 65)
        #expect(
            refused.standardError.contains(
                "--type State=integer: 569 values of State are not integers (the first: 'PA' on row 1)"
            ),
            "\(refused.standardError)"
        )
        let unknown = try fixture.run(["list", Self.fdic, "--type", "Nope=integer"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("--type: no column \"Nope\""), "\(unknown.standardError)")
    }

    @Test func tRetypesACSVColumnInTheBackgroundAndTheGridShowsIt() throws {
        try #require(FileManager.default.fileExists(atPath: Self.fdic), "missing fixture \(Self.fdic)")
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let tmux = try fixture.launch([Self.fdic], width: 100, height: 16)
        defer { tmux.close() }
        try tmux.waitUntil("the grid") { $0.contains("1/569") && $0.screenLines[1].contains("Cert") }
        for _ in 0..<3 { tmux.send("Right") }
        tmux.send("t")
        try tmux.waitUntil("the type picker") { $0.contains("Type of Cert") }
        tmux.send("Down")  // integer → real
        tmux.send("Down")  // → text
        // The status line says it for 4 seconds, which a loaded machine's test may not look within:
        // what the program writes is recorded, and the message looked for there.
        let record = fixture.directory.appendingPathComponent("pane.record").path
        try tmux.recordOutput(to: record)
        tmux.send("Enter")
        // Text lines up on the left: once the cache holds text, each cert starts under its name.
        let retyped = try tmux.waitUntil("Cert as text") { screen in
            let header = screen.screenLines[1]
            guard let name = header.range(of: "Cert") else { return false }
            return screen.screenLines[3].dropFirst(name.lowerBound.utf16Offset(in: header)).hasPrefix("8758")
        }
        let header = retyped.screenLines[1]
        let x = try #require(header.range(of: "Cert")).lowerBound.utf16Offset(in: header)
        #expect(retyped.screenLines[2].dropFirst(x).hasPrefix("27332"), "\(retyped)")
        try tmux.waitForRecordedOutput("569 values stored so", in: record)
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
