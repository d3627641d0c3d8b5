import CLIKit
import FetchedResults
import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedTableKit

/// The command line's values parsed and checked against a table's columns, before any file is opened.
@Suite struct TableOptionsTests {
    static let columns = [
        TableColumn(name: "id", type: .integer), TableColumn(name: "name", type: .text),
        TableColumn(name: "subject", type: .text), TableColumn(name: "number", type: .integer),
        TableColumn(name: "first day", type: .date),
    ]

    func options(_ arguments: [String]) throws -> TableOptions {
        try TableOptions(parseArguments(["school.sqlite"] + arguments, spec: TableOptions.browserSpec))
    }

    func query(_ arguments: [String]) throws -> TableQuery {
        try TableQuery(options: options(arguments), table: "student", columns: TableOptionsTests.columns, idKey: "id")
    }

    @Test func sortTakesColumnsWithOptionalDescAndQuotedNames() throws {
        let sort = try SortSpecification(parsing: "subject, number DESC, \"first day\" asc")
        #expect(
            sort.keys == [
                .init(column: "subject"), .init(column: "number", ascending: false), .init(column: "first day"),
            ]
        )
        #expect(throws: OptionError.self) { try SortSpecification(parsing: "subject,, number") }
        #expect(throws: OptionError.self) { try SortSpecification(parsing: "\"subject") }
        #expect(throws: OptionError.self) { try SortSpecification(parsing: "") }
    }

    @Test func sectionTakesAColumnOrADerivedKey() throws {
        #expect(try SectionKeySpecification(parsing: "subject") == SectionKeySpecification(column: "subject"))
        #expect(
            try SectionKeySpecification(parsing: "day(ts)") == SectionKeySpecification(column: "ts", derivation: .day)
        )
        #expect(try SectionKeySpecification(parsing: "YEAR( \"first day\" )").keyPath == "year(first day)")
        #expect(throws: OptionError.self) { try SectionKeySpecification(parsing: "week(ts)") }
        #expect(throws: OptionError.self) { try SectionKeySpecification(parsing: "day()") }
    }

    @Test func defaultsAreTheIdTheFirstTextColumnAndTheNextTwo() throws {
        let query = try query([])
        #expect(query.sortDescriptors.map(\.keyPath) == ["id"])
        #expect(query.titleKey == "name")
        #expect(query.subtitleKeys == ["subject", "number"])
        #expect(try self.query(["--title", "first day"]).subtitleKeys == ["id", "name"])
    }

    @Test func aSectionKeyTheSortDoesNotOrderByGoesFirst() throws {
        let bySubject = try query(["--sort", "name desc", "--section", "subject"])
        #expect(bySubject.sortDescriptors.map(\.keyPath) == ["subject", "name"])
        let ordered = try query(["--sort", "subject, number", "--section", "subject"])
        #expect(ordered.sortDescriptors.map(\.keyPath) == ["subject", "number"])
        // A derived key of the first sort's column: the controller orders by the key itself.
        let byDay = try TableQuery(
            options: options(["--sort", "ts desc", "--section", "day(ts)"]),
            table: "events",
            columns: [TableColumn(name: "ts", type: .dateTime)],
            idKey: "rowid"
        )
        #expect(byDay.sortDescriptors.map(\.keyPath) == ["ts"])
        #expect(byDay.derivedAttributes.contains { $0.name == "day(ts)" })
    }

    @Test func sectionPickerOffersYearMonthDayOnlyForColumnsThatHoldDates() throws {
        var depTime = TableColumn(name: "dep_time", type: .text)  // a SQLite copy's TEXT: 517, 533…
        depTime.sampleHoldsDates = false
        var closed = TableColumn(name: "closed", type: .text)  // TEXT holding 2025-06-27…
        closed.sampleHoldsDates = true
        var carrier = TableColumn(name: "updated_at", type: .text)  // a CSV's text, typed from every value
        carrier.typeIsChecked = true
        let query = try TableQuery(
            options: options([]),
            table: "flights",
            columns: [depTime, closed, carrier, TableColumn(name: "time_hour", type: .dateTime)],
            idKey: "rowid"
        )
        let dated = Set(query.sectionKeyChoices.compactMap { $0 }.filter { $0.derivation == .year }.map(\.column))
        #expect(dated == ["closed", "time_hour"])
    }

    @Test func columnsChoosesAndOrdersTheGridAndTitleOrSubtitleStartWithTheList() throws {
        let grid = try query(["--columns", "number, \"first day\", name"])
        #expect(grid.gridKeys == ["number", "first day", "name"])
        #expect(grid.startsAsGrid)
        #expect(try query([]).gridKeys == TableOptionsTests.columns.map(\.name))
        #expect(try query(["--title", "name"]).startsAsGrid == false)
        #expect(try query(["--subtitle", "number"]).startsAsGrid == false)
        #expect(throws: FetchedTableError.self) { try query(["--columns", "name, grade"]) }
    }

    @Test func unknownColumnsAreUsageErrorsNamingTheColumns() throws {
        for arguments in [
            ["--sort", "grade"], ["--section", "initial(grade)"], ["--title", "grade"],
            ["--subtitle", "name, grade"], ["--where", "grade == 1"], ["--columns", "grade"],
        ] {
            do {
                _ = try query(arguments)
                Issue.record("\(arguments) accepted")
            } catch let error as FetchedTableError {
                #expect(error.status == ExitStatus.usage)
                #expect(
                    error.message.contains(
                        "no column \"grade\" in table \"student\"; its columns: id, name, subject, number, first day"
                    ),
                    "\(error.message)"
                )
            }
        }
    }

    @Test(arguments: [false, true])
    func derivedKeysComputeInSwiftWhatTheirSQLComputes(valuesAreDates: Bool) throws {
        let database = try Database(path: ":memory:")
        var values: [StoreValue] = [
            .text("2025-06-27T10:00:00Z"), .text("2025-06"), .text("zebra"), .text("Ärger"),
            .text(""), .null, .integer(20_250_627), .real(2024.5), .text("7 days"),
            .text("garbage"), .integer(20_240_101), .text("20240101"), .text("2024"), .text("2024-1-05"),
            .text("2024-06-27 10:00"), .text("2024-06-270"), .text("١٢٣٤-٠٦-٢٧"), .blob([0x32, 0x30]),
        ]
        // Seeded random text of date-like characters: the SQL and the Swift forms agree on every one.
        var generator = SplitMix64(seed: 19)
        let alphabet = Array("0123456789-T :Zx")
        for _ in 0..<300 {
            let length = Int(generator.next() % 14)
            values.append(
                .text(String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }))
            )
        }
        for derivation in SectionKeySpecification.Derivation.allCases {
            let key = SectionKeySpecification(column: "qq", derivation: derivation)
            let attribute = try #require(key.derivedAttribute(valuesAreDates: valuesAreDates))
            for value in values {
                let sql = "SELECT \(attribute.expression(alias: nil).replacingOccurrences(of: "qq", with: "?1"))"
                let fromSQL = try database.scalar(sql, [value])
                let fromSwift = attribute.compute { _ in value }
                #expect(fromSQL == fromSwift, "\(key.keyPath) of \(value): SQL \(fromSQL), Swift \(fromSwift)")
            }
        }
    }

    @Test func fileKindIsToldByContent() throws {
        #expect(try TableFileKind.kind(of: Array("SQLite format 3\u{0}rest".utf8)[...], path: "x") == .sqlite)
        #expect(try TableFileKind.kind(of: Array("a,b\n1,2\n".utf8)[...], path: "x.sqlite") == .csv)
        #expect(try TableFileKind.kind(of: [0x41, 0xE9, 0x09, 0x42][...], path: "x") == .csv)  // Windows-1252 text
        #expect(throws: FetchedTableError.self) { try TableFileKind.kind(of: [0x00, 0x01][...], path: "x") }
        #expect(throws: FetchedTableError.self) { try TableFileKind.kind(of: [][...], path: "x") }
    }

    @Test func valuesThatAreNotDatesAreInOneSectionNamedSo() throws {
        let cases: [(StoreValue, SectionKeySpecification.Derivation, StoreValue)] = [
            (.text("garbage"), .year, .text("(not a date)")), (.integer(20_240_101), .month, .text("(not a date)")),
            (.text("20240101"), .year, .text("(not a date)")), (.text("2024-06-27T10:00"), .day, .text("2024-06-27")),
            (.text("2024-06-27"), .month, .text("2024-06")), (.text("2024"), .year, .text("2024")),
            (.text("2024-06"), .day, .text("(not a date)")), (.null, .year, .null),
        ]
        for (value, derivation, expected) in cases {
            let attribute = try #require(SectionKeySpecification(column: "d", derivation: derivation).derivedAttribute)
            #expect(attribute.compute { _ in value } == expected, "\(derivation)(\(value))")
        }
    }

    // MARK: Issue 38: --where on real columns, --na, the table list's other tables

    @Test func whereTakesOnlyTheTablesColumnsNeverTheHiddenRowID() throws {
        let columns = [TableColumn(name: "name", type: .text), TableColumn(name: "since", type: .text)]
        for predicate in ["id = 1", "rowid = 1", "name == 'x' OR id > 2"] {
            do {
                _ = try TableQuery(
                    options: options(["--where", predicate]),
                    table: "teacher",
                    columns: columns,
                    idKey: "id"
                )
                Issue.record("\(predicate) accepted on a table without such a column")
            } catch let error as FetchedTableError {
                #expect(error.status == ExitStatus.usage)
                #expect(error.message.contains("its columns: name, since"), "\(error.message)")
            }
        }
        // A real column named id (the INTEGER PRIMARY KEY) is fine.
        #expect(try query(["--where", "id = 1"]).predicate != nil)
        #expect(try query(["--where", #""first day" >= 2020-01-01"#]).predicate?.keyPaths == ["first day"])
    }

    @Test func whereRefusesWhatACheckedColumnCanNeverMeet() throws {
        var day = TableColumn(name: "Closing Date", type: .date)
        day.typeIsChecked = true
        var delay = TableColumn(name: "dep_delay", type: .integer)
        delay.typeIsChecked = true
        let columns = [day, delay, TableColumn(name: "note", type: .text)]
        func check(_ predicate: String) throws -> TableQuery {
            try TableQuery(options: options(["--where", predicate]), table: "f", columns: columns, idKey: "rowid")
        }
        for refused in [
            #""Closing Date" >= 2020"#, #""Closing Date" > '2020'"#, "dep_delay > 'NA'",
            #"dep_delay IN {1, 'x'}"#, #"NOT ("Closing Date" BETWEEN {2019, 2021})"#,
        ] {
            #expect(throws: FetchedTableError.self, "\(refused)") { try check(refused) }
        }
        for accepted in [
            #""Closing Date" >= 2020-01-01"#, "dep_delay > '10'", "dep_delay == nil", "note > 5",
            #""Closing Date" BEGINSWITH '2020'"#,
        ] {
            #expect(try check(accepted).predicate != nil, "\(accepted)")
        }
        // A SQLite file's column is only declared so: compared as sqlite3 compares it.
        let declared = [TableColumn(name: "d", type: .date)]
        #expect(
            try TableQuery(options: options(["--where", "d > 5"]), table: "t", columns: declared, idKey: "rowid")
                .predicate != nil
        )
    }

    @Test func aColumnIsNamedInAPredicateAsTheLanguageReadsIt() throws {
        #expect(TableQuery.predicateName("close_date") == "close_date")
        #expect(TableQuery.predicateName("Closing Date") == #""Closing Date""#)
        #expect(TableQuery.predicateName(#"say "hi""#) == #""say ""hi""""#)
        // The filter's example parses: a name with spaces in double quotes.
        let example = "\(TableQuery.predicateName("Bank Name")) BEGINSWITH 'A'"
        #expect(try FetchPredicate(example).keyPaths == ["Bank Name"])
    }

    @Test func naTakesTheTokensOfACSVFile() throws {
        #expect(try options(["--na", "NA, -,\"n/a\""]).missingValues == ["NA", "-", "n/a"])
        #expect(try options(["--na", ""]).missingValues == [])
        #expect(try options([]).missingValues == nil)
    }

    @Test func anotherTableThanTheOneTableNamedOpensWithItsDefaults() throws {
        let given = try options(["--table", "t", "--sort", "note", "--section", "note", "--where", "note > 'a'"])
        #expect(given.opening("t") == given)
        let other = given.opening("other")
        #expect(other.sort == nil && other.section == nil && other.predicate == nil && other.table == "other")
        let listed = try options(["--sort", "name"])
        #expect(listed.opening("any") == listed, "without --table the options are every table's")
    }

    @Test func fileKindNamesJSONAndUTF16() throws {
        func refusal(_ bytes: [UInt8]) -> String? {
            do {
                _ = try TableFileKind.kind(of: bytes[...], path: "x")
                return nil
            } catch { return error.message }
        }
        #expect(try TableFileKind.kind(of: Array("{\"a\": 1}\n{\"a\": 2}\n".utf8)[...], path: "x") == .json)
        #expect(try TableFileKind.kind(of: Array("[{\"a\": 1}]".utf8)[...], path: "x") == .json)
        #expect(try TableFileKind.kind(of: Array("id,name\n".utf8)[...], path: "x") == .csv)
        #expect(refusal([0xFF, 0xFE, 0x61, 0x00])?.contains("UTF-16") == true)
        #expect(refusal([0x61, 0x00, 0x2C, 0x00, 0x62, 0x00, 0x0A, 0x00])?.contains("UTF-16") == true)
        #expect(refusal(Array("{id},{name}\n1,2\n".utf8)) == nil)
        #expect(TableFileKind.missingReason(errno: ELOOP).contains("loop"))
    }
}

/// `--type 'COLUMN=TYPE, …'`.
@Suite struct ColumnTypeOptionTests {
    @Test func typesAreParsedQuotedNamesKeptAndTheLastOfAColumnWins() throws {
        let types = try ColumnTypeSpecification.parse("fare=real, \"Closing Date\"=date, flag = Boolean, fare=integer")
        #expect(types.map(\.column) == ["Closing Date", "flag", "fare"])
        #expect(types.map(\.type) == [.date, .boolean, .integer])
        #expect(types[0].attributeType == .date)
    }

    @Test func anUnknownTypeOrAPartWithoutEqualsNamesWhatIsWrong() {
        #expect(
            throws: OptionError(
                "--type: unknown type \"number\" for fare; the types: integer, real, text, date, datetime, boolean"
            )
        ) {
            try ColumnTypeSpecification.parse("fare=number")
        }
        #expect(throws: OptionError.self) { try ColumnTypeSpecification.parse("fare") }
    }
}

/// `--key` and `--param`, the options of a `--query`.
@Suite struct QueryOptionTests {
    func options(_ arguments: [String]) throws -> TableOptions {
        try TableOptions(
            parseArguments(["school.sqlite", "--query", "SELECT 1 AS one"] + arguments, spec: TableOptions.browserSpec)
        )
    }

    @Test func aKeyNamesAtLeastOneColumnAndEachOnce() throws {
        #expect(try options(["--key", "subject, \"first day\""]).key == ["subject", "first day"])
        #expect(throws: OptionError("--key: no column named; --key 'COLUMN, …'")) { try options(["--key", ""]) }
        #expect(throws: OptionError("--key: no column named; --key 'COLUMN, …'")) { try options(["--key", " "]) }
        #expect(throws: OptionError("--key: subject is named twice")) {
            try options(["--key", "subject, name, subject"])
        }
    }

    @Test func aParameterIsANumberOnlyWhenWrittenAsSQLWritesOne() {
        #expect(QuerySource.parameterValue("42") == .integer(42))
        #expect(QuerySource.parameterValue("-7") == .integer(-7))
        #expect(QuerySource.parameterValue("0") == .integer(0))
        #expect(QuerySource.parameterValue("-2.5") == .real(-2.5))
        #expect(QuerySource.parameterValue("0.5") == .real(0.5))
        #expect(QuerySource.parameterValue(".5") == .real(0.5))
        #expect(QuerySource.parameterValue("1e3") == .real(1000))
        #expect(QuerySource.parameterValue("6E-3") == .real(0.006))
        // A code that only looks numeric stays the text it is: '007' = :zip holds.
        for text in [
            "007", "00", "-01", "+5", "0x10", "0x1p3", " 5", "5 ", "1e", ".", "-", "", "1_000", "nan", "inf",
            "12345678901234567890", "1e999", "١٢",
        ] {
            #expect(QuerySource.parameterValue(text) == .text(text), "\(text)")
        }
    }
}
