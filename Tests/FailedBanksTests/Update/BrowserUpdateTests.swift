import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

@testable import FailedBanksKit

/// `U` in the browser: the update runs in the background, its progress and its
/// result (or error) in the status line, keys handled meanwhile, the new and
/// changed banks arriving through the live path.
@Suite struct BrowserUpdateTests {
    /// The harness's list with one bank that failed since and one corrected acquirer.
    static let list = Array(
        ("Bank Name,City,State,Cert,Acquiring Institution,Closing Date,Fund\r\n"
            + "Held Bank,Eastport,ME,90001,Harbor Savings Bank,14-Nov-25,10552\r\n"
            + "Pulaski Savings Bank,Chicago,IL,1000,Acquirer 0 N.A.,17-Jan-25,10500\r\n").utf8
    )

    static func harness(url: String) throws -> BrowserHarness {
        var options = BrowserOptions()
        options.updateURL = url
        return try BrowserHarness(options: options)
    }

    /// Runs what the update posts to the loop, as the run loop does, until it is done (generous deadline).
    static func waitForUpdate(_ h: BrowserHarness) throws {
        let deadline = Date().addingTimeInterval(60)
        while h.browser.backgroundUpdate != nil {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw EndToEndError("the update did not finish within 60 s") }
            h.browser.loop.runPosted(waitingUpTo: left)
        }
        h.press()
    }

    static func statusLine(_ h: BrowserHarness) -> String { h.text.lines.last ?? "" }

    @Test func uDownloadsAndImportsInTheBackgroundAndTheNewBankArrives() throws {
        let server = try LocalHTTPServer { _ in .ok(body: BrowserUpdateTests.list, headers: [("ETag", "\"1\"")]) }
        defer { server.stop() }
        let h = try Self.harness(url: server.url("/banklist.csv"))
        h.press(.character("U"))
        #expect(h.browser.backgroundUpdate != nil || Self.statusLine(h).contains("Update"))
        try Self.waitForUpdate(h)
        #expect(
            h.browser.statusLine.message(at: h.clock.now)?.text
                == "Update: 1 new, 1 changed, 0 unchanged — newest: Held Bank (Eastport, ME), closed 14 November 2025",
            "\(h.text)"
        )
        h.press(.home)
        #expect(h.text.contains("2025 (2)") && h.text.contains("Held Bank"), "\(h.text)")
        #expect(h.browser.adapter.controller.numberOfObjects == BrowserHarness.banks.count + 1)
    }

    @Test func keysWorkWhileTheUpdateWaitsForTheServer() throws {
        let server = try LocalHTTPServer { _ in .silence }
        defer { server.stop() }
        let h = try Self.harness(url: server.url("/banklist.csv"))
        h.press(.character("U"))
        #expect(Self.statusLine(h).contains("Updating"), "\(h.text)")
        let before = h.position
        h.press(.down, .down)
        #expect(h.position != before, "the selection moved while the update runs")
        h.press(.character("c"))
        #expect(h.text.contains("Failures by year"))
        h.press(.escape)
        h.press(.character("U"))
        #expect(Self.statusLine(h).contains("already running"), "\(h.text)")
        server.stop()  // the connection closes: the update fails
        try Self.waitForUpdate(h)
        #expect(Self.statusLine(h).contains("Update failed"), "\(h.text)")
        #expect(h.browser.adapter.controller.numberOfObjects == BrowserHarness.banks.count)
    }

    @Test func anHTTPErrorShowsInTheStatusLineAndChangesNothing() throws {
        let server = try LocalHTTPServer { _ in .respond(status: 404, reason: "Not Found", headers: [], body: []) }
        defer { server.stop() }
        let h = try Self.harness(url: server.url("/moved.csv"))
        h.press(.character("U"))
        try Self.waitForUpdate(h)
        #expect(Self.statusLine(h).contains("Update failed"), "\(h.text)")
        #expect(h.browser.statusLine.message(at: h.clock.now)?.text.contains("HTTP 404 Not Found") == true)
        #expect(h.browser.statusLine.message(at: h.clock.now)?.style == .error)
        #expect(h.browser.adapter.controller.numberOfObjects == BrowserHarness.banks.count)
    }
}
