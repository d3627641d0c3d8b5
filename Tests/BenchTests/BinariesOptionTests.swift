import Foundation
import TestSupport
import Testing

/// `bench --binaries DIR`, through the built `bench`: the `failedbanks` and `fetchedtable` it
/// measures are DIR's (an installed package's `/usr/bin`, or a staging root's `usr/bin`), and a
/// folder without them is refused naming the folder and what is missing.
@Suite(.enabled(if: CompareTests.binary != nil, Comment(rawValue: BuiltProgram.missingReason("bench"))))
struct BinariesOptionTests {
    /// A staging root whose `usr/bin` holds stand-in programs that write their arguments to `calls`
    /// and fail (so bench notes the figure unmeasured and measures nothing for long).
    static func stagingRoot(programs: [String]) throws -> URL {
        let root = TemporaryDirectory.create("bench-binaries")
        let bin = root.appendingPathComponent("usr/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for program in programs {
            let path = bin.appendingPathComponent(program).path
            let script = "#!/bin/sh\necho \"\(program) $*\" >> '\(root.path)/calls'\nexit 1\n"
            try script.write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        return root
    }

    @Test func theFailedbanksMeasuredIsTheOneInTheFolderGiven() throws {
        let root = try Self.stagingRoot(programs: ["failedbanks", "fetchedtable"])
        defer { try? FileManager.default.removeItem(at: root) }
        let bench = try #require(CompareTests.binary)
        let result = try ProcessRunner.run(
            bench,
            ["--binaries", root.path, "--only", "import", "--rows", "100", "--run-scale", "0.1"]
        )
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let calls = try String(contentsOfFile: root.path + "/calls", encoding: .utf8)
        #expect(calls.hasPrefix("failedbanks import "), "calls: \(calls)")
        #expect(result.standardError.contains("measuring \(root.path)/usr/bin/failedbanks"), "\(result.standardError)")
    }

    /// `--only csv1m_ready_ratio` measures the CSV part of the generic group alone: the CSV is made, the
    /// table of the group's other parts is not (at 10M rows it takes minutes to build).
    @Test func theCSVKeysAloneRunTheCSVPartWithoutBuildingTheTable() throws {
        let root = try Self.stagingRoot(programs: ["failedbanks", "fetchedtable"])
        defer { try? FileManager.default.removeItem(at: root) }
        let bench = try #require(CompareTests.binary)
        let cache = root.appendingPathComponent("cache").path
        let result = try ProcessRunner.run(
            bench,
            [
                "--binaries", root.path, "--only", "csv1m_ready_ratio", "--table-rows", "1000", "--run-scale", "0.1",
                "--cache", cache,
            ]
        )
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(files.contains { $0.hasSuffix(".csv") }, "cache: \(files)")
        #expect(!files.contains { $0.hasSuffix(".sqlite") }, "cache: \(files)")
        let calls = try String(contentsOfFile: root.path + "/calls", encoding: .utf8)
        #expect(calls.hasPrefix("fetchedtable ") && calls.contains(".csv --sort"), "calls: \(calls)")
    }

    @Test func aFolderWithoutTheProgramsIsRefusedNamingWhatIsMissing() throws {
        let root = try Self.stagingRoot(programs: ["failedbanks"])
        defer { try? FileManager.default.removeItem(at: root) }
        let bench = try #require(CompareTests.binary)
        let result = try ProcessRunner.run(bench, ["--binaries", root.path + "/usr/bin", "--only", "import"])
        #expect(result.status == 64)
        #expect(
            result.standardError.contains("--binaries \(root.path)/usr/bin: no executable fetchedtable there"),
            "\(result.standardError)"
        )
        #expect(!FileManager.default.fileExists(atPath: root.path + "/calls"))
    }
}
