import Foundation
import TestSupport

/// The steps the browser's editing tests take in its tmux pane, each waited for on screen: a cell
/// edited (`e`, the editor's text replaced, Enter), a row deleted (`d`, Enter), the add-row form
/// filled and saved, a change undone (`u`) and redone (Ctrl-R). What the file holds after each
/// step the tests read back themselves with the `sqlite3` shell (``TableFixture/sql(_:database:)``).
///
///     try tmux.openEditor("l")
///     try tmux.enter("2.25", shows: "Edited price of")
///     #expect(try fixture.sql("SELECT price FROM item WHERE id = 1", database: database) == "2.25")
///     try tmux.undo("Edited price of")
extension TmuxSession {
    /// `moves` (to the cell), then `e`: waits for the cell's editor.
    func openEditor(_ moves: String...) throws {
        send(each: moves + ["e"])
        try waitFor("Enter saves")
    }

    /// In the open editor: its text replaced by `value` (Ctrl-U, then `value` typed) and Enter;
    /// waits for `message` (the refusal that keeps the editor open, or the status line's
    /// "Edited …").
    func enter(_ value: String, shows message: String) throws {
        send("C-u")
        type(value)
        send("Enter")
        try waitFor(message)
    }

    /// `moves` (to the row), then `d` and Enter on the Delete button: waits for the status line's
    /// "u to undo".
    func deleteRow(_ moves: String...) throws {
        send(each: moves + ["d"])
        try waitFor("Delete")
        send("Enter")
        try waitFor("u to undo")
    }

    /// In the open add-row form: Tab and each of `values` typed (the fields after the first in
    /// turn), then Ctrl-S.
    func fillAndSave(_ values: String...) {
        for value in values {
            send("Tab")
            type(value)
        }
        send("C-s")
    }

    /// `u`: waits for "Undone: `change`".
    func undo(_ change: String) throws {
        send("u")
        try waitFor("Undone: \(change)")
    }

    /// Ctrl-R: waits for "Redone: `change`".
    func redo(_ change: String) throws {
        send("C-r")
        try waitFor("Redone: \(change)")
    }

    /// ``send(_:)`` of each of `keys` in turn.
    private func send(each keys: [String]) {
        for key in keys { send(key) }
    }
}
