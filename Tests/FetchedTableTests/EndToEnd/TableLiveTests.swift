import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `fetchedtable watch` on a database another process writes with the `sqlite3` shell:
/// without `--track` through `PRAGMA data_version` and a refetch, with `--track` through
/// the history triggers, which `fetchedtable untrack` removes again.
@Suite(.serialized, .enabled(if: TableFixture.isAvailable, Comment(rawValue: TableFixture.unavailableReason ?? "")))
struct TableLiveTests {
    /// `watch` running in the background, its stdout collected in a file. Started through a
    /// shell by ``ProcessRunner/runDetaching(_:_:)`` (no signal blocked: the test runner's mask
    /// would keep SIGTERM from it); the shell records its exit status.
    final class Watch {
        let output: URL
        let status: URL
        let pidFile: URL

        init(_ fixture: TableFixture, _ arguments: [String]) throws {
            guard let binary = TableFixture.binary else { throw EndToEndError("no binary") }
            let name = "watch-\(UUID().uuidString.prefix(6))"
            output = fixture.directory.appendingPathComponent(name + ".jsonl")
            status = fixture.directory.appendingPathComponent(name + ".status")
            pidFile = fixture.directory.appendingPathComponent(name + ".pid")
            let environment = fixture.environment.map { "\($0.key)=\(TableFixture.shellQuote($0.value))" }.sorted()
                .joined(separator: " ")
            let command = ([binary, "watch"] + arguments).map(TableFixture.shellQuote).joined(separator: " ")
            let q = TableFixture.shellQuote
            let script =
                "(env \(environment) \(command) > \(q(output.path)) 2>/dev/null < /dev/null & echo $! > \(q(pidFile.path)); "
                + "wait $!; echo $? > \(q(status.path))) > /dev/null 2>&1 < /dev/null &"
            let result = try ProcessRunner.runDetaching("/bin/sh", ["-c", script])
            guard result.status == 0 else { throw EndToEndError("starting watch: \(result.standardError)") }
        }

        var lines: [String] {
            ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// Waits until `count` lines were printed; returns them.
        func waitForLines(_ count: Int) throws -> [String] {
            let deadline = Date().addingTimeInterval(generousDeadline)
            while lines.count < count {
                if Date() > deadline {
                    throw EndToEndError("watch printed \(lines.count) lines, not \(count): \(lines)")
                }
                usleep(30_000)
            }
            return lines
        }

        /// SIGTERM, then the exit status the shell recorded (nil: none within the deadline).
        func stop() -> Int32? {
            let deadline = Date().addingTimeInterval(generousDeadline)
            while Date() < deadline {
                if let text = try? String(contentsOf: pidFile, encoding: .utf8),
                    let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
                {
                    kill(pid, SIGTERM)
                    break
                }
                usleep(20_000)
            }
            while Date() < deadline {
                if let text = try? String(contentsOf: status, encoding: .utf8),
                    let code = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
                {
                    return code
                }
                usleep(20_000)
            }
            return nil
        }
    }

    @Test func watchWithoutTrackingPrintsTheBatchOfAnInsertIntoANewSection() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let watch = try Watch(
            fixture,
            [fixture.school, "--table", "student", "--sort", "subject, number", "--section", "subject"]
        )
        let snapshot = try watch.waitForLines(1)[0]
        #expect(
            snapshot == #"{"type":"snapshot","sections":[{"name":"Art","ids":[2,5]},{"name":"Biology","ids":[8]},"#
                + #"{"name":"History","ids":[7,4]},{"name":"Math","ids":[3,6,1]}]}"#
        )
        try fixture.sql("INSERT INTO student (id, name, subject, number) VALUES (9, 'Ivo', 'Chemistry', 1)")
        let batch = try watch.waitForLines(2)[1]
        #expect(
            batch == #"{"type":"batch","sections":[{"change":"insert","index":2,"name":"Chemistry"}],"#
                + #""objects":[{"change":"insert","id":9,"to":[2,0]}],"counts":[2,1,1,2,3]}"#
        )
        #expect(watch.stop() == 0)
        #expect(fixture.databaseFiles() == ["school.sqlite"])
        #expect(try fixture.sql("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == "0")
    }

    @Test func trackInstallsHistoryTriggersThatUntrackRemoves() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let watch = try Watch(fixture, [fixture.school, "--table", "student", "--track"])
        _ = try watch.waitForLines(1)
        #expect(try fixture.sql("SELECT count(*) FROM sqlite_master WHERE name = 'fetchedtable_history'") == "1")
        #expect(try fixture.sql("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == "3")
        try fixture.sql("BEGIN; UPDATE student SET number = 9 WHERE id = 2; DELETE FROM student WHERE id = 3; COMMIT")
        let lines = try watch.waitForLines(2)
        #expect(lines[1].contains(#"{"change":"delete","id":3,"from":[0,2]}"#), "\(lines)")
        #expect(watch.stop() == 0)
        let untrack = try fixture.run(["untrack", fixture.school])
        #expect(untrack.status == 0, "\(untrack.standardError)")
        #expect(
            try fixture.sql(
                "SELECT count(*) FROM sqlite_master WHERE name = 'fetchedtable_history' OR type = 'trigger'"
            ) == "0"
        )
        #expect(try fixture.sql("SELECT count(*) FROM student") == "7")
    }
}
