import Foundation
import TestSupport
import Testing

@testable import MyStashKit

/// The app keeps its secrets out of core dumps.
@Suite struct CoreDumpTests {
    @Test(
        .enabled(
            if: EndToEnd.binary != nil && FileManager.default.fileExists(atPath: "/proc/self/limits"),
            "needs the built mystash and /proc"
        )
    )
    func theAppTurnsCoreDumpsOffAtStartEvenWhenTheShellAllowsThem() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        stash.lock()
        // The shell allows core dumps; mystash then waits for a passphrase on descriptor 3.
        let child = try ScriptRun.startBlocked([
            "/bin/sh", "-c",
            "ulimit -c unlimited && exec \(ProcessRunner.shellQuoted(EndToEnd.binary!)) show X --db \(ProcessRunner.shellQuoted(temp.path)) --passphrase-fd 3",
        ])
        var limit = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let cmdline = (try? String(contentsOfFile: "/proc/\(child.pid)/cmdline", encoding: .utf8)) ?? ""
            let wchan = (try? String(contentsOfFile: "/proc/\(child.pid)/wchan", encoding: .utf8)) ?? ""
            if cmdline.contains("--passphrase-fd"), wchan.contains("pipe") || wchan.contains("read") {
                limit =
                    ((try? String(contentsOfFile: "/proc/\(child.pid)/limits", encoding: .utf8)) ?? "")
                    .split(separator: "\n").first { $0.hasPrefix("Max core file size") }.map(String.init) ?? ""
                break
            }
            usleep(20_000)
        }
        _ = child.finish()
        let fields = limit.split(separator: " ", omittingEmptySubsequences: true)
        #expect(fields.count >= 6 && fields[4] == "0" && fields[5] == "0", "core limit: \(limit)")
    }

    @Test func disablingCoreDumpsLeavesTheProcessUndumpable() {
        // In a child, so that the test process itself keeps its settings.
        let pid = fork()
        if pid == 0 {
            var unlimited = rlimit(rlim_cur: rlim_t.max, rlim_max: rlim_t.max)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &unlimited)
            let before = ProcessHardening.isDumpable
            let applied = ProcessHardening.disableCoreDumps()
            var limit = rlimit()
            _ = getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit)
            _exit(
                before && applied && !ProcessHardening.isDumpable && limit.rlim_cur == 0 && limit.rlim_max == 0 ? 0 : 1
            )
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status == 0)
    }
}
