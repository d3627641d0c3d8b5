import FetchedResults
import FetchedResultsUI
import FetchedTableKit
import Foundation
import SQLiteStore
import TerminalUI
import Timekeeping

/// `edit_cell_ms`: a cell edited in the list screen's grid over the `generic` group's events
/// table (`--table-rows` rows, 1M in the figure), from Enter to the frame that shows it.
///
/// The cached database is copied into the run's folder (the runs change it), opened as
/// `fetchedtable` opens it (the catalog's entity, the hands-off store, `ts desc` sectioned by
/// `day(ts)`), and shown by a ``ListScreen`` on an in-memory 200×50 screen as a grid of its
/// columns with cell edits on. Each run selects the next row, presses `e` on the `message`
/// column, Ctrl-U and types a new message (untimed); the time is Enter — the text converted,
/// the row saved through the context in its own transaction (named for undo), the change
/// set through the controller — and the next frame, which must show the new message.
/// One warm-up run, then 21 timed. The reference, `edit_cell_sqlite3_ms`: a bare `UPDATE` of one
/// row in its own transaction on the same file (`edit_cell_vs_sqlite3_ratio` = the edit over it).
struct EditCellBenchmark {
    let runner: BenchRunner
    let database: String

    func run() throws {
        let copy = runner.workspace.path("events-edit.sqlite")
        runner.workspace.removeDatabase(copy)
        try FileManager.default.copyItem(atPath: database, toPath: copy)
        defer { runner.workspace.removeDatabase(copy) }

        let opened = try EventsFetch.open(copy, readOnly: false)
        let query = opened.query
        var tab = ListTab(
            title: "events",
            entity: query.table,
            sortDescriptors: query.sortDescriptors,
            sectionNameKeyPath: query.section?.keyPath
        ) { row in TableCell(title: row.string("message") ?? "") }
        tab.grid = ListGrid(columns: ["ts", "level", "service", "message"].map { ListColumn($0) })
        tab.startsAsGrid = true
        var configuration = ListScreenConfiguration(title: "events", tabs: [tab])
        configuration.allowsCellEdits = true
        configuration.animated = false
        configuration.previewsFirstPage = false
        let screen = MemoryBackend(width: 200, height: 50)
        let loop = TerminalRunLoop(backend: screen, minimumWidth: 24, minimumHeight: 8)
        let list = try ListScreen(context: ObjectContext(store: opened.store), configuration: configuration, loop: loop)
        defer { while loop.pop() != nil {} }
        loop.draw()
        for _ in 0..<3 { loop.dispatch(.right) }  // the message column

        var times: [Double] = []
        var saveTimes: [Double] = []
        var problems: [String] = []
        for index in 0...runner.configuration.runs(small: 21, large: 21) {  // 0: warm-up
            let message = "edited by the bench, run \(index)"
            loop.dispatch(.down)
            loop.draw()
            loop.dispatch(.character("e"))
            loop.dispatch(.control("u"))
            for character in message { loop.dispatch(.character(character)) }
            let start = MonotonicClock.seconds()
            loop.dispatch(.enter)
            let saved = MonotonicClock.seconds()
            loop.draw()
            let seconds = MonotonicClock.seconds() - start
            if index > 0 { saveTimes.append(saved - start) }
            if list.isEditingCell || !screen.text.contains(message), problems.isEmpty {
                problems.append("run \(index): the edit is not on screen after Enter")
            }
            if index > 0 { times.append(seconds) }
        }
        // The reference: one row's message set by a bare UPDATE in a transaction of its own, on the
        // same file through a connection of its own, as `sqlite3` runs it — the rollback journal's syncs
        // the edit cannot do without (`edit_cell_vs_sqlite3_ratio`: how far above them the edit is).
        var options = Database.Options()
        options.walMode = false
        let bare = try Database(path: copy, options: options)
        var bareTimes: [Double] = []
        for index in 0...runner.configuration.runs(small: 21, large: 21) {  // 0: warm-up
            let start = MonotonicClock.seconds()
            try bare.transaction {
                try bare.run(
                    "UPDATE events SET message = ? WHERE id = ?",
                    [.text("set by a bare UPDATE, run \(index)"), .integer(Int64(index + 1))]
                )
            }
            if index > 0 { bareTimes.append(MonotonicClock.seconds() - start) }
        }
        runner.results.setMedian("edit_cell_sqlite3_ms", of: bareTimes, scale: 1000)
        for problem in problems { runner.results.note("edit cell: \(problem)") }
        runner.log(String(format: "edit cell: %d rows, %d edits", list.adapter.controller.numberOfObjects, times.count))
        runner.results.setMedian("edit_cell_ms", of: times, scale: 1000)
        // The part of it that is Enter alone (the save and the controller's change), not the frame.
        runner.results.setMedian("edit_cell_save_ms", of: saveTimes, scale: 1000)
        runner.results.setRatio("edit_cell_vs_sqlite3_ratio", "edit_cell_ms", "edit_cell_sqlite3_ms")
    }
}
