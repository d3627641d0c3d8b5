import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// What a ``TableChangeWatch`` tells of an untracked table: a digest the count made stale is
/// read again a slice per quiet look; once it is whole it tells a rewrite of the rows as they
/// were, and a commit to another table, from a change.
@Suite struct TableChangeWatchTests {
    @Test func aDigestReadInSlicesOverQuietLooksIsTheWholeTablesDigest() throws {
        let folder = TemporaryDirectory("table-change-watch")
        let path = folder.path("watched.sqlite")
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
        try writer.execute("CREATE TABLE other (x)")
        for id in 1...10 { try writer.run("INSERT INTO t VALUES (?, ?)", [.integer(Int64(id)), .text("v\(id)")]) }
        let reader = try Database.openForQueries(path: path)
        let watch = TableChangeWatch(database: reader, tables: ["t"], tracking: .standard)
        watch.digestRowsPerLook = 3
        try reader.read { try watch.start() }
        #expect(try reader.read { try watch.look() } == .unchanged)
        try writer.run("INSERT INTO t VALUES (11, 'v11')")
        #expect(try reader.read { try watch.look() } == .changed(["t"]), "the count moved")
        // 11 rows, 3 a look: the digest is whole after the fourth quiet look.
        for _ in 0..<4 { #expect(try reader.read { try watch.look() } == .unchanged) }
        try writer.run("INSERT INTO other VALUES (1)")
        #expect(try reader.read { try watch.look() } == .unchanged, "a commit to another table")
        try writer.run("UPDATE t SET v = v")
        #expect(try reader.read { try watch.look() } == .unchanged, "every row rewritten as it was")
        try writer.run("UPDATE t SET v = 'changed' WHERE id = 5")
        #expect(try reader.read { try watch.look() } == .changed(["t"]), "an update in place")
    }

    @Test func anInsertIsToldByTheLargestRowIDAloneAndTheCountReadAtTheNextQuietLook() throws {
        let folder = TemporaryDirectory("table-change-watch")
        let path = folder.path("watched.sqlite")
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
        for id in 1...10 { try writer.run("INSERT INTO t VALUES (?, ?)", [.integer(Int64(id)), .text("v\(id)")]) }
        let reader = try Database.openForQueries(path: path)
        let watch = TableChangeWatch(database: reader, tables: ["t"], tracking: .standard)
        try reader.read { try watch.start() }
        #expect(try reader.read { try watch.look() } == .unchanged)
        let counted = watch.rowCounts
        try writer.run("INSERT INTO t VALUES (11, 'v11')")
        #expect(try reader.read { try watch.look() } == .changed(["t"]))
        #expect(watch.rowCounts == counted, "the look after an insert walks none of the table's pages")
        // A delete before the count was read again: the largest row id stays, the count is unknown.
        try writer.run("DELETE FROM t WHERE id = 3")
        #expect(try reader.read { try watch.look() } == .changed(["t"]))
        try writer.run("INSERT INTO t VALUES (12, 'v12')")
        #expect(try reader.read { try watch.look() } == .changed(["t"]))
        #expect(try reader.read { try watch.look() } == .unchanged, "the count and the digest read again")
        try writer.run("DELETE FROM t WHERE id = 4")
        #expect(try reader.read { try watch.look() } == .changed(["t"]), "the count moved")
        #expect(try reader.read { try watch.look() } == .unchanged)
        try writer.run("UPDATE t SET v = v")
        #expect(try reader.read { try watch.look() } == .unchanged, "every row rewritten as it was")
        try writer.run("UPDATE t SET v = 'changed' WHERE id = 11")
        #expect(try reader.read { try watch.look() } == .changed(["t"]), "an update in place")
    }

    @Test func aCommitBeforeTheDigestIsWholeIsTakenForAChange() throws {
        let folder = TemporaryDirectory("table-change-watch")
        let path = folder.path("watched.sqlite")
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
        for id in 1...10 { try writer.run("INSERT INTO t VALUES (?, ?)", [.integer(Int64(id)), .text("v\(id)")]) }
        let reader = try Database.openForQueries(path: path)
        let watch = TableChangeWatch(database: reader, tables: ["t"], tracking: .standard)
        watch.digestRowsPerLook = 3
        try reader.read { try watch.start() }
        #expect(try reader.read { try watch.look() } == .unchanged)
        try writer.run("INSERT INTO t VALUES (11, 'v11')")
        #expect(try reader.read { try watch.look() } == .changed(["t"]))
        #expect(try reader.read { try watch.look() } == .unchanged, "one slice read")
        // An update in place of a row past the slice read: the partial digest cannot tell, so it is a change.
        try writer.run("UPDATE t SET v = 'changed' WHERE id = 9")
        #expect(try reader.read { try watch.look() } == .changed(["t"]))
        // The digest read in full on that look: a rewrite as it was is no change.
        try writer.run("UPDATE t SET v = v")
        #expect(try reader.read { try watch.look() } == .unchanged)
    }
}
