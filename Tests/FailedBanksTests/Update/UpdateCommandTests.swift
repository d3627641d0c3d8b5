import CLIKit
import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FailedBanksKit

/// `failedbanks update` against a local HTTP server started by each test: the
/// counts and the last line on success, a 304 that changes nothing, and every
/// failure refused with its message and exit status, the store unchanged.
@Suite struct UpdateCommandTests {
    /// The bundled list (572 banks) with three banks that failed since at the top and one
    /// acquirer corrected: an update of the bundled store gives 3 new, 1 changed, 571 unchanged.
    static let newerList: [UInt8] = {
        let bytes = try! [UInt8](Data(contentsOf: URL(fileURLWithPath: BundledListTests.path)))
        // ISO Latin 1 maps each byte to one character, so the Windows-1252 bytes come back unchanged.
        var text = String(bytes.map { Character(Unicode.Scalar($0)) })
        let headerEnd = text.range(of: "\r\n")!.upperBound
        text.insert(
            contentsOf: "Held Bank,Eastport,ME,90001,Harbor Savings Bank,14-Nov-25,10552\r\n"
                + "\"Second Bank, N.A.\",Dover,DE,90002,First Dover Bank,5-Sep-25,10551\r\n"
                + "Third State Bank,Helena,MT,90003,Mountain Bank,1-Aug-25,10550\r\n",
            at: headerEnd
        )
        let old = "Pulaski Savings Bank,Chicago,IL,28611,Millennium Bank,17-Jan-25,10548"
        text = text.replacingOccurrences(
            of: old,
            with: "Pulaski Savings Bank,Chicago,IL,28611,Millennium Bank N.A.,17-Jan-25,10548"
        )
        return text.unicodeScalars.map { UInt8($0.value) }
    }()

    static let expectedLine =
        "update: 3 new, 1 changed, 571 unchanged — newest: Held Bank (Eastport, ME), closed 14 November 2025"

    /// What one in-process run printed and returned.
    struct Run {
        var status: Int32
        var output: [String]
        var errors: [String]
        var text: String { (output + errors).joined(separator: "\n") }
    }

    /// A store holding the bundled list, in a scratch directory.
    final class BundledStore {
        let scratch: TemporaryDirectory
        let path: String
        init() throws {
            scratch = TemporaryDirectory("update")
            path = scratch.path("banks.sqlite")
            let store = try FailedBankStore.open(path: path)
            _ = try BankImporter(store: store).importFile(BundledListTests.path)
        }
        deinit { scratch.remove() }

        /// Everything a person could see changed: banks, details, metadata, history.
        func digest() throws -> String {
            let db = try Database(path: path)
            var lines: [String] = []
            for sql in [
                "SELECT * FROM failed_bank_info ORDER BY id", "SELECT * FROM failed_bank_details ORDER BY id",
                "SELECT seq, entity, row_id, op FROM store_history ORDER BY seq",
                "SELECT name FROM sqlite_master ORDER BY name",
            ] {
                lines += try db.query(sql).map { $0.map(\.description).joined(separator: "|") }
            }
            if try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'store_metadata'").int64 == 1 {
                lines += try db.query("SELECT key, value FROM store_metadata ORDER BY key").map {
                    $0.map(\.description).joined(separator: "|")
                }
            }
            return lines.joined(separator: "\n")
        }

        func count() throws -> Int64 {
            try Database(path: path).scalar("SELECT count(*) FROM failed_bank_info").int64 ?? -1
        }

        func metadata(_ key: String) throws -> String? {
            let store = try FailedBankStore.open(path: path)
            return try store.metadata(forKey: key)
        }
    }

    func update(_ arguments: [String], environment: [String: String] = [:]) -> Run {
        var output: [String] = []
        var errors: [String] = []
        let status = UpdateCommand.run(
            arguments,
            environment: environment,
            output: { output.append($0) },
            errorOutput: { errors.append($0) },
            progressBars: false
        )
        return Run(status: status, output: output, errors: errors)
    }

    /// Runs an update that must fail, and checks the store did not change.
    func refused(_ store: BundledStore, url: String, extra: [String] = []) throws -> Run {
        let before = try store.digest()
        let run = update(["--url", url, "--db", store.path] + extra)
        #expect(try store.digest() == before, "the store changed after: \(run.text)")
        #expect(run.output.isEmpty)
        #expect(run.errors.last?.hasPrefix("\(ProgramName.current): \(url)") == true, "\(run.errors)")
        #expect(run.errors.last?.contains("nothing was changed") == true)
        #expect(run.errors.last?.contains("--url URL or $FAILEDBANKS_URL") == true)
        return run
    }

    // MARK: Success

    @Test func a200WithValidatorsImportsTheListAndKeepsTheValidators() throws {
        let store = try BundledStore()
        let server = try LocalHTTPServer { _ in
            .ok(
                body: UpdateCommandTests.newerList,
                headers: [
                    ("ETag", "\"fdic-v2\""), ("Last-Modified", "Fri, 14 Nov 2025 20:00:00 GMT"),
                    ("Content-Type", "text/csv"),
                ]
            )
        }
        defer { server.stop() }
        let url = server.url("/banklist.csv")
        let run = update(["--url", url, "--db", store.path])
        #expect(run.status == 0, "\(run.text)")
        #expect(run.output.last == Self.expectedLine)
        #expect(run.errors == [HostileServerTests.plainHTTPWarning(url)], "a plain http address is warned about")
        #expect(try store.count() == 575)
        #expect(try store.metadata("failedbanks.update.etag") == "\"fdic-v2\"")
        #expect(try store.metadata("failedbanks.update.lastModified") == "Fri, 14 Nov 2025 20:00:00 GMT")
        #expect(server.requests.first?.headers["if-none-match"] == nil, "the first update is not conditional")
    }

    @Test func a304SaysTheListIsCurrentAndChangesNothing() throws {
        let store = try BundledStore()
        let server = try LocalHTTPServer { request in
            if request.headers["if-none-match"] == "\"fdic-v2\"" {
                return .respond(status: 304, reason: "Not Modified", headers: [("ETag", "\"fdic-v2\"")], body: [])
            }
            return .ok(
                body: UpdateCommandTests.newerList,
                headers: [("ETag", "\"fdic-v2\""), ("Last-Modified", "Fri, 14 Nov 2025 20:00:00 GMT")]
            )
        }
        defer { server.stop() }
        let url = server.url("/banklist.csv")
        #expect(update(["--url", url, "--db", store.path]).status == 0)
        let before = try store.digest()
        let second = update(["--url", url, "--db", store.path])
        #expect(second.status == 0, "\(second.text)")
        #expect(second.output.last?.hasPrefix("update: the list is current") == true, "\(second.text)")
        #expect(second.output.last?.contains("nothing changed") == true)
        #expect(try store.digest() == before)
        let conditional = try #require(server.requests.last)
        #expect(conditional.headers["if-none-match"] == "\"fdic-v2\"")
        #expect(conditional.headers["if-modified-since"] == "Fri, 14 Nov 2025 20:00:00 GMT")
    }

    /// The banks and the validators they came with are one write: an update whose validators
    /// cannot be written changes nothing and says so (it had imported the banks, kept the old
    /// validators and exited 0, so the next update asked for the old list's changes again).
    @Test func anUpdateWhoseValidatorsCannotBeWrittenChangesNothing() throws {
        let store = try BundledStore()
        try Database(path: store.path).execute(
            """
            CREATE TRIGGER no_metadata BEFORE INSERT ON store_metadata WHEN NEW.key LIKE 'failedbanks.update.%'
            BEGIN SELECT RAISE(ABORT, 'metadata refused'); END
            """
        )
        let server = try LocalHTTPServer { _ in
            .ok(body: UpdateCommandTests.newerList, headers: [("ETag", "\"fdic-v2\"")])
        }
        defer { server.stop() }
        let url = server.url("/banklist.csv")
        let before = try store.digest()
        let run = update(["--url", url, "--db", store.path])
        #expect(run.status != 0, "\(run.text)")
        #expect(run.errors.last?.contains("nothing was changed") == true, "\(run.errors)")
        #expect(try store.digest() == before)
    }

    @Test func aRedirectIsFollowed() throws {
        let store = try BundledStore()
        let server = try LocalHTTPServer { request in
            if request.path == "/old/banklist.csv" {
                return .respond(
                    status: 301,
                    reason: "Moved Permanently",
                    headers: [("Location", "/bank-failures/download-data.csv")],
                    body: []
                )
            }
            return .ok(body: UpdateCommandTests.newerList)
        }
        defer { server.stop() }
        let run = update(["--url", server.url("/old/banklist.csv"), "--db", store.path])
        #expect(run.status == 0, "\(run.text)")
        #expect(run.output.last == Self.expectedLine)
        #expect(server.requests.map(\.path) == ["/old/banklist.csv", "/bank-failures/download-data.csv"])
    }

    @Test func theURLComesFromTheEnvironmentWithoutURLOption() throws {
        let store = try BundledStore()
        let server = try LocalHTTPServer { _ in .ok(body: UpdateCommandTests.newerList) }
        defer { server.stop() }
        let run = update(["--db", store.path], environment: ["FAILEDBANKS_URL": server.url("/env.csv")])
        #expect(run.status == 0, "\(run.text)")
        #expect(run.output.last == Self.expectedLine)
        #expect(server.requests.map(\.path) == ["/env.csv"])
        #expect(
            BankListSource.url(option: nil, environment: [:]) == "https://www.fdic.gov/bank-failures/download-data.csv"
        )
    }

    @Test func quietPrintsNothingOnSuccess() throws {
        let store = try BundledStore()
        let server = try LocalHTTPServer { _ in .ok(body: UpdateCommandTests.newerList) }
        defer { server.stop() }
        let run = update(["--url", server.url("/x.csv"), "--db", store.path, "--quiet"])
        #expect(run.status == 0)
        #expect(run.output.isEmpty && run.errors.isEmpty)
        #expect(try store.count() == 575)
    }

    // MARK: Refusals

    @Test(arguments: [(404, "Not Found"), (500, "Internal Server Error")])
    func anHTTPErrorIsRefusedWith69(code: Int, reason: String) throws {
        let store = try BundledStore()
        let server = try LocalHTTPServer { _ in
            .respond(
                status: code,
                reason: reason,
                headers: [("Content-Type", "text/html")],
                body: Array("<html>error</html>".utf8)
            )
        }
        defer { server.stop() }
        let url = server.url("/banklist.csv")
        let run = try refused(store, url: url)
        #expect(run.status == 69)
        #expect(run.errors.last?.contains("HTTP \(code) \(reason)") == true, "\(run.errors)")
    }

    @Test func anHTMLPageIsNotABankList() throws {
        let store = try BundledStore()
        let page = Array(
            "<!DOCTYPE html>\n<html><head><title>Bank Failures in Brief</title></head><body>moved</body></html>".utf8
        )
        let server = try LocalHTTPServer { _ in .ok(body: page, headers: [("Content-Type", "text/html; charset=utf-8")])
        }
        defer { server.stop() }
        let run = try refused(store, url: server.url("/banklist.csv"))
        #expect(run.status == 65)
        #expect(
            run.errors.last?.contains("not a failed bank list (an HTML page titled \"Bank Failures in Brief\")")
                == true,
            "\(run.errors)"
        )
    }

    @Test func aCSVThatIsNotABankListIsRefusedWith65() throws {
        let store = try BundledStore()
        let server = try LocalHTTPServer { _ in
            .ok(body: Array("a,b,c\r\n1,2,3\r\n".utf8), headers: [("Content-Type", "text/csv")])
        }
        defer { server.stop() }
        let run = try refused(store, url: server.url("/other.csv"))
        #expect(run.status == 65)
        #expect(run.errors.last?.contains("not a failed bank list (no FDIC header") == true, "\(run.errors)")
    }

    @Test func aTruncatedBodyIsRefusedWith65() throws {
        let store = try BundledStore()
        let body = UpdateCommandTests.newerList
        let server = try LocalHTTPServer { _ in
            .truncated(headers: [], body: Array(body.prefix(20_000)), announced: body.count)
        }
        defer { server.stop() }
        let run = try refused(store, url: server.url("/banklist.csv"))
        #expect(run.status == 65)
        #expect(
            run.errors.last?.contains("truncated: the body ended after 20000 of the \(body.count) bytes") == true,
            "\(run.errors)"
        )
    }

    @Test func aChunkedBodyCutShortSaysSoWithoutACountThatWasNeverAnnounced() throws {
        let store = try BundledStore()
        let body = UpdateCommandTests.newerList
        let server = try LocalHTTPServer { _ in .chunked(body: Array(body.prefix(20_480)), complete: false) }
        defer { server.stop() }
        let run = try refused(store, url: server.url("/banklist.csv"))
        #expect(run.status == 65)
        let message = run.errors.last ?? ""
        let said = "truncated: the connection closed after 20480 bytes of a chunked body, before its last chunk"
        #expect(message.contains(said), "\(run.errors)")
        #expect(!message.contains("Content-Length") && !message.contains("announced"), "\(run.errors)")
    }

    @Test func aCompleteChunkedBodyIsRead() throws {
        let store = try BundledStore()
        let server = try LocalHTTPServer { _ in .chunked(body: UpdateCommandTests.newerList, complete: true) }
        defer { server.stop() }
        let run = update(["--url", server.url("/banklist.csv"), "--db", store.path])
        #expect(run.status == 0, "\(run.errors)")
    }

    @Test func aServerThatNeverAnswersTimesOutWith69() throws {
        let store = try BundledStore()
        let server = try LocalHTTPServer { _ in .silence }
        defer { server.stop() }
        let run = try refused(store, url: server.url("/banklist.csv"), extra: ["--timeout", "1"])
        #expect(run.status == 69)
        // Ended by --timeout (its message names it), not by URLSession's 60 s default.
        #expect(run.errors.last?.contains("timed out: no complete answer within 1 s") == true, "\(run.errors)")
    }

    @Test func nothingListeningIsRefusedWith69() throws {
        let store = try BundledStore()
        let port = try LocalHTTPServer.closedPort()
        let run = try refused(store, url: "http://127.0.0.1:\(port)/banklist.csv")
        #expect(run.status == 69)
        #expect(run.errors.last?.contains("cannot connect: nothing is listening there") == true, "\(run.errors)")
    }

    @Test func badOptionsAreUsageErrors() throws {
        let store = try BundledStore()
        #expect(update(["--url", "ftp://example.com/x.csv", "--db", store.path]).status == 64)
        #expect(update(["--url", "not a url", "--db", store.path]).status == 64)
        #expect(update(["--url", "http://127.0.0.1:1/x", "--timeout", "soon", "--db", store.path]).status == 64)
        #expect(update(["--url", "http://127.0.0.1:1/x", "--timeout", "0", "--db", store.path]).status == 64)
        #expect(update(["--help"]).output.joined().contains("failedbanks update"))
    }
}

/// The downloader's size cap, whether or not the server announces the size.
@Suite struct DownloadSizeCapTests {
    @Test(arguments: [true, false])
    func aBodyLargerThanTheCapIsRefusedWith65(announced: Bool) throws {
        let body = UpdateCommandTests.newerList
        let server = try LocalHTTPServer { _ in
            announced ? .ok(body: body) : .unsized(body: body)
        }
        defer { server.stop() }
        let url = try #require(URL(string: server.url("/big.csv")))
        #expect(throws: UpdateError.tooLarge(url: url.absoluteString, limit: 4096)) {
            _ = try BankListDownloader().download(.init(url: url, validators: nil, timeout: 30, maximumBytes: 4096))
        }
        #expect(UpdateError.tooLarge(url: "u", limit: 32 << 20).exitStatus == 65)
        #expect(
            UpdateError.tooLarge(url: "u", limit: 32 << 20).reason
                == "u: the answer is larger than 32.0 MB, so not a failed bank list"
        )
    }
}
