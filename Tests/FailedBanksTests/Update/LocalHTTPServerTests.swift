import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The test server itself: it must never close or accept on a descriptor it no
/// longer owns. Tests run in parallel in one process, so a descriptor number it
/// closed is soon another test's (an SQLite store's `-wal`, another server's
/// socket); closing that number again broke those tests at random under load
/// ("SQLite error 778: disk I/O error" on COMMIT, "connection refused").
@Suite struct LocalHTTPServerTests {
    /// Opens `/dev/null` until it gets descriptor `number` (the lowest free one comes
    /// first); true when it did. The other descriptors it opened are closed again.
    static func claim(_ number: Int32) -> Bool {
        var opened: [Int32] = []
        defer { for fd in opened where fd != number { close(fd) } }
        while opened.count < 4_096 {
            let fd = open("/dev/null", O_RDONLY)
            guard fd >= 0 else { return false }
            opened.append(fd)
            if fd == number { return true }
            if fd > number { return false }  // another thread took it first
        }
        return false
    }

    @Test func stoppingTwiceClosesNoDescriptorOpenedSince() throws {
        var claimed: Int32?
        for _ in 0..<50 where claimed == nil {
            let server = try LocalHTTPServer { _ in .silence }
            let number = server.listener
            server.stop()
            if Self.claim(number) {
                claimed = number
                server.stop()  // as a test does with `defer { server.stop() }` after stopping it itself
            }
        }
        let number = try #require(claimed, "descriptor numbers are taken by other threads at once")
        let stillOpen = fcntl(number, F_GETFD) != -1
        #expect(stillOpen, "the second stop() closed descriptor \(number), opened since by someone else")
        if stillOpen { close(number) }  // (not when it was closed: the number may be another thread's by now)
    }

    @Test func stopReturnsOnlyOnceTheAcceptLoopHasEnded() throws {
        for _ in 0..<20 {
            let server = try LocalHTTPServer { _ in .ok(body: []) }
            server.stop()
            // After stop() the listener's number may be reused at once: a loop still
            // running would accept another server's connections on it.
            #expect(!server.isAccepting)
        }
    }
}
