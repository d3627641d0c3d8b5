import Foundation
import TestSupport
import Testing

/// The grid a first-time user sees: `fetchedtable FILE` with no option on a real public CSV
/// (the FDIC's failed bank list) shows every column's name over its first rows, aligned, and
/// scrolls to the last column; `v` and `--title` give the two-line list; `--columns` chooses.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableGridEndToEndTests {
    static let fdic = TableFixture.packageRoot.appendingPathComponent(
        "Tests/Fixtures/banklist_2024_fdic_original_cp1252.csv"
    ).path

    @Test func aCSVFileOpensAsTheGridOfEveryColumnAndScrollsToTheLastOne() throws {
        try #require(FileManager.default.fileExists(atPath: Self.fdic), "missing fixture \(Self.fdic)")
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let tmux = try fixture.launch([Self.fdic], width: 120, height: 20)
        defer { tmux.close() }
        let first = try tmux.waitUntil("the grid") { $0.contains("1/569") && $0.contains("Bank Name") }
        let lines = first.screenLines
        // The title bar names the file and counts the rows; no tab line, no "— (569)" header.
        #expect(lines[0].contains("banklist_2024_fdic_original_cp1252.csv"), "\(first)")
        #expect(lines[0].contains("569 rows"), "\(first)")
        #expect(!first.contains("(569)"), "\(first)")
        // The header row and the first rows, aligned: the city starts in the same column on each.
        let header = lines[1]
        #expect(header.hasPrefix(" Bank Name"), "\(first)")
        for name in ["City", "State", "Cert", "Acquiring Institution", "Closing Date"] {
            #expect(header.contains(name), "\(name) in \(header)")
        }
        let city = try #require(header.range(of: "City")).lowerBound.utf16Offset(in: header)
        let row = lines[2]
        #expect(row.hasPrefix(" Republic First Bank"), "\(first)")
        #expect(row.utf16.count > city && row.dropFirst(city).hasPrefix("Philadelphia"), "\(first)")
        #expect(row.contains("  27332  "), "the cert right-aligned: \(row)")
        // → to the last column (Fund): the grid scrolls sideways; the row stays selected.
        for _ in 0..<8 { tmux.send("Right") }
        let last = try tmux.waitUntil("the last column") { $0.screenLines[1].hasSuffix("Fund") }
        #expect(!last.screenLines[1].contains("Bank Name"), "\(last)")
        #expect(last.screenLines[2].hasSuffix("10546"), "\(last)")
        #expect(last.contains("1/569"))
        // v: today's two-line list (title, then subtitle); v again: the grid where it was.
        tmux.send("v")
        let list = try tmux.waitUntil("the list") { !$0.contains("Closing Date") }
        #expect(list.contains("Republic First Bank"), "\(list)")
        tmux.send("v")
        try tmux.waitUntil("the grid again") { $0.screenLines[1].hasSuffix("Fund") }
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func columnsChoosesAndOrdersTheGridAndTitleGivesTheList() throws {
        try #require(FileManager.default.fileExists(atPath: Self.fdic), "missing fixture \(Self.fdic)")
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let tmux = try fixture.launch([Self.fdic, "--columns", "State, Cert, Bank Name"], width: 80, height: 10)
        defer { tmux.close() }
        let grid = try tmux.waitUntil("the chosen columns") { $0.contains("1/569") && $0.contains("Bank Name") }
        #expect(grid.screenLines[1].hasPrefix(" State   Cert  Bank Name"), "\(grid)")
        #expect(!grid.contains("City"), "\(grid)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)

        let listed = try fixture.run(["list", Self.fdic, "--columns", "State, Cert", "--format", "csv"])
        #expect(listed.status == 0)
        #expect(listed.standardOutput.hasPrefix("section,_rowid,State,Cert\n"), "\(listed.standardOutput.prefix(200))")
        let wrong = try fixture.run(["list", Self.fdic, "--columns", "State, Nope"])
        #expect(wrong.status == 64)
        #expect(wrong.standardError.contains("--columns: no column \"Nope\""), "\(wrong.standardError)")
    }
}
