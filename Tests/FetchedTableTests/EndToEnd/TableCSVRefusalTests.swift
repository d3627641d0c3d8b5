import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The CSV side's refusals and fallbacks through the built binary: streams refused at once,
/// a cache folder that cannot be written replaced by a temporary one (said once, no Foundation
/// dump), a file with more columns than a table can have named with the limit.
@Suite(.enabled(if: TableFixture.isAvailable, Comment(rawValue: TableFixture.unavailableReason ?? "")))
struct TableCSVRefusalTests {
    static let timeout = ProcessRunner.which("timeout")

    /// `fetchedtable arguments` under `timeout -s KILL 30` (a hang is a failure, not a stuck test run).
    func run(_ fixture: TableFixture, _ arguments: [String], input: String? = nil) throws -> ProcessResult {
        let timeout = try #require(TableCSVRefusalTests.timeout, "the timeout command (coreutils) is needed")
        let binary = try #require(TableFixture.binary)
        return try ProcessRunner.run(
            timeout,
            ["-s", "KILL", "30", binary] + arguments,
            input: input,
            environment: fixture.environment
        )
    }

    @Test func aFIFOIsRefusedAtOnceAsNotARegularFile() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let fifo = fixture.directory.appendingPathComponent("ff").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try run(fixture, ["list", fifo])
        #expect(result.status == 66, "\(result.status): \(result.standardError)")
        #expect(result.standardError.contains("ff: not a regular file (a pipe)"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test func aPipedStandardInputIsRefusedRatherThanReadAsEmpty() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let result = try run(fixture, ["list", "/dev/stdin", "--format", "json"], input: "a,b\n1,2\n")
        #expect(result.status == 66, "\(result.status): \(result.standardError)")
        #expect(result.standardError.contains("/dev/stdin: not a regular file"), "\(result.standardError)")
        #expect(!result.standardError.contains("empty"))
    }

    @Test func aCacheFolderThatCannotBeWrittenFallsBackToATemporaryOneAndSaysSoOnce() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write("events.csv", "id,name\n1,alpha\n")
        // A file where the cache folder should be (the folder cannot be made there).
        try FileManager.default.createDirectory(atPath: fixture.cache, withIntermediateDirectories: true)
        try fixture.write("cache/fetchedtable", "not a folder")
        let temporary = fixture.directory.appendingPathComponent("tmp").path
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        var environment = fixture.environment
        environment["TMPDIR"] = temporary
        let binary = try #require(TableFixture.binary)
        let result = try ProcessRunner.run(binary, ["list", csv, "--format", "csv"], environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "section,_rowid,id,name\n,1,1,alpha\n")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "said once: \(result.standardError)")
        #expect(result.standardError.contains("cache/fetchedtable"), "names the folder: \(result.standardError)")
        #expect(result.standardError.contains(temporary + "/fetchedtable-cache-"), "\(result.standardError)")
        #expect(!result.standardError.contains("NSCocoaErrorDomain") && !result.standardError.contains("UserInfo"))
        let again = try ProcessRunner.run(binary, ["list", csv, "--format", "csv"], environment: environment)
        #expect(again.standardOutput == result.standardOutput)
    }

    @Test func aFileWithMoreColumnsThanATableCanHaveSaysTheLimitAndNamesTheFile() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let header = (1...10_000).map { "c\($0)" }.joined(separator: ",")
        let row = (1...10_000).map { "\($0)" }.joined(separator: ",")
        let csv = try fixture.write("wide.csv", header + "\n" + row + "\n")
        let result = try run(fixture, ["list", csv])
        #expect(result.status == 65, "\(result.status): \(result.standardError)")
        #expect(result.standardError.contains("wide.csv:1:"), "\(result.standardError)")
        #expect(result.standardError.contains("10000 columns"), "\(result.standardError)")
        #expect(result.standardError.contains("2000"), "the limit: \(result.standardError)")
        #expect(!result.standardError.contains(".tmp-"), "not the cache's temporary file: \(result.standardError)")
    }
}
