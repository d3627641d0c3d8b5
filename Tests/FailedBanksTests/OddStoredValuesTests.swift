import FetchedResultsScripts
import Foundation
import SQLiteStore
import TerminalUI
import Testing

@testable import FailedBanksKit

/// What a `sqlite3` shell can store that the importer never writes:
/// a BLOB name, a NUL in a name, a closing date that is not a date, and a filter cut at
/// the filter line's length. Each shows sensibly, in SQL and in Swift alike.
@Suite struct OddStoredValuesTests {
    let store: CommandTestStore
    let shell: Database

    init() throws {
        store = try CommandTestStore("odd", banks: WatchCommandTests.banks)
        shell = try store.connection()
    }

    func list(_ arguments: String...) -> ListRun { ListRun(["--db", store.path] + arguments) }

    // MARK: A BLOB name

    @Test("a BLOB name is listed as its bytes in hex, not as an empty name, in every format")
    func blobNameInList() throws {
        try shell.execute("UPDATE failed_bank_info SET name = x'416C00FF' WHERE id = 1")
        let text = list()
        #expect(text.status == 0)
        #expect(text.output.contains("  x'416C00FF', Austin, TX"), "\(text.output)")
        #expect(list("--format", "json").output.contains(#""name":"x'416C00FF'""#))
        #expect(list("--format", "csv").output.contains(",1,x'416C00FF',Austin,"))
    }

    @Test("a long BLOB shows its first 32 bytes, then …")
    func longBlob() {
        let shown = DisplayText.of(.blob(Array(repeating: 0xAB, count: 40)))
        #expect(shown == "x'" + String(repeating: "AB", count: 32) + "'…")
        #expect(DisplayText.of(.integer(42)) == "42")
        #expect(DisplayText.of(.null) == "")
    }

    @Test("the browser's cell shows a BLOB name (and city) in hex")
    func blobNameInCell() throws {
        try shell.execute("UPDATE failed_bank_info SET name = x'4243', city = x'00' WHERE id = 2")
        let opened = try Store(path: store.path, model: BrowserModel.model)
        let bank = try #require(
            try ObjectContext(store: opened).object(with: ObjectID(entity: FailedBankModel.info, rowID: 2))
        )
        let cell = BankBrowser.cell(for: bank)
        #expect(cell.title == "x'4243'")
        #expect(cell.detail == "x'00', CA")
    }

    // MARK: Control characters in text

    @Test("list --format text escapes a NUL, a newline and other control characters: one bank a line, nothing raw")
    func controlCharactersAreEscapedInText() throws {
        try shell.run(
            "UPDATE failed_bank_info SET name = ?, city = ? WHERE id = 3",
            [.text("Gam\u{0}ma\nBank\u{1B}[31m"), .text("Pe\\oria\t")]
        )
        let run = list()
        #expect(run.status == 0)
        #expect(!run.output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(run.output.contains(#"  Gam\0ma\nBank\u{1B}[31m, Pe\\oria\t, IL"#), "\(run.output)")
        #expect(run.lines.filter { $0.hasPrefix("  ") }.count == 4)
        // JSON keeps its own escapes (the text is exact there).
        #expect(list("--format", "json").output.contains(#""name":"Gam\u0000ma\nBank\u001b[31m""#))
    }

    // MARK: A closing date that is not a date

    @Test("a closing date that is not a date sections under — (the empty name), not under its first four letters")
    func nonDateSectionsUnderDash() throws {
        try shell.execute("UPDATE failed_bank_details SET close_date = 'yesterday' WHERE info_id = 2")
        let sections = try list("--format", "json").sections()
        #expect(sections.map(\.name) == ["2025", "2024", "2023", ""], "\(sections)")
        #expect(sections.last?.ids == [2])
        #expect(list().output.contains("(none) (1 bank)"))
    }

    @Test("closeYear: SQL and Swift agree on dates and on everything else")
    func closeYearSQLAndSwiftAgree() throws {
        let values: [StoreValue] = [
            .text("2025-06-27"), .text("2025-06-27T10:30:00"), .text("yesterday"), .text("2025"), .text("2025-6-27"),
            .text("6/27/2025"), .text(""), .text("१९९९-०१-०१"), .text("2025-06-2"), .text("20x5-06-27"),
            .integer(20_250_627), .real(2025.5), .blob(Array("2025-06-27".utf8)), .null,
        ]
        let db = try Database(path: ":memory:")
        let details = try #require(FailedBankModel.model.entity(named: FailedBankModel.details))
        let closeYear = try #require(details.derivedAttribute(named: "closeYear"))
        let sql = closeYear.expression(alias: nil).replacingOccurrences(of: "close_date", with: "?1")
        func inSwift(_ value: StoreValue) -> StoreValue { closeYear.compute { $0 == "closeDate" ? value : .null } }
        for value in values {
            let inSQL = try db.scalar("SELECT " + sql, [value])
            #expect(inSQL == inSwift(value), "\(value)")
        }
        #expect(inSwift(.text("yesterday")) == .null)
        #expect(inSwift(.text("2025-06-27")) == .text("2025"))
    }

    @Test("watch: a bank whose closing date becomes 'yesterday' moves to the — section, and back; the batches apply")
    func watchNonDate() throws {
        let steps = [
            "UPDATE failed_bank_details SET close_date = 'yesterday' WHERE info_id = 3",
            "UPDATE failed_bank_details SET close_date = 'tomorrow' WHERE info_id = 1",
            "UPDATE failed_bank_details SET close_date = '2024-01-01' WHERE info_id = 3",
        ]
        let run = try WatchRun(["--db", store.path], steps: steps.map { sql in { try shell.execute(sql) } })
        let watched = try WatchedState(jsonLines: run.lines.joined(separator: "\n"))
        #expect(watched.problems.isEmpty, "\(watched.problems)")
        let listed = try WatchedState.Section.list(fromJSON: list("--format", "json").output)
        #expect(watched.sections == listed)
        #expect(listed.map(\.name) == ["2025", "2024", "2023", ""], "\(listed)")
    }

    // MARK: A filter cut at the line's length

    @Test("a filter cut at the filter line's maximum length says it is too long, not that a string is not terminated")
    func filterCutAtMaximumLength() throws {
        let h = try BrowserHarness()
        h.press(.character("\\"))
        let long = "name == '" + String(repeating: "x", count: BankBrowser.filterMaximumLength + 20) + "'"
        for character in long { h.browser.loop.dispatch(.character(character)) }
        let frame = h.press(.character("x"))
        #expect(h.browser.filterField.text.count == BankBrowser.filterMaximumLength)
        let message = h.browser.filterField.errorMessage ?? ""
        #expect(message.contains("too long") && message.contains("\(BankBrowser.filterMaximumLength)"), "\(message)")
        #expect(!message.contains("not terminated"))
        #expect(frame.lines[23].contains("too long"), "\(frame)")
        // A short unterminated string still says so.
        h.press(.escape)
        h.press(.character("\\"))
        _ = h.type("name == 'abc")
        #expect(h.browser.filterField.errorMessage?.contains("not terminated") == true)
    }
}
