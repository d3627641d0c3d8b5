import Foundation
import PostgreSQLClient
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// libpq prints notices on stderr by default, over a full-screen program's display; a
/// connection takes them instead: its handler gets each, it keeps the last ones, and nothing
/// reaches file descriptor 2 — also for an error that arrives while the connection is idle.
@Suite(.serialized, .enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct PostgresNoticeTests {
    /// What `body` wrote to file descriptor 2 (the process's stderr, redirected meanwhile).
    static func standardError(during body: () throws -> Void) throws -> String {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw EndToEndFailure("pipe failed") }
        fflush(nil)
        let saved = dup(2)
        dup2(ends[1], 2)
        close(ends[1])
        defer {
            fflush(nil)
            dup2(saved, 2)
            close(saved)
        }
        try body()
        fflush(nil)
        dup2(saved, 2)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        close(ends[0])
        return String(decoding: bytes, as: UTF8.self)
    }

    struct EndToEndFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func aNoticeGoesToTheHandlerAndNeverToStandardError() throws {
        let database = try TestDatabase()
        let connection = try database.connect()
        let received = NoticeBox()
        connection.noticeHandler = { received.append($0) }
        let written = try Self.standardError {
            try connection.execute(
                "DO $$ BEGIN RAISE NOTICE 'hello from the server'; RAISE WARNING 'careful'; END $$;"
                    + " CREATE TABLE quiet (); DROP TRIGGER IF EXISTS nothing_here ON quiet"
            )
        }
        #expect(!written.contains("hello from the server") && !written.contains("careful"), "\(written)")
        #expect(received.all.map(\.description).prefix(2) == ["NOTICE: hello from the server", "WARNING: careful"])
        #expect(received.all.last?.message.contains("does not exist, skipping") == true, "\(received.all)")
        #expect(connection.recentNotices == received.all)
    }

    @Test func anErrorThatArrivesWhileIdleIsANoticeNotALineOnStandardError() throws {
        let database = try TestDatabase()
        let connection = try database.connect(applicationName: "idle-notice-test")
        let written = try Self.standardError {
            try database.server.terminateBackends(applicationName: "idle-notice-test")
            // The FATAL arrives while no statement runs: libpq hands it to the notice receiver.
            for _ in 0..<50 where connection.recentNotices.isEmpty {
                _ = try? connection.waitForNotifications(timeout: 0.1)
            }
        }
        #expect(!written.contains("terminating connection"), "\(written)")
        #expect(
            connection.recentNotices.contains {
                $0.severity == "FATAL" && $0.message.contains("terminating connection")
            },
            "\(connection.recentNotices)"
        )
    }
}

/// Notices collected by a handler (called on the test's thread).
final class NoticeBox: @unchecked Sendable {
    private(set) var all: [PostgresNotice] = []
    func append(_ notice: PostgresNotice) { all.append(notice) }
}
