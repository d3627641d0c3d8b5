import Foundation
import TestSupport
import Testing

/// What the browser shows, in a real terminal (tmux): values as a person reads them (booleans,
/// numbers as the file wrote them), the `f` jump, and where a freshly loaded CSV file opens.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableBrowserDisplayTests {
    @Test func theDetailScreenShowsABooleanAsYesOrNo() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("mail.sqlite").path
        try fixture.sql(
            "CREATE TABLE mail (subject TEXT, read BOOLEAN); INSERT INTO mail VALUES ('hello', 0), ('news', 1);",
            database: path
        )
        let tmux = try fixture.launch([path, "--title", "subject", "--subtitle", "read"])
        defer { tmux.close() }
        let list = try tmux.waitFor("news", timeout: 10)
        #expect(list.contains("yes"), "the cell's subtitle:\n\(list)")
        tmux.send("Enter")
        let detail = try tmux.waitUntil("the detail screen of hello") { $0.contains("read") && $0.contains("Esc") }
        let line = try #require(detail.screenLines.first { $0.contains("read") && !$0.contains("Esc") })
        #expect(line.contains("no"), "\(detail)")
        #expect(!line.contains("0"), "\(detail)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func numbersShowAsTheCSVFileWroteThem() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write("prices.csv", "item,price\nbolt,3\nnut,1.10\nwasher,2.5\n")
        let tmux = try fixture.launch([csv, "--title", "item", "--subtitle", "price", "--sort", "price"])
        defer { tmux.close() }
        let list = try tmux.waitUntil("the sorted list") { $0.contains("washer") && $0.contains("1/3") }
        #expect(list.contains("1.10"), "\(list)")
        #expect(!list.contains("3.0"), "\(list)")
        tmux.send("Enter")  // nut, the cheapest
        let detail = try tmux.waitUntil("the detail screen") { $0.contains("price") && $0.contains("Esc") }
        #expect(detail.contains("1.10"), "\(detail)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func fAndALetterOnlyOneSectionHasJumpsAndTheNextKeyIsTheLists() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write(
            "names.csv",
            "name\nAda\nAlan\nBrook\nCyril\nDana\nUrsula\nUlf\nVera\n"
        )
        let tmux = try fixture.launch([csv, "--sort", "name", "--section", "initial(name)"])
        defer { tmux.close() }
        try tmux.waitUntil("the list") { $0.contains("U (2)") && $0.contains("1/8") }
        tmux.send("f")
        tmux.type("U")
        try tmux.waitFor("6/8")  // Ulf, the first under U
        let after = try tmux.waitUntilSettled()
        #expect(!after.contains("Go to index"), "the prompt closed after the unique match:\n\(after)")
        tmux.type("j")
        try tmux.waitFor("7/8")  // the next key moved the selection instead of typing "Uj"
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func aCSVFileTheCacheHasNotSeenOpensAtTheTopOfItsSortedList() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        // 50,000 events, the file's first row in the middle of the order by time (newest first).
        var text = "id,ts,message\n"
        for i in 1...50_000 {
            let minute = (i * 7919) % 50_000
            text +=
                "\(i),2025-06-\(String(format: "%02d", 1 + minute / 2000))T\(String(format: "%02d:%02d", (minute / 60) % 24, minute % 60)):00,event \(i)\n"
        }
        let csv = try fixture.write("events.csv", text)
        let tmux = try fixture.launch([csv, "--sort", "ts desc", "--section", "day(ts)", "--title", "message"])
        defer { tmux.close() }
        let screen = try tmux.waitUntil("the sorted list", timeout: 60) {
            $0.contains("/50000") && !$0.contains("Loading")
        }
        #expect(
            screen.range(of: "(?<![0-9])1/50000", options: .regularExpression) != nil,
            "opens at the newest event, not at the file's first row:\n\(screen)"
        )
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
