import Foundation
import TestSupport
import Testing

/// A real full disk under the browser (no injected fault: the SQLite file on a 1 MiB tmpfs that
/// the test fills, ``SmallDisk``): `e`, `d` and `a` on a table each fail with the status line or
/// the form saying "the disk is full", the file unchanged (read back with the `sqlite3` shell),
/// and the same key again, once the room is back, saves exactly once — `u` then undoes that
/// write and nothing before it. Serialized: the machine's two cores are shared.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? "")),
    .enabled(if: SmallDisk.unavailableReason == nil, Comment(rawValue: SmallDisk.unavailableReason ?? ""))
)
struct TableFullDiskEndToEndTests {
    static let shop = """
        CREATE TABLE orders (id INTEGER PRIMARY KEY, name TEXT NOT NULL, qty INTEGER);
        INSERT INTO orders VALUES (1, 'pen', 3), (2, 'ink', 0), (3, 'pad', 5);
        """

    @Test func editDeleteAndAddOnAFullDiskSayItChangeNothingAndAreSavedOnceWhenThereIsRoom() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let disk = try SmallDisk(at: fixture.directory.appendingPathComponent("disk").path)
        defer { disk.unmount() }
        let database = try fixture.database("disk/shop.db", Self.shop)
        let tmux = try fixture.launch(
            [database, "--table", "orders", "--columns", "name, qty", "--sort", "id"],
            width: 100,
            height: 14
        )
        defer { tmux.close() }
        try tmux.waitFor("pad", timeout: 10)
        func rows() throws -> String {
            try fixture.sql("SELECT id, name, qty FROM orders ORDER BY id", database: database)
        }
        let original = "1|pen|3\n2|ink|0\n3|pad|5"

        // e: the editor stays open with the text; Enter again once there is room saves it.
        try tmux.openEditor("l")
        try disk.fill()
        try tmux.enter("7", shows: "Not saved: the disk is full")
        #expect(try rows() == original)
        disk.makeRoom()
        tmux.send("Enter")
        try tmux.waitFor("Edited qty of")
        #expect(try rows() == "1|pen|7\n2|ink|0\n3|pad|5")

        // d on pad: said, pad kept; d again once there is room deletes it.
        try disk.fill()
        tmux.send("j", "j", "d")
        try tmux.waitFor("Delete")
        tmux.send("Enter")
        try tmux.waitFor("Could not delete pad: the disk is full")
        #expect(try rows() == "1|pen|7\n2|ink|0\n3|pad|5")
        disk.makeRoom()
        try tmux.deleteRow()
        #expect(try rows() == "1|pen|7\n2|ink|0")

        // a: the form stays open with what was typed; Ctrl-S again once there is room adds one row.
        try disk.fill()
        tmux.send("a")
        try tmux.waitUntil("the form", timeout: 10) { $0.contains("New row in orders") && $0.contains("name *") }
        tmux.fillAndSave("cap", "4")
        let refused = try tmux.waitFor("Not saved: the disk is full")
        #expect(refused.contains("New row in orders") && refused.contains("cap"), "\(refused)")
        #expect(try rows() == "1|pen|7\n2|ink|0")
        disk.makeRoom()
        tmux.send("C-s")
        try tmux.waitUntil("the new row in the grid") { $0.contains("cap") && !$0.contains("New row in orders") }
        #expect(try rows() == "1|pen|7\n2|ink|0\n3|cap|4")  // pad's id is free again

        // Each write is on the undo stack once, the failed tries nowhere: three u's undo the add,
        // the delete and the edit, and the file is as it was.
        try tmux.undo("Added “cap”")
        try tmux.undo("Deleted pad")
        try tmux.undo("Edited qty of pen")
        #expect(try rows() == original)
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
