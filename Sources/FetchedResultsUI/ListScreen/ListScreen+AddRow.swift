import SQLiteStore
import TerminalUI

extension ListScreen {
    /// `a` (fetchedtable's key): pushes `form`'s form of a new row, which saves through the
    /// screen's context (undone by `u`, redone by Ctrl-R) and selects the row; or says on the
    /// status line why no row can be added now — the store is read-only
    /// (``ListScreenConfiguration/readOnlyReason``: a view, a CSV file's cache, a read-only file),
    /// or a change waits for another program's lock.
    ///
    /// With `insert`, the form's row goes there instead (``RecordForm/Insert``: a server's table).
    package func beginAddingRow(with form: RecordForm, insert: RecordForm.Insert? = nil) {
        if isLoading {
            statusLine.showMessage(
                "Cannot add a row yet: the list is still loading",
                at: now,
                duration: 8,
                style: .error
            )
            return
        }
        let reason =
            configuration.readOnlyReason
            ?? (writeWaitingForLock != nil ? "a change waits for another program's lock" : nil)
        if let reason {
            statusLine.showMessage("Cannot add a row: \(reason)", at: now, duration: 8, style: .error)
            return
        }
        loop.push(insert.map { form.newRowForm(in: self, insert: $0) } ?? form.form(editing: nil, in: self))
    }
}
