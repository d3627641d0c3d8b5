import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

extension ListScreen {
    /// Changes the tab showing — its sort, its section key, its cell — and shows it
    /// refetched with the filter in force; the selection stays on the same object.
    /// A change the controller refuses (a section key the sort does not order by)
    /// leaves the tab as it was and says why on the status line.
    ///
    ///     try screen.reconfigureTab { tab in
    ///         tab.sortDescriptors = [FetchSort("city")]
    ///         tab.sectionNameKeyPath = "city"
    ///     }
    ///
    /// - Throws: the new fetch's error (the tab is then unchanged).
    public func reconfigureTab(_ change: (inout ListTab) -> Void) throws {
        guard !isLoading else { return }
        var newTab = tab
        change(&newTab)
        let controller = makeController(for: newTab, filter: filter)
        try controller.performFetch()
        let selected = adapter.selectedObjectID
        configuration.tabs[tabIndex] = newTab
        applyTabLayout()
        adapter.headerTitle = newTab.headerTitle
        table.emptyMessage = newTab.emptyMessage ?? "No \(newTab.noun.plural)"
        adapter.swap(to: controller)
        if let selected { adapter.select(selected) }
        search = nil
    }

    /// `o`: a picker of the columns `keys` to sort by, ascending or descending (Tab
    /// switches); the choice goes through `apply` into the tab (``reconfigureTab(_:)``),
    /// and the list shows its top (the first rows of the new order, not the old selection
    /// far down it).
    ///
    ///     screen.showSortPicker(keys: ["name", "city"], selected: 0, ascending: true) { index, ascending, tab in
    ///         tab.sortDescriptors = [FetchSort(["name", "city"][index], ascending: ascending)]
    ///     }
    public func showSortPicker(
        keys: [String],
        selected: Int,
        ascending: Bool,
        apply: @escaping (_ index: Int, _ ascending: Bool, _ tab: inout ListTab) -> Void
    ) {
        let picker = ChoicePicker(
            title: "Sort by",
            choices: keys,
            selectedIndex: selected,
            variants: ["ascending", "descending"],
            variantIndex: ascending ? 0 : 1
        )
        picker.onChoose = { [unowned self] index, variant in
            self.reconfigureAtTop(describing: "sort by \(keys[index])") { tab in apply(index, variant == 0, &tab) }
        }
        loop.push(picker)
    }

    /// `S`: a picker of section keys (their `titles`, "none" among them as the app words it);
    /// the choice goes through `apply` into the tab (``reconfigureTab(_:)``), and the list
    /// shows its top.
    ///
    ///     screen.showSectionPicker(titles: ["none", "state", "year(closed)"], selected: 1) { index, tab in
    ///         tab.sectionNameKeyPath = [nil, "state", "year(closed)"][index]
    ///     }
    public func showSectionPicker(
        titles: [String],
        selected: Int,
        apply: @escaping (_ index: Int, _ tab: inout ListTab) -> Void
    ) {
        let picker = ChoicePicker(title: "Sections by", choices: titles, selectedIndex: selected)
        picker.onChoose = { [unowned self] index, _ in
            self.reconfigureAtTop(describing: "section by \(titles[index])") { tab in apply(index, &tab) }
        }
        loop.push(picker)
    }

    /// ``reconfigureTab(_:)`` landing on the first row, its failure on the status line.
    func reconfigureAtTop(describing what: String, _ change: (inout ListTab) -> Void) {
        do {
            try reconfigureTab(change)
            table.scrollOffset = 0
            table.selectRow(at: IndexPath(row: 0, section: 0))
        } catch {
            statusLine.showMessage("Cannot \(what): \(error)", at: now, duration: 8, style: .error)
        }
    }
}
