import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// What a ``TableChangeWatch`` tells of an untracked table: a digest the count made stale is
/// read again a slice per quiet look; once it is whole it tells a rewrite of the rows as they
/// were, and a commit to another table, from a change.
@Suite struct TableChangeWatchTests {
    @Test func aDigestReadInSlicesOverQuietLooksIsTheWholeTablesDigest() throws {
        let file = try WatchedFile(digestRowsPerLook: 3)
        #expect(try file.look() == .unchanged)
        try file.writer.run("INSERT INTO t VALUES (11, 'v11')")
        #expect(try file.look() == .changed(["t"]), "the count moved")
        // 11 rows, 3 a look: the digest is whole after the fourth quiet look.
        for _ in 0..<4 { #expect(try file.look() == .unchanged) }
        try file.writer.run("INSERT INTO other VALUES (1)")
        #expect(try file.look() == .unchanged, "a commit to another table")
        try file.writer.run("UPDATE t SET v = v")
        #expect(try file.look() == .unchanged, "every row rewritten as it was")
        try file.writer.run("UPDATE t SET v = 'changed' WHERE id = 5")
        #expect(try file.look() == .changed(["t"]), "an update in place")
    }

    @Test func anInsertIsToldByTheLargestRowIDAloneAndTheCountReadAtTheNextQuietLook() throws {
        let file = try WatchedFile()
        #expect(try file.look() == .unchanged)
        let counted = file.watch.rowCounts
        try file.writer.run("INSERT INTO t VALUES (11, 'v11')")
        #expect(try file.look() == .changed(["t"]))
        #expect(file.watch.rowCounts == counted, "the look after an insert walks none of the table's pages")
        // A delete before the count was read again: the largest row id stays, the count is unknown.
        try file.writer.run("DELETE FROM t WHERE id = 3")
        #expect(try file.look() == .changed(["t"]))
        try file.writer.run("INSERT INTO t VALUES (12, 'v12')")
        #expect(try file.look() == .changed(["t"]))
        #expect(try file.look() == .unchanged, "the count and the digest read again")
        try file.writer.run("DELETE FROM t WHERE id = 4")
        #expect(try file.look() == .changed(["t"]), "the count moved")
        #expect(try file.look() == .unchanged)
        try file.writer.run("UPDATE t SET v = v")
        #expect(try file.look() == .unchanged, "every row rewritten as it was")
        try file.writer.run("UPDATE t SET v = 'changed' WHERE id = 11")
        #expect(try file.look() == .changed(["t"]), "an update in place")
    }

    @Test func aCommitBeforeTheDigestIsWholeIsTakenForAChange() throws {
        let file = try WatchedFile(digestRowsPerLook: 3)
        #expect(try file.look() == .unchanged)
        try file.writer.run("INSERT INTO t VALUES (11, 'v11')")
        #expect(try file.look() == .changed(["t"]))
        #expect(try file.look() == .unchanged, "one slice read")
        // An update in place of a row past the slice read: the partial digest cannot tell, so it is a change.
        try file.writer.run("UPDATE t SET v = 'changed' WHERE id = 9")
        #expect(try file.look() == .changed(["t"]))
        // The digest read in full on that look: a rewrite as it was is no change.
        try file.writer.run("UPDATE t SET v = v")
        #expect(try file.look() == .unchanged)
    }

    /// A file with a table `t` of ten rows (and a table `other`), its writer, and a watch of `t` on
    /// a read-only connection of its own, started.
    struct WatchedFile {
        let folder = TemporaryDirectory("table-change-watch")
        let writer: Database
        let reader: Database
        let watch: TableChangeWatch

        init(digestRowsPerLook: Int? = nil) throws {
            let path = folder.path("watched.sqlite")
            writer = try Database(path: path)
            try writer.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
            try writer.execute("CREATE TABLE other (x)")
            for id in 1...10 {
                try writer.run("INSERT INTO t VALUES (?, ?)", [.integer(Int64(id)), .text("v\(id)")])
            }
            reader = try Database.openForQueries(path: path)
            watch = TableChangeWatch(database: reader, tables: ["t"], tracking: .standard)
            if let digestRowsPerLook { watch.digestRowsPerLook = digestRowsPerLook }
            try reader.read { try watch.start() }
        }

        /// One look of the watch, in a read of its connection.
        func look() throws -> TableChangeWatch.Finding { try reader.read { try watch.look() } }
    }
}
