import Foundation
import TestSupport
import Testing

/// `--table` completion over a PostgreSQL server: the hidden `fetchedtable complete-tables`
/// lists the server's tables and views for a URL and for `--pg`, and the generated bash
/// completion passes `--pg` to it as it passes a FILE, and a URL whole (bash splits it at `:`).
@Suite(.enabled(if: PostgresFixture.isAvailable, Comment(rawValue: PostgresFixture.unavailableReason ?? "")))
struct PostgresCompletionTests {
    static let schema = """
        CREATE TABLE student (id bigint PRIMARY KEY, name text);
        CREATE TABLE teacher (name text);
        CREATE VIEW seniors AS SELECT * FROM student;
        CREATE SCHEMA archive;
        CREATE TABLE archive.old (id int);
        """

    @Test func completeTablesListsTheServersTablesForAURLAndForDashDashPg() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresCompletionTests.schema)
        let viaURL = try fixture.run(["complete-tables", fixture.uri])
        #expect(viaURL.status == 0, "\(viaURL.standardError)")
        #expect(viaURL.standardOutput == "seniors\nstudent\nteacher\n")
        let viaEnvironment = try fixture.run(["complete-tables", "--pg"], environment: fixture.pgEnvironment())
        #expect(viaEnvironment.status == 0, "\(viaEnvironment.standardError)")
        #expect(viaEnvironment.standardOutput == viaURL.standardOutput)
        // A table of another schema on the search path is offered too.
        try fixture.psql("ALTER DATABASE \(fixture.database) SET search_path = public, archive")
        let qualified = try fixture.run(["complete-tables", fixture.uri])
        #expect(qualified.standardOutput.split(separator: "\n").contains("old"), "\(qualified.standardOutput)")
    }

    @Test func completeTablesPrintsNothingWhenNothingListens() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        let nowhere = fixture.directory.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let result = try fixture.run(["complete-tables", "postgresql://someone:hunter2@\(nowhere):5999/shop"])
        #expect(result.status == 69, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(!result.standardError.contains("hunter2"))
    }

    @Test(.enabled(if: ProcessRunner.which("bash") != nil, "bash is not installed"))
    func bashCompletesTableNamesAfterDashDashPgAndAfterAURL() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresCompletionTests.schema)
        let binary = try #require(TableFixture.binary)
        let generated = try fixture.run(["--generate", "bash"])
        #expect(generated.status == 0, "\(generated.standardError)")
        let completion = fixture.directory.appendingPathComponent("fetchedtable.bash")
        try generated.standardOutput.write(to: completion, atomically: true, encoding: .utf8)
        let script = """
            source "$1"
            offer() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _fetchedtable; echo "$*=>${COMPREPLY[*]}"; }
            offer fetchedtable --pg --table ''
            offer fetchedtable list --pg --table s
            offer fetchedtable --pg --read-only --table t
            offer fetchedtable $2 --table ''
            """
        // The URL as bash's COMP_WORDS holds it: split at each colon, the colons words of their own.
        let urlWords = fixture.uri.split(separator: ":", omittingEmptySubsequences: false).joined(separator: " : ")
        var environment = fixture.environment.merging(fixture.pgEnvironment()) { $1 }
        environment["PATH"] = (binary as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "")
        let result = try ProcessRunner.run(
            try #require(ProcessRunner.which("bash")),
            ["-c", script, "bash", completion.path, urlWords],
            environment: environment
        )
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("fetchedtable --pg --table =>seniors student teacher"), "\(lines)")
        #expect(lines.contains("fetchedtable list --pg --table s=>seniors student"), "\(lines)")
        #expect(lines.contains("fetchedtable --pg --read-only --table t=>teacher"), "\(lines)")
        #expect(lines.contains("fetchedtable \(urlWords) --table =>seniors student teacher"), "\(lines)")
    }

    @Test(.enabled(if: ProcessRunner.which("fish") != nil, "fish is not installed"))
    func fishCompletesTableNamesAfterDashDashPg() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresCompletionTests.schema)
        let binary = try #require(TableFixture.binary)
        let generated = try fixture.run(["--generate", "fish"])
        #expect(generated.status == 0, "\(generated.standardError)")
        let completion = fixture.directory.appendingPathComponent("fetchedtable.fish")
        try generated.standardOutput.write(to: completion, atomically: true, encoding: .utf8)
        var environment = fixture.environment.merging(fixture.pgEnvironment()) { $1 }
        environment["PATH"] = (binary as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "")
        let result = try ProcessRunner.run(
            try #require(ProcessRunner.which("fish")),
            ["--no-config", "-c", "source $argv[1]; complete -C 'fetchedtable list --pg --table '", completion.path],
            environment: environment
        )
        #expect(result.status == 0, "\(result.standardError)")
        // Each line is a candidate, a tab, and the option's help.
        let names = result.standardOutput.split(separator: "\n").map { $0.split(separator: "\t").first ?? "" }
        #expect(names == ["seniors", "student", "teacher"], "\(result.standardOutput)")
    }
}
