import CLIKit
import Foundation
import PostgreSQLReplica
import Testing

@testable import FetchedTableKit

/// A server named on the command line — a URL or `--pg` — parsed through the same
/// command tables as a file, its password never in what is shown, and row counts as the
/// table list writes them.
@Suite struct PostgresOptionsTests {
    func options(_ arguments: [String], spec: CommandSpec = TableOptions.browserSpec) throws -> TableOptions {
        try TableOptions(parseArguments(arguments, spec: spec))
    }

    @Test func aURLOfEitherSchemeNamesAServerAndItsParametersGoToLibpqUnchanged() throws {
        let url = "postgres://alice@db.example:5433/shop?sslmode=require&connect_timeout=3"
        let parsed = try options([url, "--table", "orders"])
        #expect(parsed.postgres == PostgresTarget(connectionString: url))
        #expect(parsed.file == url)
        #expect(parsed.table == "orders")
        #expect(try options(["postgresql://db/shop"]).postgres?.connectionString == "postgresql://db/shop")
        #expect(try options(["school.sqlite"]).postgres == nil)
        #expect(try options(["postgres.sqlite"]).postgres == nil, "a file named postgres… is a file")
    }

    @Test func dashDashPgTakesThePlaceOfFileInEveryCommand() throws {
        for spec in [TableOptions.browserSpec, TableOptions.listSpec, TableOptions.watchSpec, TableOptions.untrackSpec]
        {
            let parsed = try options(["--pg", "--table", "events"], spec: spec)
            #expect(parsed.postgres == PostgresTarget(connectionString: nil), "\(spec.name)")
            #expect(parsed.file == "--pg")
            #expect(throws: OptionError.self) { try options(["--pg", "x.sqlite"], spec: spec) }
            #expect(throws: OptionError.self, "no FILE, URL or --pg") { try options([], spec: spec) }
            #expect(spec.helpText.contains("--pg"), "\(spec.name)'s help names --pg")
            #expect(spec.usage.hasPrefix("FILE|URL|--pg"))
            #expect(spec.arguments == .file, "Tab completes a file, not the words FILE, URL and --pg")
        }
    }

    @Test func aPasswordIsNeverInTheLabelAndIsWarnedAboutOnce() throws {
        let url = "postgresql://alice:s3cret%21@db/shop?sslmode=require"
        let parsed = try options([url])
        #expect(parsed.file == "postgresql://alice@db/shop?sslmode=require")
        #expect(!(parsed.postgres?.label.contains("s3cret") ?? true))
        let warning = try #require(parsed.postgres?.passwordWarning)
        #expect(warning.contains("~/.pgpass") && warning.contains("PGPASSWORD") && !warning.contains("\n"))
        #expect(PostgresTarget(connectionString: "postgres://alice@db/shop").passwordWarning == nil)
        #expect(PostgresTarget(connectionString: nil).passwordWarning == nil)
        let redacted = PostgresTarget(connectionString: url).redacted("password for s3cret! failed at \(url)")
        #expect(!redacted.contains("s3cret"), "\(redacted)")
    }

    @Test func rowCountsAreExactWhenCountedAndAbbreviatedWhenEstimated() {
        #expect(PostgresServer.rowCountText(.exact(1)) == "1 row")
        #expect(PostgresServer.rowCountText(.exact(12_345)) == "12345 rows")
        #expect(PostgresServer.rowCountText(.estimated(1_234_567)) == "~1.2M rows")
        #expect(PostgresServer.rowCountText(.estimated(12_400_000)) == "~12M rows")
        #expect(PostgresServer.rowCountText(.estimated(340_200)) == "~340k rows")
        #expect(PostgresServer.rowCountText(.estimated(1_000_000)) == "~1M rows")
        #expect(PostgresServer.rowCountText(.estimated(999_999)) == "~1M rows")
        #expect(PostgresServer.rowCountText(.estimated(950)) == "~950 rows")
        #expect(PostgresServer.rowCountText(.estimated(2_500_000_000)) == "~2.5G rows")
    }

    @Test func theManPageAndCompletionsNameThePostgreSQLWays() {
        let man = ManPage(program: FetchedTableCommand.program).text
        #expect(man.contains("PGHOST") && man.contains("pgpass") && man.contains("postgres://"))
    }

    @Test func theStatusLineSaysReconnectingWithTheTimeSinceTheLastContactAndTheLastError() {
        let since = Date(timeIntervalSince1970: 1_000)
        let text = PostgresConnectionState.statusText(
            .reconnecting(since: since, lastError: "server closed the connection\n\tunexpectedly"),
            now: since.addingTimeInterval(12.4)
        )
        #expect(text == "Reconnecting… (12s since last contact): server closed the connection; unexpectedly")
        let refused = PostgresConnectionState.statusText(
            .refused(since: since, reason: "permission denied for table events", advice: "GRANT SELECT again")
        )
        #expect(refused == "The server refuses: permission denied for table events — GRANT SELECT again")
        #expect(PostgresConnectionState.statusText(.live) == nil)
        let state = PostgresConnectionState()
        #expect(!state.record(.live), "connected at first is no news")
        #expect(state.record(.reconnecting(since: since, lastError: "x")))
        #expect(state.record(.live), "back after being lost is news")
        #expect(!state.record(.live))
    }

    @Test func eachStatusHasOneLineOfItsOwn() {
        let since = Date(timeIntervalSince1970: 1_000)
        let now = since.addingTimeInterval(12.4)
        let notLive = ReplicaStatus.notLive(reason: "it reads the function now()", checkedAt: since)
        let untracked = ReplicaStatus.untracked(reason: "the change history was removed (untrack)")
        #expect(PostgresConnectionState.statusText(notLive, now: now) == nil)
        #expect(PostgresConnectionState.statusText(untracked, now: now) == nil)
        #expect(
            PostgresConnectionState.notLiveText(notLive, now: now)
                == "Not live: it reads the function now(); checked 12s ago"
        )
        let others: [ReplicaStatus] = [
            .live, untracked, .reconnecting(since: since, lastError: "gone"),
            .refused(since: since, reason: "no", advice: "ask"), .tableChanged(reason: "a column renamed"),
        ]
        #expect(others.allSatisfy { PostgresConnectionState.notLiveText($0, now: now) == nil })
        #expect(
            PostgresConnectionState.statusText(.tableChanged(reason: "a column renamed"))
                == "Copying again: a column renamed"
        )
        let state = PostgresConnectionState()
        #expect(state.record(notLive), "not live is news the first time")
        #expect(!state.record(notLive))
        #expect(state.record(.refused(since: since, reason: "no", advice: "ask")))
        #expect(state.record(notLive), "not live again after a refusal is news")
        #expect(state.record(untracked))
        #expect(state.takeNotice() == "The change history was removed (untrack)")
        #expect(state.takeNotice() == nil, "said once")
    }
}
