import Foundation
import TestSupport
import Testing

/// `e`, `d` and `a` on a server table — through its copy (`--table`) and through a query's
/// result (`--query`) — while the server refuses every write of the table as it does on a full
/// disk or a serialization failure (``ServerWriteFault``: a trigger raising SQLSTATE 53100 or
/// 40001): the status line (or the form) names why, the server's row stays and the screen shows
/// it, and the same key again once the server takes writes makes the change once; `u` and
/// Ctrl-R refused the same way keep their change, and make it when pressed again.
/// Serialized: the machine's two cores are shared.
@Suite(
    .serialized,
    .enabled(
        if: PostgresFixture.tmuxUnavailableReason == nil,
        Comment(rawValue: PostgresFixture.tmuxUnavailableReason ?? "")
    )
)
struct PostgresWriteFaultEndToEndTests {
    static let schema = """
        CREATE TABLE orders (id bigint PRIMARY KEY, name text NOT NULL, qty int);
        INSERT INTO orders VALUES (1, 'pen', 3), (2, 'ink', 0), (3, 'pad', 5);

        """ + ServerWriteFault.harness(on: "orders")

    static let diskFull = "the server's disk is full — could not extend file"
    static let serialization = "another transaction got in the way; try again — could not serialize access"

    @Test(arguments: ["--table", "--query"])
    func writesTheServerRefusesAreNamedChangeNothingAndAreMadeOnceWhenTriedAgain(source: String) throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        let arguments =
            source == "--table"
            ? [fixture.uri, "--table", "orders", "--sort", "id"]
            : [fixture.uri, "--query", "SELECT id, name, qty FROM orders", "--sort", "id"]
        let tmux = try fixture.launch(arguments, width: 130, height: 14)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the rows", timeout: 20) {
            $0.contains("pen") && $0.contains("pad") && (source == "--query" || $0.contains("3 rows"))
        }
        let rows = { try fixture.psql("SELECT id, name, qty FROM orders ORDER BY id") }
        let original = "1|pen|3\n2|ink|0\n3|pad|5"
        func shows(_ name: String, _ qty: String) -> (String) -> Bool {
            { $0.screenLines.contains { $0.contains(name) && $0.hasSuffix(" \(qty)") } }
        }

        // e on pen's qty: named; Esc, and the grid shows the server's 3; e again once it takes writes.
        try fixture.psql(ServerWriteFault.diskFull.arm)
        tmux.send("l", "l", "e")
        try tmux.waitFor("Enter saves")
        tmux.send("C-u")
        tmux.type("7")
        tmux.send("Enter")
        try tmux.waitFor("Not saved: \(Self.diskFull)", timeout: 15)
        try tmux.waitFor("Enter saves")  // the editor back with the text typed
        tmux.press("Escape")
        try tmux.waitUntil("pen's qty as the server holds it", shows("pen", "3"))
        #expect(try rows() == original)
        try fixture.psql(ServerWriteFault.disarm)
        tmux.send("e")
        try tmux.waitFor("Enter saves")
        tmux.send("C-u")
        tmux.type("7")
        tmux.send("Enter")
        try tmux.waitFor("— u to undo", timeout: 15)
        #expect(try rows() == "1|pen|7\n2|ink|0\n3|pad|5")
        try tmux.waitUntil("pen's new qty", timeout: 20, shows("pen", "7"))

        // d on pad: named, pad still there and shown; d again deletes it.
        try fixture.psql(ServerWriteFault.serializationFailure.arm)
        tmux.send("j", "j", "d")
        try tmux.waitFor("Delete")
        tmux.send("Enter")
        let refused = try tmux.waitFor(Self.serialization, timeout: 15)
        #expect(refused.contains("Could not delete"), "\(refused)")
        #expect(try rows() == "1|pen|7\n2|ink|0\n3|pad|5")
        #expect(shows("pad", "5")(tmux.capture()), "\(tmux.capture())")
        try fixture.psql(ServerWriteFault.disarm)
        tmux.send("d")
        try tmux.waitFor("Delete")
        tmux.send("Enter")
        try tmux.waitFor("— u to undo", timeout: 15)
        #expect(try rows() == "1|pen|7\n2|ink|0")
        try tmux.waitUntil("pad gone", timeout: 20) { !$0.contains("pad") }

        // a: the form back with what was typed; Ctrl-S again adds the row once.
        try fixture.psql(ServerWriteFault.diskFull.arm)
        tmux.send("a")
        try tmux.waitUntil("the form", timeout: 15) { $0.contains("New row in orders") && $0.contains("name *") }
        tmux.type("4")
        tmux.send("Tab")
        tmux.type("cap")
        tmux.send("Tab")
        tmux.type("4")
        tmux.send("C-s")
        let form = try tmux.waitFor("Not saved: \(Self.diskFull)", timeout: 15)
        #expect(form.contains("New row in orders") && form.contains("cap"), "\(form)")
        #expect(try rows() == "1|pen|7\n2|ink|0")
        try fixture.psql(ServerWriteFault.disarm)
        tmux.send("C-s")
        try tmux.waitUntil("the row added", timeout: 15) { $0.contains("u to undo") && !$0.contains("New row in") }
        #expect(try rows() == "1|pen|7\n2|ink|0\n4|cap|4")
        try tmux.waitUntil("cap in the grid", timeout: 20, shows("cap", "4"))

        // u refused: the add stays to undo; u again undoes it. Ctrl-R refused: stays to redo.
        try fixture.psql(ServerWriteFault.diskFull.arm)
        tmux.send("u")
        try tmux.waitFor("Could not undo: \(Self.diskFull)", timeout: 15)
        #expect(try rows() == "1|pen|7\n2|ink|0\n4|cap|4")
        try fixture.psql(ServerWriteFault.disarm)
        tmux.send("u")
        try tmux.waitFor("Undone: Added", timeout: 15)
        #expect(try rows() == "1|pen|7\n2|ink|0")
        try fixture.psql(ServerWriteFault.serializationFailure.arm)
        tmux.send("C-r")
        try tmux.waitFor("Could not redo: \(Self.serialization)", timeout: 15)
        #expect(try rows() == "1|pen|7\n2|ink|0")
        try fixture.psql(ServerWriteFault.disarm)
        tmux.send("C-r")
        try tmux.waitFor("Redone: Added", timeout: 15)
        #expect(try rows() == "1|pen|7\n2|ink|0\n4|cap|4")
        // The rest of the stack as made: u three times undoes the add, the delete and the edit.
        for change in ["Undone: Added", "Undone: Deleted", "Undone: Edited qty of"] {
            tmux.send("u")
            try tmux.waitFor(change, timeout: 15)
        }
        #expect(try rows() == original)
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
