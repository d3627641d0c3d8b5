import Foundation
import TestSupport
import Testing

/// The built `fetchedtable` against a throwaway PostgreSQL server, without a terminal:
/// the exit statuses of every refusal (69 nothing listening, 77 credentials refused,
/// 64 an unknown table or column, naming those there are), `--pg` through libpq's
/// environment, and no password shown anywhere.
@Suite(.enabled(if: PostgresFixture.isAvailable, Comment(rawValue: PostgresFixture.unavailableReason ?? "")))
struct PostgresCommandLineTests {
    static let schema = """
        CREATE TABLE student (id bigint PRIMARY KEY, name text NOT NULL, subject text, number int);
        CREATE TABLE teacher (name text, room int);
        CREATE VIEW math AS SELECT * FROM student WHERE subject = 'Math';
        INSERT INTO student VALUES (1, 'Ada', 'Math', 3), (2, 'Brook', 'Art', 1), (3, 'Cyril', 'Math', 1);
        """

    @Test func nothingListeningIs69WithLibpqsMessage() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        let nowhere = fixture.directory.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let url = "postgresql://someone:hunter2@\(nowhere):5999/shop"
        for arguments in [["list", url, "--table", "t"], [url], ["watch", url], ["untrack", url, "--table", "t"]] {
            let result = try fixture.run(arguments)
            #expect(result.status == 69, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains("cannot connect to postgresql://someone@"), "\(result.standardError)")
            #expect(
                result.standardError.contains("No such file or directory"),
                "libpq's words: \(result.standardError)"
            )
            #expect(!result.standardError.contains("hunter2"), "\(result.standardError)")
            #expect(result.standardError.contains("~/.pgpass") && result.standardError.contains("PGPASSWORD"))
            #expect(result.standardError.split(separator: "\n").count == 2, "a warning and the error")
        }
    }

    @Test func aRefusedPasswordIs77AndNeverShown() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        let role = "alice_\(fixture.database)"
        try fixture.psql("CREATE ROLE \(role) LOGIN PASSWORD 'right-horse' IN ROLE \(PostgresTestServer.passwordRole)")
        let url = fixture.uri(user: role, password: "wrong-battery")
        let result = try fixture.run(["list", url, "--table", "student"])
        #expect(result.status == 77, "\(result.standardError)")
        #expect(result.standardError.contains("refused the credentials"), "\(result.standardError)")
        #expect(result.standardError.contains("password authentication failed"), "\(result.standardError)")
        #expect(!result.standardError.contains("wrong-battery"), "\(result.standardError)")
        let warning = try #require(result.standardError.split(separator: "\n").first)
        #expect(warning.contains("~/.pgpass") && warning.contains("PGPASSWORD"), "\(warning)")
        // Through --pg and PGPASSWORD: the same refusal, no warning (nothing visible in ps).
        var environment = fixture.pgEnvironment(user: role)
        environment["PGPASSWORD"] = "wrong-battery"
        let viaEnvironment = try fixture.run(["list", "--pg", "--table", "student"], environment: environment)
        #expect(viaEnvironment.status == 77, "\(viaEnvironment.standardError)")
        #expect(!viaEnvironment.standardError.contains("wrong-battery"))
        #expect(viaEnvironment.standardError.split(separator: "\n").count == 1, "\(viaEnvironment.standardError)")
    }

    @Test func unknownTablesAndColumnsAre64NamingTheOnesThereAre() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresCommandLineTests.schema)
        let url = fixture.uri
        let cases: [(arguments: [String], says: String)] = [
            (
                ["list", url, "--table", "pupil"],
                "no table \"pupil\" in \(url); its tables: math (view), student, teacher"
            ),
            (["list", "--pg", "--table", "pupil"], "its tables: math (view), student, teacher"),
            ([url, "--table", "pupil"], "its tables: math (view), student, teacher"),
            (["watch", url, "--table", "pupil"], "its tables: math (view), student, teacher"),
            (["untrack", url, "--table", "pupil"], "its tables: math (view), student, teacher"),
            (["list", url], "has 3 tables; choose one with --table (its tables: math (view), student, teacher)"),
            (
                ["list", url, "--table", "student", "--sort", "grade desc"],
                "--sort: no column \"grade\" in table \"student\"; its columns: id, name, subject, number"
            ),
            (["list", "--pg", "--table", "student", "--section", "grade"], "its columns: id, name, subject, number"),
            (["list", url, "--table", "student", "--where", "grade > 2"], "--where: no column \"grade\""),
            (["list", url, "--table", "student", "--title", "grade"], "--title: no column \"grade\""),
            (["list", "--pg", url, "--table", "student"], "--pg connects through libpq's environment"),
            (["list", url, "--table", "student", "--track", "--read-only"], "cannot go with --read-only"),
        ]
        for (arguments, says) in cases {
            let result = try fixture.run(arguments, environment: fixture.pgEnvironment())
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(says), "\(arguments): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "one line: \(result.standardError)")
        }
    }

    @Test func trackNeedsAPrimaryKeyAndNamesThePrivilegeARoleLacks() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresCommandLineTests.schema)
        let reader = "reader_\(fixture.database)"
        try fixture.psql(
            "CREATE ROLE \(reader) LOGIN; GRANT SELECT ON student, teacher, math TO \(reader); "
                + "REVOKE CREATE ON SCHEMA public FROM PUBLIC; CREATE VIEW rooms AS SELECT room FROM teacher"
        )
        let before = try fixture.server.schemaDump(database: fixture.database)
        let refused = try fixture.run(["watch", fixture.uri(user: reader), "--table", "student", "--track"])
        #expect(refused.status == 77, "\(refused.standardError)")
        #expect(
            refused.standardError.contains("the role \(reader) may not install the history triggers on student"),
            "\(refused.standardError)"
        )
        #expect(refused.standardError.contains("CREATE on schema public and TRIGGER on student"))
        let noKey = try fixture.run(["watch", fixture.uri, "--table", "teacher", "--track"])
        #expect(noKey.status == 64, "\(noKey.standardError)")
        #expect(noKey.standardError.contains("teacher has no primary key"), "\(noKey.standardError)")
        // A view is tracked through its tables: one that reads no table with a primary key cannot be.
        let view = try fixture.run(["watch", fixture.uri, "--table", "rooms", "--track"])
        #expect(view.status == 64, "\(view.standardError)")
        #expect(
            view.standardError.contains("the view rooms reads no table with a primary key (teacher)"),
            "\(view.standardError)"
        )
        #expect(try fixture.server.schemaDump(database: fixture.database) == before, "nothing was installed")
    }

    @Test func aKeywordValueConnectionStringIsAServerAndItsPasswordIsNeverShown() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresCommandLineTests.schema)
        let server = "host=\(fixture.server.socketDirectory) port=\(fixture.server.port)"
        let listed = try fixture.run([
            "list", "\(server) dbname=\(fixture.database) user=postgres", "--table", "student",
        ])
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.standardOutput.contains("Ada") && listed.standardOutput.contains("Cyril"))
        // Nothing listens there: libpq's refusal, with the string named without its password.
        let nowhere = "host=\(fixture.directory.path) port=5999 password=hunter2 dbname=shop"
        let refused = try fixture.run(["list", nowhere, "--table", "t"])
        #expect(refused.status == 69, "\(refused.standardError)")
        #expect(refused.standardError.contains("cannot connect to host="), "\(refused.standardError)")
        #expect(!refused.standardError.contains("hunter2"), "\(refused.standardError)")
        // A string libpq does not read (a keyword it does not know) is a file, and still no password is shown.
        let unread = try fixture.run(["list", "password='hunter 2' databse=shop", "--table", "t"])
        #expect(unread.status == 66, "\(unread.standardError)")
        #expect(unread.standardError.contains("no such file"), "\(unread.standardError)")
        #expect(!unread.standardError.contains("hunter"), "\(unread.standardError)")
    }

    @Test func listRefusesTrackInsteadOfIgnoringIt() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresCommandLineTests.schema)
        let before = try fixture.server.schemaDump(database: fixture.database)
        let result = try fixture.run(["list", fixture.uri, "--table", "student", "--track"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(
            result.standardError.contains("--track: list prints the rows once and installs nothing; use watch --track"),
            "\(result.standardError)"
        )
        #expect(result.standardOutput.isEmpty)
        #expect(try fixture.server.schemaDump(database: fixture.database) == before, "nothing was installed")
    }

    @Test func theCacheCommandListsTheCopiesAndTheLimitAndClearRemoveThem() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresCommandLineTests.schema)
        for table in ["student", "teacher"] {
            let listed = try fixture.run(["list", fixture.uri, "--table", table])
            #expect(listed.status == 0, "\(listed.standardError)")
        }
        let listed = try fixture.run(["cache"])
        #expect(listed.status == 0, "\(listed.standardError)")
        let lines = listed.standardOutput.split(separator: "\n")
        #expect(lines.count == 3, "\(listed.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("public.student") } && lines.contains { $0.hasPrefix("public.teacher") })
        #expect(lines.last?.hasPrefix("2 copies, ") == true, "\(listed.standardOutput)")
        // A session with a tiny bound removes the copies no session uses before it copies its own.
        let bounded = try fixture.run(["list", fixture.uri, "--table", "math", "--cache-limit", "1"])
        #expect(bounded.status == 0, "\(bounded.standardError)")
        let after = try fixture.run(["cache"]).standardOutput.split(separator: "\n")
        #expect(after.count == 2 && after[0].hasPrefix("public.math"), "\(after)")
        let cleared = try fixture.run(["cache", "--clear"])
        #expect(
            cleared.standardOutput
                == "removed 1 copy (\(after[0].split(separator: " ", omittingEmptySubsequences: true)[1]) \(after[0].split(separator: " ", omittingEmptySubsequences: true)[2]))\n"
        )
        #expect(try fixture.run(["cache"]).standardOutput.hasPrefix("0 copies, 0 bytes, in "))
        let wrong = try fixture.run(["cache", "--cache-limit", "lots"])
        #expect(wrong.status == 64 && wrong.standardError.contains("--cache-limit: \"lots\" is not a size"))
    }
}
