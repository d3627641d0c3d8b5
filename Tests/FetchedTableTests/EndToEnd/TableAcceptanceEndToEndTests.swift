import Foundation
import TestSupport
import Testing

/// Issue 41's acceptance, in one walk: a real public data file no one here wrote (the FDIC's
/// failed bank list of 2018, `Tests/Fixtures/banklist_2018_updated_date.csv`), imported into a
/// SQLite copy by the `sqlite3` shell's `.import` (every column TEXT, as it makes them), opened
/// with `fetchedtable FILE` and no option: every column's name in the header over the first rows,
/// aligned; → to the last column; a sort by a column; its frequency sheet, which changes when
/// another process inserts a row; a cell edited with `e` and undone with `u` — each step read on
/// the captured pane, the file read back with `sqlite3`.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableAcceptanceEndToEndTests {
    static let fdic = TableFixture.packageRoot.appendingPathComponent(
        "Tests/Fixtures/banklist_2018_updated_date.csv"
    ).path
    static let columns = ["Bank Name", "City", "ST", "CERT", "Acquiring Institution", "Closing Date", "Updated Date"]

    @Test func aPersonBrowsesSortsCountsLiveEditsAndUndoesOnARealFile() throws {
        try #require(FileManager.default.fileExists(atPath: Self.fdic), "missing fixture \(Self.fdic)")
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let banks = fixture.directory.appendingPathComponent("banks.sqlite").path
        try fixture.sql(".import --csv \(Self.fdic) banks", database: banks)
        #expect(try fixture.sql("SELECT count(*) FROM banks", database: banks) == "555")
        let tmux = try fixture.launch([banks], width: 160, height: 20)
        defer { tmux.close() }

        // Every column's name in the header row, the first rows aligned under them.
        let first = try tmux.waitUntil("the grid") { $0.contains("1/555") && $0.screenLines[1].contains("Bank Name") }
        let header = first.screenLines[1]
        for name in Self.columns { #expect(header.contains(name), "\(name) in the header: \(first)") }
        let row = first.screenLines[2]
        #expect(row.hasPrefix(" Washington Federal Bank for Sav"), "\(first)")
        for (name, value) in [("City", "Chicago"), ("ST", "IL"), ("Closing Date", "15-Dec-17")] {
            let column = try #require(header.range(of: name)).lowerBound.utf16Offset(in: header)
            #expect(
                row.utf16.count > column && row.dropFirst(column).hasPrefix(value),
                "\(value) under \(name): \(first)"
            )
        }

        // → to the last column: the header ends with it, the row with its value.
        for _ in 0..<Self.columns.count { tmux.send("Right") }
        let last = try tmux.waitUntil("the last column") { $0.screenLines[1].hasSuffix("Updated Date") }
        #expect(last.screenLines[2].hasSuffix("21-Feb-18"), "\(last)")

        // ← to ST, [ sorts by it, ascending: Alabama's banks first.
        for _ in 0..<4 { tmux.send("Left") }
        tmux.send("[")
        let sorted = try tmux.waitUntil("sorted by ST") { $0.contains("Sorted by ST") }
        #expect(sorted.screenLines[2].contains("  AL  "), "\(sorted)")

        // F: the states, most failed banks first; another process inserts one in Georgia.
        tmux.send("F")
        let sheet = try tmux.waitUntil("the frequency of ST") {
            $0.contains("ST · frequency") && TableColumnsEndToEndTests.count(of: "GA", in: $0) != nil
        }
        #expect(sheet.screenLines[2].hasPrefix(" GA"), "\(sheet)")
        #expect(TableColumnsEndToEndTests.count(of: "GA", in: sheet) == 93, "\(sheet)")
        try fixture.sql(
            "INSERT INTO banks VALUES ('Live Bank', 'Atlanta', 'GA', '99999', 'Nobody', '1-Jan-25', '1-Jan-25')",
            database: banks
        )
        let live = try tmux.waitUntil("GA counted again") { TableColumnsEndToEndTests.count(of: "GA", in: $0) == 94 }
        #expect(live.contains("556 rows"), "\(live)")

        // Back to the grid; ← to City, e edits the first row's city, u undoes it.
        tmux.press("Escape")
        try tmux.waitUntil("the grid again") { $0.contains("1/556") && $0.screenLines[1].contains("ST") }
        tmux.send("Left")
        tmux.send("e")
        try tmux.waitFor("Enter saves")
        tmux.send("C-u")
        tmux.type("Gotham")
        tmux.send("Enter")
        let edited = try tmux.waitUntil("the edit saved") { $0.contains("Edited City of") && $0.contains("Gotham") }
        #expect(edited.screenLines[2].contains("Gotham"), "\(edited)")
        #expect(try fixture.sql("SELECT count(*) FROM banks WHERE City = 'Gotham'", database: banks) == "1")
        tmux.send("u")
        let undone = try tmux.waitUntil("the edit undone") { $0.contains("Undone: Edited City of") }
        #expect(!undone.contains("Gotham"), "\(undone)")
        #expect(try fixture.sql("SELECT count(*) FROM banks WHERE City = 'Gotham'", database: banks) == "0")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
