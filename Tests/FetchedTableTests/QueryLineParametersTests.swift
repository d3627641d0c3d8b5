import CLIKit
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedTableKit

/// The `:` line's parameters: the launch's `--param` values of the names a query names, bound;
/// a name without a value refused naming `--param`; `--param` without `--query` taken by the
/// browser (whose `:` line it serves), still refused by `list` and `watch`.
@Suite struct QueryLineParametersTests {
    @Test func aLineQueryIsGivenTheLaunchValuesOfTheNamesItNamesOnly() throws {
        let given = try QuerySource.lineParameters(["least": "2", "city": "Oslo"], named: ["least"])
        #expect(given == ["least": "2"])
        #expect(try QuerySource.lineParameters(["least": "2"], named: []) == [:])
    }

    @Test func aNameWithoutAValueIsRefusedNamingTheParamOptionThatGivesIt() {
        #expect(
            throws: QueryRefusal(.parameters, "no value for the parameter :least (launch with --param least=VALUE)")
        ) {
            try QuerySource.lineParameters(["city": "Oslo"], named: ["city", "least"])
        }
    }

    @Test func theSQLiteLinesQueryIsBoundTheLaunchValueAndRunsOverTheFile() throws {
        let folder = TemporaryDirectory("ft-lineparams")
        defer { folder.remove() }
        let path = folder.path("school.sqlite")
        try Database(path: path).execute(
            """
            CREATE TABLE student (id INTEGER PRIMARY KEY, name TEXT, number INTEGER);
            INSERT INTO student (name, number) VALUES ('Ada', 1), ('Bo', 2), ('Cy', 3);
            """
        )
        let sql = "SELECT name FROM student WHERE number >= :least ORDER BY name"
        let source = try QuerySource.prepareForLine(sql: sql, file: path, launch: ["least": "2", "other": "x"])
        try source.live.load(progress: { _ in })
        let names = try Database(path: source.live.result.path).query(
            "SELECT name FROM \(source.live.result.tableName) ORDER BY name"
        ).map { $0[0] }
        #expect(names == [.text("Bo"), .text("Cy")])
        let refusal = QueryRefusal(.parameters, "no value for the parameter :least (launch with --param least=VALUE)")
        #expect(throws: refusal) {
            _ = try QuerySource.prepareForLine(sql: sql, file: path, launch: [:])
        }
    }

    @Test func theBrowserTakesParamWithoutAQueryListAndWatchDoNot() throws {
        let browser = try TableOptions(
            parseArguments(["school.sqlite", "--param", "least=2"], spec: TableOptions.browserSpec),
            queryLine: true
        )
        #expect(browser.parameters == ["least": "2"])
        #expect(throws: OptionError.self) {
            _ = try TableOptions(parseArguments(["school.sqlite", "--param", "least=2"], spec: TableOptions.listSpec))
        }
    }
}
