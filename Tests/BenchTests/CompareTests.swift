import Foundation
import TestSupport
import Testing

/// `bench --compare BEFORE.json AFTER.json`, through the built `bench`: every
/// shared key with its change; a ratio more than 10 % worse is flagged and
/// makes the exit status 1.
@Suite struct CompareTests {
    /// The `bench` built beside this test bundle (``BuiltProgram``), or `$BENCH_BIN`.
    static let binary = BuiltProgram.path("bench")

    /// Writes the two runs into a new folder and runs `bench --compare` on them.
    static func compare(_ before: String, _ after: String) throws -> ProcessResult {
        let folder = TemporaryDirectory("bench-compare")
        defer { folder.remove() }
        try before.write(toFile: folder.path("before.json"), atomically: true, encoding: .utf8)
        try after.write(toFile: folder.path("after.json"), atomically: true, encoding: .utf8)
        let bench = try #require(binary, "\(BuiltProgram.missingReason("bench"))")
        return try ProcessRunner.run(bench, ["--compare", folder.path("before.json"), folder.path("after.json")])
    }

    static func line(_ output: String, key: String) -> String? {
        output.split(separator: "\n").map(String.init).first { $0.hasPrefix(key + " ") }
    }

    @Test(.enabled(if: binary != nil, Comment(rawValue: BuiltProgram.missingReason("bench"))))
    func aRatioMoreThanATenthWorseIsFlaggedAndFailsTheRun() throws {
        let result = try Self.compare(
            #"{"rows": 1000000, "fetch_s": 0.6, "fetch_ratio": 1.16, "import_ratio": 1.0, "change1000_speedup": 118, "scroll_bytes": 830, "only_before": 1}"#,
            #"{"rows": 1000000, "fetch_s": 1.8, "fetch_ratio": 1.45, "import_ratio": 1.05, "change1000_speedup": 100, "scroll_bytes": 830, "only_after": 2}"#
        )
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        let out = result.standardOutput
        // The ratio 25 % worse and the speedup 15 % lower are flagged; 5 % is within the tolerance.
        #expect(Self.line(out, key: "fetch_ratio")?.contains("+25.0 %") == true)
        #expect(Self.line(out, key: "fetch_ratio")?.contains("WORSE") == true)
        #expect(Self.line(out, key: "change1000_speedup")?.contains("WORSE") == true)
        #expect(Self.line(out, key: "import_ratio")?.contains("WORSE") == false)
        // A time tripled is shown but not judged: between runs it moves with the machine.
        #expect(Self.line(out, key: "fetch_s")?.contains("+200.0 %") == true)
        #expect(Self.line(out, key: "fetch_s")?.contains("WORSE") == false)
        #expect(Self.line(out, key: "only_before") == nil && Self.line(out, key: "only_after") == nil)
        #expect(out.contains("2 of 3 ratios worsened by more than 10 %: fetch_ratio, change1000_speedup"))
    }

    @Test(.enabled(if: binary != nil, Comment(rawValue: BuiltProgram.missingReason("bench"))))
    func noRatioWorseIsExitStatusZeroAndNullsAreShown() throws {
        let result = try Self.compare(
            #"{"rows": 10000, "fetch_ratio": 1.4, "csv1m_ready_ratio": null, "page_down_ms": 1.1}"#,
            #"{"rows": 10000, "fetch_ratio": 1.1, "csv1m_ready_ratio": 0.6, "page_down_ms": 0.9}"#
        )
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(Self.line(result.standardOutput, key: "fetch_ratio")?.contains("-21.4 %") == true)
        #expect(Self.line(result.standardOutput, key: "csv1m_ready_ratio")?.contains("null") == true)
        #expect(result.standardOutput.contains("no ratio of 2 worsened by more than 10 %"))
    }

    @Test(.enabled(if: binary != nil, Comment(rawValue: BuiltProgram.missingReason("bench"))))
    func aFileThatIsNotARunIsRefusedNamingIt() throws {
        let result = try Self.compare("not json", #"{"rows": 1}"#)
        #expect(result.status == 66)
        #expect(result.standardError.contains("before.json is not JSON"))
        let usage = try ProcessRunner.run(try #require(Self.binary), ["--compare", "only-one.json"])
        #expect(usage.status == 64)
        #expect(usage.standardError.contains("BEFORE.json AFTER.json"))
    }
}
