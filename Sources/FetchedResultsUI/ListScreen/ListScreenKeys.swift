import Foundation

/// The keys of a ``ListScreen``, as its help overlay (`?`, F1) lists them:
/// the browse, change, find and screen keys every list has, worded for the app's nouns and tabs, with the app's
/// own ``ListKeyBinding``s under "Commands".
///
/// One table, shown to the person and checked by the tests: every key listed
/// does what it says.
///
///     loop.helpBindings = ListScreenKeys.bindings(for: configuration)
public enum ListScreenKeys {
    /// The help lines for `configuration` (a title line has empty keys).
    public static func bindings(for configuration: ListScreenConfiguration) -> [(keys: String, description: String)] {
        let tabs = configuration.tabs
        let noun = tabs[0].noun.singular
        var lines: [(keys: String, description: String)] = [
            ("", "Browse"),
            ("↑/↓  j/k", "move the selection"),
            ("PgUp/PgDn  b/Space", "page up / down"),
            ("Home/End  g/G", "first / last \(noun)"),
            ("{  }", "previous / next section"),
            ("f then a title", "jump to an index title: \(configuration.indexTitleDescription)"),
        ]
        if tabs.count > 1 {
            let numbers = (1...min(9, tabs.count)).map(String.init).joined(separator: " ")
            lines.append(
                (
                    "Tab/Shift-Tab  \(numbers)",
                    "switch tab: \(tabs.map(\.title).joined(separator: ", "))"
                )
            )
        }
        // In a grid ←/→ move the column cursor: Enter and Esc open and go back there.
        let grids = tabs.contains { $0.grid != nil }
        if grids {
            // Two lines for the column's keys (and Ctrl-L shares ?'s): failedbanks' help fits 80×24.
            lines.append(("←/→ h/l  ! - +", "in a grid: the column cursor; freeze, hide it; show all"))
            lines.append(("[ ] H L < > C F I t", "sort, move, size; columns/frequency/summary; type"))
        }
        if grids {
            // One line for both, so that the grid's line costs none (the help fits 80×24).
            let back = "Esc: back, cancel, clear the search or filter (→ ← too in a list)"
            if configuration.detailScreen != nil {
                lines.append(("Enter  Esc", "\(configuration.detailDescription); \(back)"))
            } else {
                lines.append(("Esc", back))
            }
        } else {
            if configuration.detailScreen != nil { lines.append(("Enter/→", configuration.detailDescription)) }
            lines.append(("Esc/←", "back; cancel; clear the search or the filter"))
        }
        if configuration.allowsDelete || configuration.allowsCellEdits {
            lines.append(("", "Change"))
            if configuration.allowsCellEdits {
                lines.append(("e", "edit the cell (Enter saves, Esc cancels, Ctrl-U clears, Ctrl-N ∅)"))
            }
            if configuration.allowsDelete {
                lines.append(("d/Delete", "Delete button on the row; Enter or d deletes it"))
            }
            lines.append(("u", "undo the last change"))
            if configuration.allowsCellEdits { lines.append(("Ctrl-R", "redo what u undid")) }
        }
        let commandsIndex = lines.count
        lines.append(("", "Find"))
        if grids {
            lines.append(("/", "search \(tabs[0].searchDescription) (a grid: every column shown); Enter keeps it"))
        } else {
            lines.append(("/", "search \(tabs[0].searchDescription) as you type; Enter keeps the match"))
        }
        lines.append(("n  N", "next / previous match"))
        for (index, example) in configuration.filterExample.enumerated() {
            lines.append(index == 0 ? ("\\", "filter by a predicate, e.g. \(example)") : ("  ", example))
        }
        if configuration.filterExample.isEmpty { lines.append(("\\", "filter by a predicate; Esc clears")) }
        lines.append(("", "Screen"))
        if grids {
            lines.append(("?  F1  Ctrl-L", "this help (any key closes it); Ctrl-L redraws the screen"))
            // Ctrl-S shares q's line, so that it costs none (failedbanks' help fits 80×24).
            lines.append(("Ctrl-S  q", "save the rows shown (.csv .tsv .jsonl .sqlite); q: quit"))
        } else {
            lines += [("Ctrl-L", "redraw the screen"), ("?  F1", "this help (any key closes it)"), ("q", "quit")]
        }
        lines = placing(configuration.keyBindings, in: lines, commandsAt: commandsIndex)
        return lines + configuration.extraHelp
    }

    /// `lines` with the app's bindings where their ``ListKeyBinding/helpPlacement`` says;
    /// those under "Commands" go in a section of that name at `commandsAt`.
    private static func placing(
        _ bindings: [ListKeyBinding],
        in lines: [(keys: String, description: String)],
        commandsAt commandsIndex: Int
    ) -> [(keys: String, description: String)] {
        var lines = lines
        var commands: [(keys: String, description: String)] = []
        for binding in bindings {
            // A binding of a built-in key takes its place (it is the one the key runs): listed once.
            let sharesALine = if case .sharingLine = binding.helpPlacement { true } else { false }
            if !sharesALine, let builtIn = lines.firstIndex(where: { !$0.keys.isEmpty && $0.keys == binding.keys }) {
                lines[builtIn] = (binding.keys, binding.description)
                continue
            }
            switch binding.helpPlacement {
            case .commands:
                commands.append((binding.keys, binding.description))
            case .section(let heading):
                guard let start = lines.firstIndex(where: { $0.keys.isEmpty && $0.description == heading }) else {
                    commands.append((binding.keys, binding.description))
                    continue
                }
                let end = lines[(start + 1)...].firstIndex { $0.keys.isEmpty } ?? lines.count
                lines.insert((binding.keys, binding.description), at: end)
            case .sharingLine(let keys):
                guard let index = lines.firstIndex(where: { $0.keys == keys }) else {
                    commands.append((binding.keys, binding.description))
                    continue
                }
                lines[index] = (
                    "\(lines[index].keys)  \(binding.keys)",
                    "\(lines[index].description); \(binding.keys): \(binding.description)"
                )
            }
        }
        if !commands.isEmpty {
            // Sections placed before "Find" moved it down by the lines inserted above it.
            let find =
                lines.firstIndex { $0.keys.isEmpty && $0.description == "Find" } ?? min(commandsIndex, lines.count)
            lines.insert(contentsOf: [("", "Commands")] + commands, at: find)
        }
        return lines
    }
}
