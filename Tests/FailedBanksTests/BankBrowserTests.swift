import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

@testable import FailedBanksKit

/// The browser in-process on an in-memory screen: every key of the help does
/// what it says; errors show where the person looks.
final class BrowserHarness {
    let directory = TemporaryDirectory("fb-browser")
    let store: Store
    let screen: MemoryBackend
    let clock = TestClock(now: 100)
    let browser: BankBrowser

    static let banks: [(String, String, String, String)] = [
        ("Pulaski Savings Bank", "Chicago", "IL", "2025-01-17"),
        ("The First National Bank of Lindsay", "Lindsay", "OK", "2024-10-18"),
        ("First Bank of Ohio", "Canton", "OH", "2024-09-13"),
        ("Republic First Bank", "Philadelphia", "PA", "2024-04-26"),
        ("Citizens Bank", "Sac City", "IA", "2023-11-03"),
        ("Heartland Tri-State Bank", "Elkhart", "KS", "2023-07-28"),
        ("First Republic Bank", "San Francisco", "CA", "2023-05-01"),
        ("Signature Bank", "New York", "NY", "2023-03-12"),
        ("Silicon Valley Bank", "Santa Clara", "CA", "2023-03-10"),
        ("Almena State Bank", "Almena", "KS", "2020-10-23"),
        ("First City Bank of Florida", "Fort Walton Beach", "FL", "2020-10-16"),
        ("1st Centennial Bank", "Redlands", "CA", "2009-01-23"),
        ("ebank", "Atlanta", "GA", "2013-08-30"),
    ]

    /// Saves ``banks`` (with full details) into `store`.
    static func writeBanks(to store: Store) throws {
        let context = ObjectContext(store: store)
        for (index, bank) in BrowserHarness.banks.enumerated() {
            let info = context.insert(into: FailedBankModel.info)
            info["name"] = .text(bank.0)
            info["city"] = .text(bank.1)
            info["state"] = .text(bank.2)
            let details = context.insert(into: FailedBankModel.details)
            details["closeDate"] = .text(bank.3)
            details["updatedDate"] = .text("2025-02-03")
            details["cert"] = .integer(Int64(1000 + index))
            details["acquiringInstitution"] = .text("Acquirer \(index)")
            details["fund"] = .integer(Int64(10_500 + index))
            info.setRelated(details, for: "details")
        }
        try context.save()
    }

    init(
        width: Int = 80,
        height: Int = 24,
        options: BrowserOptions = BrowserOptions(),
        readOnly: Bool = false
    ) throws {
        let path = directory.path("banks.sqlite")
        try BrowserHarness.writeBanks(to: try Store(path: path, model: BrowserModel.model))
        store = try Store(path: path, model: BrowserModel.model, readOnly: readOnly)
        screen = MemoryBackend(width: width, height: height)
        browser = try BankBrowser(
            store: store,
            options: options,
            backend: screen,
            clock: clock,
            readOnlyReason: readOnly ? "opened read-only for the test" : nil,
            cacheDirectory: directory.path("cache")
        )
        browser.loop.draw()
        // The first frame ran the deferred fetch: a failure shows here, not as a screen stuck on "Loading…".
        if let error = browser.loadError { throw EndToEndError("the browser's first fetch failed: \(error)") }
    }

    /// Sends events through the run loop's rules, lets animations finish, and returns the frame.
    @discardableResult
    func press(_ events: InputEvent...) -> String {
        TestTerminal.press(events, on: browser.loop, clock: clock)
        return screen.text
    }

    func type(_ text: String) -> String {
        for character in text { press(.character(character)) }
        return screen.text
    }

    var text: String { screen.text }
    var position: String { browser.positionText }
    var selectedName: String? { browser.adapter.selectedObject?.string("name") }
    var total: Int { BrowserHarness.banks.count }
}

@Suite struct BankBrowserTests {
    @Test func firstFrameShowsTitleTabsNewestYearFirstAndThePosition() throws {
        let h = try BrowserHarness()
        let lines = h.text.lines
        #expect(lines[0].contains("Failed Banks"))
        #expect(lines[1].contains("Date") && lines[1].contains("Name") && lines[1].contains("State"))
        #expect(lines[2].hasPrefix(" 2025 (1)"))
        #expect(lines[3].contains("Pulaski Savings Bank"))
        #expect(lines[4].contains("Chicago, IL"))
        #expect(lines[5].hasPrefix(" 2024 (3)"))
        #expect(lines[6].contains("The First National Bank of Lindsay"))
        #expect(lines[23].hasSuffix("1/13"))
        #expect(lines[23].hasPrefix("Date"))
        // The year index on the right.
        #expect(lines.contains { $0.hasSuffix("2025") })
        #expect(lines.contains { $0.hasSuffix("2009") })
    }

    @Test func movingAndPagingKeysMoveTheSelection() throws {
        let h = try BrowserHarness()
        h.press(.down)
        #expect(h.position == "2/13")
        h.press(.character("j"))
        #expect(h.position == "3/13")
        h.press(.character("k"))
        #expect(h.position == "2/13")
        h.press(.up)
        #expect(h.position == "1/13")
        h.press(.pageDown)
        let paged = h.position
        #expect(paged != "1/13")
        h.press(.pageUp)
        #expect(h.position == "1/13")
        h.press(.character(" "))
        #expect(h.position == paged)
        h.press(.character("b"))
        #expect(h.position == "1/13")
        h.press(.end)
        #expect(h.position == "13/13")
        h.press(.home)
        #expect(h.position == "1/13")
        h.press(.character("G"))
        #expect(h.position == "13/13")
        h.press(.character("g"))
        #expect(h.position == "1/13")
    }

    @Test func braceKeysAndTheIndexJumpGoToSections() throws {
        let h = try BrowserHarness()
        h.press(.character("}"))
        #expect(h.position == "2/13")  // 2024
        h.press(.character("}"))
        #expect(h.position == "5/13")  // 2023
        h.press(.character("{"))
        #expect(h.position == "2/13")
        h.press(.character("f"))
        _ = h.type("2009")  // the prompt closes itself once one title has the prefix typed
        #expect(h.selectedName == "1st Centennial Bank")
        #expect(h.text.contains("2009 (1)"))
    }

    @Test func tabsSwitchOrderAndSectionsAndKeepTheSelectedBank() throws {
        let h = try BrowserHarness()
        h.press(.down)  // The First National Bank of Lindsay
        let text = h.press(.tab)
        #expect(h.browser.tab == .name)
        #expect(h.selectedName == "The First National Bank of Lindsay")
        #expect(text.contains("T (1)"))
        h.press(.character("g"))
        #expect(h.selectedName == "1st Centennial Bank")
        #expect(h.text.contains("# (1)"), "non-letters in the # section")
        #expect(h.text.contains("E (1)"), "ebank sorts under E despite its lower case")
        h.press(.tab)
        #expect(h.browser.tab == .state)
        h.press(.character("g"))
        #expect(h.text.lines[2].hasPrefix(" CA (3)"))
        h.press(.backTab)
        #expect(h.browser.tab == .name)
        h.press(.character("1"))
        #expect(h.browser.tab == .date)
        h.press(.character("3"))
        #expect(h.browser.tab == .state)
        h.press(.character("2"))
        #expect(h.browser.tab == .name)
        #expect(h.text.lines[1].contains("Name"))
    }

    @Test func enterShowsDetailsWithTheClosingDateWrittenOutAndEscGoesBack() throws {
        let h = try BrowserHarness()
        h.press(.character("}"))
        h.press(.down)
        h.press(.down)  // Republic First Bank, 2024-04-26
        let detail = h.press(.enter)
        #expect(detail.contains("Republic First Bank"))
        #expect(detail.contains("Philadelphia"))
        #expect(detail.contains("Friday, 26 April 2024"))
        #expect(detail.contains("Monday, 3 February 2025"))
        #expect(detail.contains("Acquirer 3"))
        #expect(detail.contains("1003"))
        #expect(detail.contains("10503"))
        let back = h.press(.escape)
        #expect(back.contains("Failed Banks"))
        h.press(.right)
        #expect(h.text.contains("Friday, 26 April 2024"))
        h.press(.left)
        #expect(h.text.contains("Failed Banks"))
    }

    @Test func deleteButtonDeletesTheBankAndUndoBringsItBack() throws {
        let h = try BrowserHarness()
        h.press(.down)
        let revealed = h.press(.character("d"))
        #expect(revealed.contains("Delete"))
        let deleted = h.press(.enter)
        #expect(!deleted.lines[2..<23].contains { $0.contains("The First National Bank of Lindsay") })
        #expect(deleted.contains("Deleted The First National Bank of Lindsay — u to undo"))
        #expect(h.position.hasSuffix("/12"))
        #expect(try h.store.database.scalar("SELECT count(*) FROM failed_bank_info").int64 == 12)

        let restored = h.press(.character("u"))
        #expect(restored.contains("The First National Bank of Lindsay"))
        #expect(h.selectedName == "The First National Bank of Lindsay")
        #expect(try h.store.database.scalar("SELECT count(*) FROM failed_bank_info").int64 == 13)
        #expect(h.press(.character("u")).contains("Nothing to undo"))

        // The Delete key and `d` to confirm; Esc cancels.
        h.press(.delete)
        h.press(.escape)
        #expect(h.position.hasSuffix("/13"))
        h.press(.delete, .character("d"))
        #expect(h.position.hasSuffix("/12"))
    }

    @Test func readOnlyStoreBrowsesButRefusesDeleteAndSaysWhy() throws {
        let h = try BrowserHarness(readOnly: true)
        #expect(h.text.contains("read-only"))
        let frame = h.press(.character("d"))
        #expect(!frame.contains(" Delete "))
        #expect(frame.contains("Delete is disabled: opened read-only for the test"))
        #expect(h.position.hasSuffix("/13"))
    }

    @Test func searchJumpsAsYouTypeAndNFindsTheNextAndPrevious() throws {
        let h = try BrowserHarness()
        h.press(.character("/"))
        _ = h.type("first")
        #expect(h.selectedName == "The First National Bank of Lindsay")
        #expect(h.text.contains("1 of 5"))
        h.press(.enter)
        h.press(.character("n"))
        #expect(h.selectedName == "First Bank of Ohio")
        h.press(.character("n"))
        #expect(h.selectedName == "Republic First Bank")
        h.press(.character("N"))
        #expect(h.selectedName == "First Bank of Ohio")
        // Esc while typing returns to where the search began.
        h.press(.character("/"))
        _ = h.type("signature")
        #expect(h.selectedName == "Signature Bank")
        h.press(.escape)
        #expect(h.selectedName == "First Bank of Ohio")
        h.press(.character("/"))
        #expect(h.type("zzz").contains("no match"))
    }

    @Test func filterNarrowsTheResultsAndEscClearsIt() throws {
        let h = try BrowserHarness()
        h.press(.character("\\"))
        _ = h.type("state == \"CA\" AND details.closeDate >= 2020-01-01")
        let filtered = h.press(.enter)
        #expect(h.position == "1/2")
        #expect(filtered.contains("First Republic Bank"))
        #expect(filtered.contains("Silicon Valley Bank"))
        #expect(!filtered.contains("1st Centennial Bank"))
        #expect(filtered.lines[23].contains("2 banks match"))
        h.clock.advance(by: 10)
        h.browser.loop.draw()
        #expect(h.text.lines[23].contains("filter: state == \"CA\""), "the status line shows the filter")
        h.press(.escape)
        #expect(h.position.hasSuffix("/13"))
    }

    @Test func filterParseErrorIsShownWithItsPositionAndEnterDoesNotApplyIt() throws {
        let h = try BrowserHarness()
        h.press(.character("\\"))
        let text = h.type("state == ")
        #expect(text.lines[23].contains("column 10"), "\(text)")
        #expect(text.lines[23].contains("^"))
        h.press(.enter)
        #expect(h.browser.filter == nil)
        h.press(.escape)
        h.press(.character("\\"))
        let unknown = h.type("zip == 5")
        #expect(unknown.lines[23].contains("unknown key path \"zip\""))
    }

    @Test func helpOverlayListsTheKeysAndAnyKeyClosesIt() throws {
        let h = try BrowserHarness()
        let help = h.press(.character("?"))
        for (keys, _) in BrowserKeys.bindings where !keys.trimmingCharacters(in: .whitespaces).isEmpty {
            #expect(help.contains(keys), "\(keys) listed")
        }
        let closed = h.press(.character("x"))
        #expect(!closed.contains("Press any key"))
        #expect(h.press(.function(1)).contains("Keys"))
        h.press(.escape)
        h.press(.control("l"))
        #expect(h.text.contains("Failed Banks"))
    }

    @Test func qQuits() throws {
        let h = try BrowserHarness()
        h.screen.enqueue(.down, .character("q"))
        #expect(h.browser.run() == .quit)
    }

    @Test func anotherProcessesInsertAppearsOnTheNextTick() throws {
        let h = try BrowserHarness()
        let other = try Database(path: h.store.path)
        try other.execute(
            """
            INSERT INTO failed_bank_info(name, city, state) VALUES ('Live Bank', 'Testville', 'KS');
            INSERT INTO failed_bank_details(close_date, cert, info_id) VALUES ('2026-02-01', 777, last_insert_rowid());
            """
        )
        h.browser.pollExternalChanges()
        let frame = h.press(.character("g"))
        #expect(frame.contains("2026 (1)"))
        #expect(frame.contains("Live Bank"))
        #expect(h.position == "1/14")
    }

    @Test func aBankWithoutDetailsIsListedUnderADashAndItsDetailSaysSo() throws {
        let h = try BrowserHarness()
        let other = try Database(path: h.store.path)
        try other.execute("INSERT INTO failed_bank_info(name, city, state) VALUES ('Orphan Bank', 'Nowhere', 'ZZ')")
        h.browser.pollExternalChanges()
        let bottom = h.press(.character("G"))
        #expect(bottom.contains("— (1)"), "\(bottom)")
        #expect(h.selectedName == "Orphan Bank")
        let detail = h.press(.enter)
        #expect(detail.contains("Orphan Bank"))
        #expect(detail.contains("Closing date"))
    }

    @Test func tinyTerminalShowsTooSmall() throws {
        let h = try BrowserHarness(width: 10, height: 3)
        #expect(h.text.contains("Terminal") || h.text.contains("small"))
    }

    @Test func nameInitialAgreesInSQLAndSwift() throws {
        let h = try BrowserHarness()
        let entity = try #require(BrowserModel.model.entity(named: FailedBankModel.info))
        let derived = try #require(entity.derivedAttribute(named: BrowserModel.nameInitial))
        let expression = derived.expression(alias: "t")
        let names: [StoreValue] =
            ["apple", "Zebra", "1st", "", " lead", "Éclair", "ñandu", "_x", "[bank]", "Ω", "z"]
            .map { .text($0) } + [.null, .integer(7)]
        for name in names {
            let sql = try h.store.database.scalar("SELECT \(expression) FROM (SELECT ? AS name) AS t", [name])
            #expect(sql == derived.compute { $0 == "name" ? name : .null }, "\(name)")
        }
    }
}

/// `v`: every column of the banks as a grid (the cert, the acquirer and the fund are shown
/// nowhere else but the detail screen), `v` again the list.
@Suite struct BankBrowserGridTests {
    @Test func vShowsEveryColumnAsAGridAndArrowsScrollToTheFund() throws {
        let h = try BrowserHarness()
        let list = h.text
        #expect(!list.contains("Acquired by"))
        let grid = h.press(.character("v"))
        let header = try #require(grid.lines.first { $0.hasPrefix(" Bank") })
        for name in ["City", "St", "Closed", "Cert"] {
            #expect(header.contains(name), "\(name) in \(header)")
        }
        #expect(header.contains("Cert  Acquired by") || header.hasSuffix("Cert  …"), "\(header)")
        for _ in 0..<7 { h.press(.right) }
        let scrolled = h.text
        let right = try #require(scrolled.lines.first { $0.hasPrefix(" Bank") })
        #expect(right.contains("Fund") && right.contains("Updated"), "\(scrolled)")
        #expect(right.contains("│"), "the bank's name stays frozen on the left: \(right)")
        #expect(h.press(.character("v")) == list)
    }
}
