import FetchedResults
import FetchedResultsUI
import SQLiteStore
import TerminalUI

/// A table's rows as a list screen tab: the query's sort and sections, a grid of its
/// columns (``TableQuery/gridKeys``; the `--title` column frozen) shown first unless
/// `--title`/`--subtitle` ask for the list, a cell of the title and subtitle columns for
/// that list, headers with counts when sectioned, `/` in the text columns.
///
///     let tab = TableListTab.make(opened.query)
///     var configuration = ListScreenConfiguration(title: "student", tabs: [tab])
enum TableListTab {
    /// The tab of `query`.
    static func make(_ query: TableQuery) -> ListTab {
        let titleKey = query.titleKey
        var tab = ListTab(
            title: query.label,
            entity: query.table,
            sortDescriptors: query.sortDescriptors,
            sectionNameKeyPath: query.section?.keyPath
        ) { row in
            cell(for: row, query: query)
        }
        tab.sectionIndexTitleProvider = indexTitle(for: query.section)
        let textColumns = query.columns.filter { $0.type == .text }.map(\.name)
        tab.searchKeyPaths = textColumns.contains(titleKey) ? [titleKey] : (textColumns.first.map { [$0] } ?? [])
        tab.searchDescription = tab.searchKeyPaths.first.map { "in \($0)" } ?? "(no text column)"
        tab.noun = ("row", "rows")
        // Without --track another process's write is a reset: refetched off the screen's thread.
        tab.refetchesInBackgroundOnReset = true
        tab.grid = grid(query)
        tab.startsAsGrid = query.startsAsGrid
        // An unsectioned list has no header: its one section's name and count say nothing the title bar does not.
        if query.section != nil {
            tab.headerTitle = { section in
                // NULL and empty text are both named "": told apart.
                let name = section.name.isEmpty ? (section.isNullKey ? "—" : "(empty)") : section.name
                return "\(name) (\(section.numberOfObjects))"
            }
            tab.provisionalHeaderTitle = { name in "\(name.isEmpty ? "—" : name) (…)" }
        }
        tab.objectName = { row in
            let title = query.displayText(of: row, key: titleKey)
            return title.isEmpty ? "row \(row.objectID.rowID)" : title
        }
        return tab
    }

    /// The grid of `query`'s ``TableQuery/gridKeys``: numbers right-aligned, NULL apart from
    /// empty text, a value as ``TableQuery/gridText(of:key:)`` writes it; the `--title` column
    /// frozen on the left.
    static func grid(_ query: TableQuery) -> ListGrid {
        ListGrid(
            columns: query.gridKeys.map { key in
                // A server table's timestamptz column names its zone once, in its header (`at (Europe/Paris)`).
                let type = query.columns.first { $0.name == key }?.type
                var column = ListColumn(query.columnLabels[key] ?? key, keyPath: key, type: type)
                column.text = { row in query.gridText(of: row, key: key) }
                column.isFrozen = query.titleIsChosen && key == query.titleKey
                // F counts a date column by its year, month and day too (the model has those keys: S offers them).
                if query.columns.first(where: { $0.name == key })?.isDateLike == true {
                    column.derivedKeyPaths = [SectionKeySpecification.Derivation.year, .month, .day].map {
                        SectionKeySpecification(column: key, derivation: $0).keyPath
                    }
                }
                return column
            }
        )
    }

    /// The cell of a row: the title column's value, and the subtitle columns' joined with ` · `
    /// (empty values left out), each as ``TableQuery/displayText(of:key:)`` writes it.
    static func cell(for row: ManagedObject, query: TableQuery) -> TableCell {
        let title = query.displayText(of: row, key: query.titleKey)
        let detail = query.subtitleKeys.map { query.displayText(of: row, key: $0) }.filter { !$0.isEmpty }
        return TableCell(
            style: .subtitle,
            title: title.isEmpty ? "—" : title,
            detail: detail.joined(separator: " · "),
            accessory: .disclosureIndicator
        )
    }

    /// The index title of a section name, at most 5 characters (the sidebar's width): a year
    /// whole (`2025`), a month or a day by its end (`25-06`, `06-27`), an initial (`A`), a
    /// column's short value whole (`CA`, `Math`), a longer one by its first letter upper-cased
    /// (UIKit's default); none for an empty name. A date key's section of the values that are not
    /// dates, `(not a date)`, is `?` (last, as its section is).
    static func indexTitle(for section: SectionKeySpecification?) -> ((String) -> String?)? {
        guard let section else { return nil }
        let dated = section.derivation != nil && section.derivation != .initial
        return { name in
            guard let first = name.first else { return nil }
            if dated && name == SectionKeySpecification.notADate { return "?" }
            if name.count <= 5 { return name }
            return dated ? String(name.suffix(5)) : String(first).uppercased()
        }
    }
}
