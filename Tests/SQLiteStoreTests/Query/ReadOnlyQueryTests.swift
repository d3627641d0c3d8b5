import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// `Database.prepareReadOnlyQuery`: one statement that only reads and returns rows, or a
/// refusal saying why; the tables it reads, where its columns come from, its parameters.
@Suite struct ReadOnlyQueryTests {
    final class School {
        let folder = TemporaryDirectory("read-only-query")
        var path: String { folder.path("school.sqlite") }
        let writer: Database

        init() throws {
            writer = try Database(path: folder.path("school.sqlite"))
            try writer.execute(
                """
                CREATE TABLE student (id INTEGER PRIMARY KEY, name TEXT NOT NULL, subject TEXT, number INTEGER);
                CREATE TABLE subject (code TEXT PRIMARY KEY, title TEXT) WITHOUT ROWID;
                CREATE TABLE teacher (name TEXT, subject TEXT);
                CREATE VIEW math AS SELECT name, number FROM student WHERE subject = 'Math';
                INSERT INTO student (name, subject, number) VALUES ('Ada', 'Math', 3), ('Brook', 'Art', 1);
                INSERT INTO subject VALUES ('Math', 'Mathematics'), ('Art', 'Art');
                """
            )
        }

        func reader() throws -> Database { try Database.openForQueries(path: path) }
    }

    func refusal(_ sql: String, in school: School) throws -> QueryRefusal {
        let database = try school.reader()
        do {
            _ = try database.prepareReadOnlyQuery(sql)
        } catch let refusal as QueryRefusal {
            return refusal
        }
        throw QueryRefusal(.invalid, "not refused: \(sql)")
    }

    @Test func aJoinReadsBothTablesAndItsColumnsNameWhereTheyComeFrom() throws {
        let school = try School()
        let query = try school.reader().prepareReadOnlyQuery(
            "SELECT s.id, s.name, j.title, count(*) AS n FROM student s JOIN subject j ON j.code = s.subject GROUP BY s.id"
        )
        #expect(Set(query.readTables) == ["student", "subject"])
        #expect(query.columns.map(\.name) == ["id", "name", "title", "n"])
        #expect(query.columns[0].sourceTable == "student" && query.columns[0].sourceColumn == "id")
        #expect(query.columns[0].declaredType == "INTEGER")
        #expect(query.columns[2].sourceTable == "subject" && query.columns[2].sourceColumn == "title")
        #expect(query.columns[3].sourceTable == nil && query.columns[3].declaredType == "")
    }

    @Test func aViewIsReadThroughToItsTable() throws {
        let school = try School()
        let query = try school.reader().prepareReadOnlyQuery("SELECT * FROM math")
        #expect(query.readTables == ["student"])
    }

    @Test func repeatedColumnNamesAreNumberedAsSQLiteNumbersThem() throws {
        let school = try School()
        let query = try school.reader().prepareReadOnlyQuery(
            "SELECT s.name, t.name, s.name AS NAME FROM student s, teacher t"
        )
        #expect(query.columns.map(\.name) == ["name", "name:1", "NAME:2"])
    }

    @Test func writesAreRefusedNamingWhatTheyWouldDo() throws {
        let school = try School()
        let insert = try refusal("INSERT INTO student (name) VALUES ('Zed')", in: school)
        #expect(insert.reason == .writes)
        #expect(insert.message == "not read-only: it would insert into student; a query source only reads")
        #expect(try refusal("UPDATE student SET number = 1", in: school).reason == .writes)
        #expect(try refusal("DELETE FROM student", in: school).message.contains("delete from student"))
        #expect(try refusal("CREATE TABLE x (a)", in: school).message.contains("create a table"))
        #expect(try refusal("DROP TABLE teacher", in: school).reason == .writes)
        #expect(
            try refusal("WITH doomed AS (SELECT 1) DELETE FROM student WHERE id IN doomed", in: school).reason
                == .writes
        )
        #expect(try school.writer.scalar("SELECT count(*) FROM student").int64 == 2)
    }

    @Test func severalStatementsAreRefusedWithWhereTheSecondStarts() throws {
        let school = try School()
        let several = try refusal("SELECT 1; DELETE FROM student", in: school)
        #expect(several.reason == .severalStatements)
        #expect(several.offset == 10)
        // The place is the offset's, said once by whoever shows it ("(at character 11 of the query)").
        #expect(several.message == "more than one statement: a query source is one SELECT")
        // Spaces, a semicolon and comments after the statement are not another one.
        let database = try school.reader()
        _ = try database.prepareReadOnlyQuery("SELECT 1;  -- the end\n /* really */ ")
        #expect(try refusal("SELECT 1; SELECT 2", in: school).reason == .severalStatements)
    }

    @Test func statementsThatReturnNoRowsOrAttachOrHaveSideEffectsAreRefused() throws {
        let school = try School()
        #expect(try refusal("BEGIN", in: school).reason == .returnsNoRows)
        #expect(try refusal("ATTACH 'other.db' AS other", in: school).reason == .attaches)
        #expect(try refusal("PRAGMA query_only = 0", in: school).reason == .sideEffects)
        let function = try refusal("SELECT load_extension('x')", in: school)
        #expect(function.reason == .sideEffects || function.reason == .invalid)
        #expect(try refusal("  -- nothing\n", in: school).reason == .empty)
    }

    @Test func aPragmaThatReadsANamedTableIsAQueryOneGivenAValueIsRefused() throws {
        let school = try School()
        let database = try school.reader()
        let info = try database.prepareReadOnlyQuery("PRAGMA table_info(student)")
        #expect(info.columns.map(\.name).contains("name"))
        _ = try database.prepareReadOnlyQuery("PRAGMA main.index_list(subject)")
        _ = try database.prepareReadOnlyQuery("PRAGMA Foreign_Key_List(student)")
        _ = try database.prepareReadOnlyQuery("PRAGMA integrity_check(5)")
        for pragma in ["PRAGMA cache_size(5)", "PRAGMA query_only(0)", "PRAGMA user_version = 3"] {
            let refused = try refusal(pragma, in: school)
            #expect(refused.reason == .sideEffects, "\(pragma): \(refused.message)")
        }
    }

    @Test func aNumberedParameterIsRefusedWhereItIsEvenWhenItSharesANamedOnesNumber() throws {
        let school = try School()
        // `?1` after `:least` is parameter 1, named `:least` by SQLite: it would silently be given its value.
        let shared = try refusal("SELECT name FROM student WHERE number >= :least OR id = ?1", in: school)
        #expect(shared.reason == .parameters)
        #expect(shared.message == "the parameter ?1 has no name: name it (:name) and give its value by that name")
        #expect(shared.offset == 56)
        #expect(try refusal("SELECT ?12 AS n", in: school).message.hasPrefix("the parameter ?12 has no name"))
        let quoted = "SELECT '?1', \"?2\", [?3], `?4`, x'3f31' -- ?5\n /* ?6 */ , 'it''s ?7'"
        #expect(Database.numberedParameterOffset(in: Array(quoted.utf8)) == nil)
        #expect(Database.numberedParameterOffset(in: Array("SELECT 'a''b', ?3".utf8)) == 15)
    }

    @Test func aSyntaxErrorIsSQLitesMessageWithItsPosition() throws {
        let school = try School()
        let error = try refusal("SELECT name FROM student WHERE nmae = 1", in: school)
        #expect(error.reason == .invalid)
        #expect(error.message == "no such column: nmae")
        #expect(error.offset == 31)
        let typo = try refusal("SELEC name FROM student", in: school)
        #expect(typo.message.contains("syntax error"))
        #expect(typo.offset == 0)
    }

    @Test func namedParametersAreBoundByNameAndAPositionalOneIsRefused() throws {
        let school = try School()
        let database = try school.reader()
        let query = try database.prepareReadOnlyQuery(
            "SELECT name FROM student WHERE number >= :least AND subject = @s"
        )
        #expect(query.parameterNames == ["least", "s"])
        try query.bind(["least": .integer(2), "s": .text("Math")])
        let rows = try query.rows()
        var names: [String] = []
        while try rows.next() { names.append(rows.field(0).value.string ?? "") }
        #expect(names == ["Ada"])
        #expect(throws: QueryRefusal.self) { try query.bind(["least": .integer(2)]) }
        #expect(throws: QueryRefusal.self) { try query.bind(["least": .integer(2), "s": .null, "other": .null]) }
        #expect(try refusal("SELECT name FROM student WHERE id = ?", in: school).reason == .parameters)
    }

    @Test func theConnectionForQueriesCannotWrite() throws {
        let school = try School()
        let database = try school.reader()
        #expect(throws: SQLiteError.self) { try database.execute("INSERT INTO student (name) VALUES ('Zed')") }
    }

    @Test func aQueryOnAConnectionThatCanWriteIsRefused() throws {
        let school = try School()
        #expect(throws: QueryRefusal.self) { try school.writer.prepareReadOnlyQuery("SELECT name FROM student") }
        do {
            _ = try school.writer.prepareReadOnlyQuery("SELECT name FROM student")
        } catch let refusal as QueryRefusal {
            #expect(refusal.reason == .writableConnection)
            #expect(refusal.message.contains("openForQueries"))
        }
    }

    @Test func aQueryOfAWALFileWithoutItsWALIsPreparedOnAQueryOnlyConnection() throws {
        let school = try School()
        try school.writer.execute("PRAGMA journal_mode = WAL")
        let database = try school.reader()
        let query = try database.prepareReadOnlyQuery("SELECT count(*) AS n FROM student")
        #expect(query.readTables == ["student"])
        #expect(query.columns.map(\.name) == ["n"])
    }

    @Test func theOneTableARowComesFromIsFoundByItsKey() throws {
        let school = try School()
        let database = try school.reader()
        let byID = try QuerySourceTable.of(database.prepareReadOnlyQuery("SELECT name, id FROM student")).get()
        #expect(byID.table == "student" && byID.keyColumns.map(\.result) == ["id"])
        let byRowID = try QuerySourceTable.of(database.prepareReadOnlyQuery("SELECT rowid, name FROM teacher")).get()
        #expect(byRowID.keyColumns.first?.table == "rowid")
        let withoutRowID = try QuerySourceTable.of(database.prepareReadOnlyQuery("SELECT title, code FROM subject"))
            .get()
        #expect(withoutRowID.keyColumns.map(\.result) == ["code"])
        let join = try QuerySourceTable.of(
            database.prepareReadOnlyQuery("SELECT s.id FROM student s JOIN subject j ON j.code = s.subject")
        )
        guard case .failure(let reason) = join else { throw QueryRefusal(.invalid, "mapped a join") }
        #expect(reason.reason == "its rows come from a join of student and subject")
        let noKey = try QuerySourceTable.of(database.prepareReadOnlyQuery("SELECT name FROM student"))
        guard case .failure(let missing) = noKey else { throw QueryRefusal(.invalid, "mapped without a key") }
        #expect(missing.reason == "it does not return student's key (id): add it to the SELECT")
    }
}
