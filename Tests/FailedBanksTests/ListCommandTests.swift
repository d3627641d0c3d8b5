import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FailedBanksKit

/// A small failedbanks store in a scratch directory, for running `list` and
/// `watch` in-process (``WatchCommandTests`` uses it too).
///
/// The banks are inserted in the order given, so the n-th bank has row id n;
/// a bank whose `closeDate` is nil has no details row. No connection is left
/// open: the commands open the store themselves, and ``connection()`` gives a
/// second connection that writes like another process would. The scratch
/// directory goes with the last reference.
///
///     let store = try CommandTestStore("list", banks: [.init("Alpha Bank", "Austin", "TX", "2025-06-27", cert: 1)])
///     ListCommand.run(["--db", store.path], output: { print($0, terminator: "") }, errorOutput: { print($0) })
final class CommandTestStore {
    struct Bank {
        var name, city, state: String
        var closeDate: String?
        var cert: Int64

        init(_ name: String, _ city: String, _ state: String, _ closeDate: String?, cert: Int64 = 0) {
            (self.name, self.city, self.state, self.closeDate, self.cert) = (name, city, state, closeDate, cert)
        }
    }

    let scratch: TemporaryDirectory
    let path: String

    init(_ label: String, banks: [Bank]) throws {
        scratch = TemporaryDirectory(label)
        path = scratch.path("banks.sqlite")
        let store = try Store(path: path, model: BrowserModel.model)
        let context = ObjectContext(store: store)
        for bank in banks {
            let info = context.insert(into: FailedBankModel.info)
            info["name"] = .text(bank.name)
            info["city"] = .text(bank.city)
            info["state"] = .text(bank.state)
            if let closeDate = bank.closeDate {
                let details = context.insert(into: FailedBankModel.details)
                details["closeDate"] = .text(closeDate)
                details["cert"] = .integer(bank.cert)
                info.setRelated(details, for: "details")
            }
            try context.save()  // one save per bank: row ids follow the order given
        }
    }

    /// A second connection to the store (raw SQL, as the `sqlite3` shell or another process writes).
    func connection() throws -> Database { try Database(path: path) }

    /// Removes the scratch directory (also done when the last reference goes).
    func remove() { scratch.remove() }

    deinit { remove() }
}

/// `failedbanks list` run in-process: what it prints, what it says on stderr, its status.
struct ListRun {
    var status: Int32
    var output: String
    var errors: [String]

    init(_ arguments: [String]) {
        var output = ""
        var errors: [String] = []
        status = ListCommand.run(arguments, output: { output += $0 }, errorOutput: { errors.append($0) })
        (self.output, self.errors) = (output, errors)
    }

    var lines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The JSON output's sections as (name, ids).
    func sections() throws -> [(name: String, ids: [Int64])] {
        try WatchedState.Section.list(fromJSON: output).map { ($0.name, $0.ids) }
    }
}

/// `failedbanks list`: its contract (README, "failedbanks"), one rule per test.
@Suite struct ListCommandTests {
    /// Row ids 1…8 in this order. Chosen so that every rule shows:
    /// - 2 and 3 tie on date and on name case-insensitively (so the id decides);
    /// - 8 ("beta") sorts before 1 ("Zeta") only when compared case-insensitively;
    /// - 4 starts with a digit and 6 with a non-ASCII letter: both are in the `#` section;
    /// - 5 has a comma and quotes (CSV quoting, JSON escaping); 6 is non-ASCII;
    /// - 7 has no details (no closing date, no cert).
    static let banks: [CommandTestStore.Bank] = [
        .init("Zeta Bank", "Austin", "TX", "2024-03-01", cert: 101),  // 1
        .init("alpha bank", "Dallas", "TX", "2025-06-27", cert: 102),  // 2
        .init("Alpha Bank", "Houston", "TX", "2025-06-27", cert: 103),  // 3
        .init("1st Centennial Bank", "Redlands", "CA", "2009-01-23", cert: 104),  // 4
        .init("Bank, \"Quoted\" & Co", "Springfield", "IL", "2024-11-08", cert: 105),  // 5
        .init("Ünion Bänk", "Zürich", "CA", "2025-01-10", cert: 106),  // 6
        .init("Orphan Bank", "Nowhere", "ZZ", nil),  // 7
        .init("beta bank", "Austin", "TX", "2024-03-01", cert: 108),  // 8
    ]

    let store: CommandTestStore
    init() throws { store = try CommandTestStore("list", banks: Self.banks) }

    func list(_ arguments: String...) -> ListRun { ListRun(["--db", store.path] + arguments) }

    // MARK: Sort orders and sections

    @Test(
        "--sort date: closing date newest first, then name case-insensitively, then id; one section per year; banks without details last"
    )
    func dateOrder() throws {
        let run = list("--sort", "date", "--format", "json")
        #expect(run.status == 0)
        let sections = try run.sections()
        #expect(sections.map(\.name) == ["2025", "2024", "2009", ""])
        #expect(sections.map(\.ids) == [[2, 3, 6], [5, 8, 1], [4], [7]])
    }

    @Test("date is the default sort")
    func dateIsDefault() throws {
        #expect(list("--format", "json").output == list("--sort", "date", "--format", "json").output)
    }

    @Test(
        "--sort name: name case-insensitively, then id; sections by uppercased initial, '#' for digits and non-ASCII letters"
    )
    func nameOrder() throws {
        let run = list("--sort", "name", "--format", "json")
        #expect(run.status == 0)
        let sections = try run.sections()
        #expect(sections.map(\.name) == ["#", "A", "B", "O", "Z"])
        #expect(sections.map(\.ids) == [[4, 6], [2, 3], [5, 8], [7], [1]])
    }

    @Test("--sort state: state, then name case-insensitively, then id; one section per state")
    func stateOrder() throws {
        let run = list("--sort", "state", "--format", "json")
        #expect(run.status == 0)
        let sections = try run.sections()
        #expect(sections.map(\.name) == ["CA", "IL", "TX", "ZZ"])
        #expect(sections.map(\.ids) == [[4, 6], [5], [2, 3, 8, 1], [7]])
    }

    @Test("--sort is case-insensitive; an unknown order is a usage error (64) naming --sort")
    func sortArgument() throws {
        #expect(list("--sort", "NAME", "--format", "json").output == list("--sort", "name", "--format", "json").output)
        let bad = list("--sort", "zip")
        #expect(bad.status == 64)
        #expect(bad.output.isEmpty)
        #expect(bad.errors.count == 1)
        #expect(bad.errors.first?.contains("--sort must be date, name or state, not 'zip'") == true, "\(bad.errors)")
    }

    // MARK: --where

    @Test("--where keeps only the matching banks, in the sort's order and sections")
    func whereFilters() throws {
        let run = list("--where", "state == 'TX' AND details.closeDate >= 2024-06-01", "--format", "json")
        #expect(run.status == 0)
        #expect(try run.sections().map(\.name) == ["2025"])
        #expect(try run.sections().map(\.ids) == [[2, 3]])

        let byName = list(
            "--sort",
            "name",
            "--where",
            "name BEGINSWITH[c] 'a' OR details.cert == 106",
            "--format",
            "json"
        )
        #expect(try byName.sections().map(\.ids) == [[6], [2, 3]])
    }

    @Test("--where that matches nothing lists no sections and exits 0")
    func whereMatchingNothing() throws {
        let json = list("--where", "state == 'NY'", "--format", "json")
        #expect(json.status == 0)
        #expect(json.output == "{\"sections\":[]}\n")
        #expect(
            list("--where", "state == 'NY'", "--format", "csv").output == "section,id,name,city,state,cert,closeDate\n"
        )
        #expect(list("--where", "state == 'NY'").output == "")
    }

    @Test("a --where that does not parse is a usage error (64) whose message names the column")
    func badPredicate() throws {
        let run = list("--where", "state == ", "--format", "json")
        #expect(run.status == 64)
        #expect(run.output.isEmpty)
        #expect(run.errors.count == 1)
        let message = run.errors.first ?? ""
        #expect(message.contains("list: --where: column 10: "), "\(message)")
        #expect(message.contains("found end of input"), "\(message)")
        #expect(message.hasSuffix("(try --help)"))

        let unterminated = list("--where", "name == 'Alpha")
        #expect(unterminated.status == 64)
        #expect(
            unterminated.errors.first?.contains("column 9: string is not terminated") == true,
            "\(unterminated.errors)"
        )
    }

    @Test("a --where naming a key path the model lacks is a usage error (64) naming it")
    func unknownKeyPath() throws {
        let run = list("--where", "zipCode == '78701'")
        #expect(run.status == 64)
        #expect(run.output.isEmpty)
        #expect(run.errors.count == 1)
        #expect(run.errors.first?.contains("list: --where: unknown key path \"zipCode\"") == true, "\(run.errors)")
    }

    // MARK: Formats

    @Test(
        "JSON: sections with name, indexTitle and objects; objects with id, name, city, state, cert and closeDate, exactly"
    )
    func jsonFieldsAndTypes() throws {
        let run = list("--format", "json")
        #expect(run.status == 0)
        #expect(run.output.hasSuffix("]}\n") && run.output.filter { $0 == "\n" }.count == 1, "one line")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(Array(root.keys) == ["sections"])
        let sections = try #require(root["sections"] as? [[String: Any]])
        for section in sections {
            #expect(Set(section.keys) == ["name", "indexTitle", "objects"])
            #expect(section["name"] is String)
            for object in try #require(section["objects"] as? [[String: Any]]) {
                #expect(Set(object.keys) == ["id", "name", "city", "state", "cert", "closeDate"])
                #expect(
                    object["id"] is Int && object["name"] is String && object["city"] is String
                        && object["state"] is String
                )
                #expect(object["cert"] is Int || object["cert"] is NSNull)
                #expect(object["closeDate"] is String || object["closeDate"] is NSNull)
            }
        }
        // The year's index title is its name; the section of banks without details has none.
        #expect(sections.first?["indexTitle"] as? String == "2025")
        #expect(sections.last?["name"] as? String == "")
        #expect(sections.last?["indexTitle"] is NSNull)
    }

    @Test("JSON: the exact bytes, strings escaped, non-ASCII as UTF-8, id is the failed_bank_info row id")
    func jsonExactBytes() throws {
        let run = list("--where", "details.cert IN {105, 106}", "--format", "json")
        #expect(
            run.output == """
                {"sections":[{"name":"2025","indexTitle":"2025","objects":[{"id":6,"name":"Ünion Bänk","city":"Zürich","state":"CA","cert":106,"closeDate":"2025-01-10"}]},\
                {"name":"2024","indexTitle":"2024","objects":[{"id":5,"name":"Bank, \\"Quoted\\" & Co","city":"Springfield","state":"IL","cert":105,"closeDate":"2024-11-08"}]}]}

                """
        )
    }

    @Test("JSON: a bank without details has null cert and closeDate, in a section named \"\" with a null index title")
    func jsonBankWithoutDetails() throws {
        let run = list("--where", "state == 'ZZ'", "--format", "json")
        #expect(
            run.output == """
                {"sections":[{"name":"","indexTitle":null,"objects":[{"id":7,"name":"Orphan Bank","city":"Nowhere","state":"ZZ","cert":null,"closeDate":null}]}]}

                """
        )
    }

    @Test("JSON: backslashes and control characters are escaped")
    func jsonEscapesControlCharacters() throws {
        let odd = try CommandTestStore(
            "list-json",
            banks: [.init("Tab\tBank\u{1}", "Back\\slash", "K\"S", "2020-02-02", cert: 9)]
        )
        let run = ListRun(["--db", odd.path, "--format", "json"])
        #expect(
            run.output
                == #"{"sections":[{"name":"2020","indexTitle":"2020","objects":[{"id":1,"name":"Tab\tBank\u0001","city":"Back\\slash","state":"K\"S","cert":9,"closeDate":"2020-02-02"}]}]}"#
                + "\n"
        )
        #expect(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) is [String: Any])
    }

    @Test("every bank of a section larger than one read (500 ids) or one batch (2,000 rows) is printed once, in order")
    func largeSection() throws {
        let large = try CommandTestStore("list-large", banks: [])
        try large.connection().execute(
            """
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
            INSERT INTO failed_bank_info(name, city, state) SELECT printf('Bank %04d', 2501 - i), 'Omaha', 'NE' FROM n;
            INSERT INTO failed_bank_details(close_date, cert, info_id) SELECT '2020-01-01', id, id FROM failed_bank_info;
            COMMIT;
            """
        )
        let expected = Array((1...2500).reversed()).map(Int64.init)  // "Bank 0001" is row 2500
        let json = ListRun(["--db", large.path, "--sort", "name", "--format", "json"])
        #expect(try json.sections().map(\.name) == ["B"])
        #expect(try json.sections().first?.ids == expected)
        let csv = ListRun(["--db", large.path, "--sort", "name", "--format", "csv"])
        #expect(csv.lines.dropFirst().dropLast().map { Int64($0.split(separator: ",")[1])! } == expected)
        let text = ListRun(["--db", large.path, "--sort", "name"])
        #expect(text.lines.first == "B (2500 banks)")
        #expect(text.lines.count == 2502)
    }

    @Test(
        "CSV: header, then section,id,name,city,state,cert,closeDate per bank; commas and quotes quoted, non-ASCII as is, missing details empty"
    )
    func csvFormat() throws {
        let run = list("--format", "csv")
        #expect(run.status == 0)
        #expect(
            run.lines == [
                "section,id,name,city,state,cert,closeDate",
                "2025,2,alpha bank,Dallas,TX,102,2025-06-27",
                "2025,3,Alpha Bank,Houston,TX,103,2025-06-27",
                "2025,6,Ünion Bänk,Zürich,CA,106,2025-01-10",
                "2024,5,\"Bank, \"\"Quoted\"\" & Co\",Springfield,IL,105,2024-11-08",
                "2024,8,beta bank,Austin,TX,108,2024-03-01",
                "2024,1,Zeta Bank,Austin,TX,101,2024-03-01",
                "2009,4,1st Centennial Bank,Redlands,CA,104,2009-01-23",
                ",7,Orphan Bank,Nowhere,ZZ,,",
                "",
            ]
        )
    }

    @Test("CSV: a line break inside a field is quoted")
    func csvQuotesLineBreaks() throws {
        let multiline = try CommandTestStore(
            "list-csv",
            banks: [.init("Two\nLines Bank", "Nome", "AK", "2020-02-02", cert: 9)]
        )
        let run = ListRun(["--db", multiline.path, "--format", "csv"])
        #expect(
            run.output == "section,id,name,city,state,cert,closeDate\n2020,1,\"Two\nLines Bank\",Nome,AK,9,2020-02-02\n"
        )
    }

    @Test(
        "text: a header per section with its bank count, then one indented line per bank; '(none)' names the section of banks without details"
    )
    func textFormat() throws {
        let run = list("--where", "state == 'TX' OR state == 'ZZ' OR details.cert == 106")
        #expect(run.status == 0)
        #expect(
            run.lines == [
                "2025 (3 banks)",
                "  alpha bank, Dallas, TX  closed 2025-06-27  cert 102",
                "  Alpha Bank, Houston, TX  closed 2025-06-27  cert 103",
                "  Ünion Bänk, Zürich, CA  closed 2025-01-10  cert 106",
                "2024 (2 banks)",
                "  beta bank, Austin, TX  closed 2024-03-01  cert 108",
                "  Zeta Bank, Austin, TX  closed 2024-03-01  cert 101",
                "(none) (1 bank)",
                "  Orphan Bank, Nowhere, ZZ",
                "",
            ]
        )
        #expect(list("--format", "TEXT").output == list().output, "the format name is case-insensitive")
    }

    @Test("an unknown --format is a usage error (64)")
    func badFormat() throws {
        let run = list("--format", "xml")
        #expect(run.status == 64)
        #expect(run.output.isEmpty)
        #expect(run.errors == ["failedbanks list: --format must be text, json or csv (try --help)"])
    }

    // MARK: The store

    @Test("no store at --db: exit 66, nothing printed, and no file created")
    func missingStore() throws {
        let path = store.scratch.path("missing.sqlite")
        let run = ListRun(["--db", path])
        #expect(run.status == 66)
        #expect(run.output.isEmpty)
        #expect(run.errors.count == 1)
        #expect(run.errors.first?.contains("\(path): no store there") == true, "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("--help prints the usage on the output and exits 0")
    func help() throws {
        let run = list("--help")
        #expect(run.status == 0)
        #expect(run.output.contains("failedbanks list"))
        #expect(run.output.contains("--format"))
        #expect(run.output.hasSuffix("\n"))
        #expect(run.errors.isEmpty)
    }
}
