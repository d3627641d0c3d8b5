import Foundation
import Testing

/// The command line's edges, run against the built executable.
@Suite(.enabled(if: BrowserFixture.binary != nil, "no built failedbanks (run 'swift build' first, or set FAILEDBANKS_BIN)"))
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
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fb-notty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("banks.sqlite").path
        let result = try ProcessRunner.run(binary, ["--db", database])
        #expect(result.status == 1)
        #expect(result.standardError.contains("terminal"))
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: database), "a refused launch creates no store")
    }
}
