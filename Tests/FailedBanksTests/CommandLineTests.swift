import Foundation
import TestSupport
import Testing

/// The command line's edges, run against the built executable.
@Suite(
    .enabled(if: BrowserFixture.binary != nil, "no built failedbanks (run 'swift build' first, or set FAILEDBANKS_BIN)")
)
struct CommandLineTests {
    let binary = BrowserFixture.binary ?? "/nonexistent"

    @Test func versionPrintsProgramAndVersion() throws {
        let result = try ProcessRunner.run(binary, ["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("failedbanks "))
    }

    @Test func helpListsTheBrowserOptionsAndTheSubcommands() throws {
        let result = try ProcessRunner.run(binary, ["--help"])
        #expect(result.status == 0)
        for word in ["--db PATH", "--sort", "--no-animation", "--version", "import", "list", "watch"] {
            #expect(result.standardOutput.contains(word), "\(word)")
        }
    }

    @Test func unknownCommandIsAUsageError() throws {
        let result = try ProcessRunner.run(binary, ["frobnicate"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("unknown command 'frobnicate'"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func badSortOrderIsAUsageError() throws {
        let result = try ProcessRunner.run(binary, ["--sort", "zip"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--sort"))
    }

    @Test func browserWithoutATerminalSaysSoAndWritesNothingToStdout() throws {
        let directory = TemporaryDirectory("fb-notty")
        defer { directory.remove() }
        let database = directory.path("banks.sqlite")
        let result = try ProcessRunner.run(binary, ["--db", database])
        #expect(result.status == 1)
        #expect(result.standardError.contains("terminal"))
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: database), "a refused launch creates no store")
    }

    /// A temporary directory for one test.
    private func scratch() throws -> URL {
        TemporaryDirectory.create("fb-cli")
    }

    private func refuses(_ path: String, saying words: String) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try ProcessRunner.run(binary, ["--db", path])
        #expect(result.status == 65, "sysexits EX_DATAERR")
        #expect(result.standardError.contains(words), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "one line: \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file is left untouched")
        let siblings = try FileManager.default.contentsOfDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path
        )
        #expect(!siblings.contains { $0.hasSuffix("-wal") || $0.hasSuffix("-journal") }, "\(siblings)")
    }

    @Test func aFileThatIsNotSQLiteIsRefusedUntouched() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("notes.sqlite").path
        try Data("Bank Name,City\nnot a database\n".utf8).write(to: URL(fileURLWithPath: path))
        try refuses(path, saying: "not a SQLite database")
    }

    @Test(.enabled(if: BrowserFixture.sqlite3 != nil, "the sqlite3 shell is not installed"))
    func aStoreFromANewerVersionIsRefusedUntouched() throws {
        let sqlite3 = try #require(BrowserFixture.sqlite3)
        let csv = try #require(BrowserFixture.sourceCSV, "Data/banklist.csv is missing")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("banks.sqlite").path
        let created = try ProcessRunner.run(binary, ["import", csv, "--db", path, "--quiet"])
        #expect(created.status == 0)
        try ProcessRunner.run(sqlite3, [path, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 99;"])
        try refuses(path, saying: "newer failedbanks")
    }

    @Test func anotherApplicationsDatabaseIsRefusedUntouched() throws {
        let source = BrowserFixture.packageRoot.appendingPathComponent(
            "Tests/Fixtures/FailedBanksCD_2011_coredata.sqlite"
        )
        try #require(FileManager.default.fileExists(atPath: source.path), "\(source.path) is missing")
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("coredata.sqlite").path
        try FileManager.default.copyItem(atPath: source.path, toPath: path)
        try refuses(path, saying: "another application")
    }

    @Test func subcommandsAreDispatched() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("banks.sqlite").path
        let csv = try #require(BrowserFixture.sourceCSV, "Data/banklist.csv is missing")
        #expect(try ProcessRunner.run(binary, ["import", csv, "--db", path, "--quiet"]).status == 0)
        #expect(
            try ProcessRunner.run(binary, ["list", "--db", path, "--format", "json"]).standardOutput.contains(
                "sections"
            )
        )
        #expect(try ProcessRunner.run(binary, ["import", "--help"]).standardOutput.contains("failedbanks import"))
        #expect(try ProcessRunner.run(binary, ["watch", "--help"]).standardOutput.contains("failedbanks watch"))
        #expect(try ProcessRunner.run(binary, ["help", "list"]).standardOutput.contains("failedbanks list"))
    }
}
