/// The browser's keys, as the help overlay (`?`, F1) lists them.
///
/// One table, shown to the person and checked by the tests: every key listed
/// here does what it says.
///
///     loop.helpBindings = BrowserKeys.bindings
public enum BrowserKeys {
    public static let bindings: [(keys: String, description: String)] = [
        ("", "Browse"),
        ("↑/↓  j/k", "move the selection"),
        ("PgUp/PgDn  b/Space", "page up / down"),
        ("Home/End  g/G", "first / last bank"),
        ("{  }", "previous / next section"),
        ("f then a title", "jump to an index title: a year, a letter, a state"),
        ("Tab/Shift-Tab  1 2 3", "switch tab: Date, Name, State"),
        ("Enter/→", "show the bank's details"),
        ("Esc/←", "back; cancel; clear the search or the filter"),
        ("", "Change"),
        ("d/Delete", "Delete button on the row; Enter or d deletes it"),
        ("u  U", "undo the last delete; U: update from the FDIC"),
        ("", "Find"),
        ("/", "search by name as you type; Enter keeps the match"),
        ("n  N", "next / previous match"),
        ("\\", "filter by a predicate, e.g. state == \"CA\""),
        ("", "Screen"),
        ("c", "chart: failures by year (Enter shows the year)"),
        ("Ctrl-L", "redraw the screen"),
        ("?  F1", "this help (any key closes it)"),
        ("q", "quit"),
    ]
}
