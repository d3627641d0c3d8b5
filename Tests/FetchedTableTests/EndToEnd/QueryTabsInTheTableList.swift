import Foundation
import TestSupport
import Testing

/// A query's tab in the browser, as the shared query-tab checks find it on screen — the same
/// steps for a SQLite file, a CSV file and a PostgreSQL server.
struct QueryTab {
    /// The query (typed on the `:` line, or given with `--query`).
    var sql: String
    /// What its tab's title and its line in the table list show (":1 SELECT name AS who").
    var title: String
    /// A word of its result's rows that the screens before its tab do not show.
    var row: String
    /// What its line in the table list says of it ("query · 2 rows").
    var listed: String
}

/// From a table's rows on screen (`table`: words they show; `tableRow`: one the query's tab does
/// not show): `tab` typed on the `:` line opens its tab, Esc goes back to the table, Esc again to
/// the table list, where the query is listed after each of `tables`, and its line (the last)
/// opens the tab again; Esc back to the list. Returns the list as it was first shown.
@discardableResult
func expectAQueryTabFromATableIsListedAfterTheTables(
    _ tmux: TmuxSession,
    tab: QueryTab,
    table: [String],
    tableRow: String? = nil,
    tables: [String]
) throws -> String {
    let hidesTheTable = { (screen: String) in tableRow.map { !screen.contains($0) } ?? true }
    tmux.type(":")
    tmux.type(tab.sql)
    tmux.press("Enter")
    // A frame caught half drawn (the query's running screen's title over the table's rows)
    // could meet the condition, and Esc would then cancel the run.
    _ = try tmux.waitUntilWhole("the query's tab", timeout: 40) {
        $0.contains(tab.title) && $0.contains(tab.row) && hidesTheTable($0)
    }
    tmux.press("Escape")
    _ = try tmux.waitUntil("the table again", timeout: 10) { screen in
        table.allSatisfy { screen.contains($0) } && !screen.contains(":1 ")
    }
    // Back from the table: the table list — its tables (a server's read in the background), then the query.
    tmux.press("Escape")
    let list = try tmux.waitUntil("the table list, the query after the tables", timeout: 15) { screen in
        tables.allSatisfy { screen.contains($0) } && screen.contains(tab.title) && screen.contains(tab.listed)
    }
    try expectListed(tables, before: tab.title, in: list)
    tmux.press("End")  // the last line: the query's
    tmux.press("Enter")
    _ = try tmux.waitUntil("the query's tab again", timeout: 10) {
        $0.contains(tab.row) && $0.contains(tab.title) && hidesTheTable($0) && !$0.contains("query ·")
    }
    tmux.press("Escape")
    _ = try tmux.waitUntil("the table list again", timeout: 10) { $0.contains(tab.listed) }
    return list
}

/// With the browser showing `launch`'s result (`fetchedtable SOURCE --query …`): `line` typed on
/// the `:` line opens a tab; Esc shows the launch query's result again, and Esc from it the
/// table list — each of `tables`, then the launch query, then the `:` line's; each query's line
/// opens its result again, and the list's first line, a table, opens that table (`firstTable`:
/// words it shows); Esc back to the list each time.
func expectTheLaunchQueryAndTheLinesTabAreListedAfterTheTables(
    _ tmux: TmuxSession,
    launch: QueryTab,
    line: QueryTab,
    tables: [String],
    firstTable: [String]
) throws {
    tmux.type(":")
    tmux.type(line.sql)
    tmux.press("Enter")
    _ = try tmux.waitUntilWhole("the : line's tab", timeout: 40) {
        $0.contains(line.title) && $0.contains(line.row) && !$0.contains(launch.row)
    }
    tmux.press("Escape")
    _ = try tmux.waitUntil("the launch query's result again", timeout: 10) {
        $0.contains(launch.row) && !$0.contains(":1 ")
    }
    // Back from it: the tables (a server's read in the background), then the launch query, then the : line's.
    tmux.press("Escape")
    let list = try tmux.waitUntil("the table list, the queries after the tables", timeout: 15) { screen in
        tables.allSatisfy { screen.contains($0) } && screen.contains(launch.listed) && screen.contains(line.title)
            && screen.contains(line.listed)
    }
    try expectListed(tables, before: launch.title, in: list)
    let lines = list.screenLines
    let launchLine = try #require(lines.firstIndex { $0.contains(launch.title) }, "\(list)")
    let tabLine = try #require(lines.firstIndex { $0.contains(line.title) }, "\(list)")
    #expect(launchLine < tabLine, "\(list)")
    tmux.press("End")  // the last line: the : line's query
    tmux.press("Enter")
    _ = try tmux.waitUntil("the : line's tab again", timeout: 10) {
        $0.contains(line.row) && $0.contains(line.title) && !$0.contains("query ·")
    }
    tmux.press("Escape")
    _ = try tmux.waitUntil("the table list again", timeout: 10) { $0.contains(line.listed) }
    tmux.press("Up")  // the launch query's line
    tmux.press("Enter")
    _ = try tmux.waitUntil("the launch query's result again", timeout: 10) {
        $0.contains(launch.row) && !$0.contains("query ·")
    }
    tmux.press("Escape")
    _ = try tmux.waitUntil("the table list again", timeout: 10) { $0.contains(launch.listed) }
    // A table of the source, opened from the list: its rows, and Esc back.
    tmux.press("Home")
    tmux.press("Enter")
    _ = try tmux.waitUntil("a table of the source", timeout: 15) { screen in
        firstTable.allSatisfy { screen.contains($0) } && !screen.contains("query ·")
    }
    tmux.press("Escape")
    _ = try tmux.waitUntil("the table list again", timeout: 10) { $0.contains(launch.listed) }
}

/// Each of `tables` has a line in the table list `list` (one that is no query's) above the line
/// of the query whose title is `query`.
private func expectListed(_ tables: [String], before query: String, in list: String) throws {
    let lines = list.screenLines
    let queryLine = try #require(lines.firstIndex { $0.contains(query) }, "\(list)")
    for table in tables {
        let tableLine = try #require(lines.firstIndex { $0.contains(table) && !$0.contains("SELECT") }, "\(list)")
        #expect(tableLine < queryLine, "\(table) before the query: \(list)")
    }
}
