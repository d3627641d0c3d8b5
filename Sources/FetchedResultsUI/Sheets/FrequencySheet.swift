import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

/// The list screen's `F`: the cursor column's values, each with its count, its share of the
/// rows and a bar, most frequent first — a ``GroupedResultsController`` over the rows the
/// list shows (the tab's predicate and the filter), so it changes as they do: a row another
/// process inserts, changes or deletes moves the counts on screen, animated, without a key.
///
/// Enter filters the list to the selected value (on top of the filter in force) and goes
/// back to it; Tab counts by the next of the column's ``ListColumn/derivedKeyPaths``
/// (`year(col)`, `month(col)`) and back; Esc goes back.
final class FrequencySheet: GridSheet {
    /// One way to count the column: its title in the sheet and the key path.
    struct Key {
        var title: String
        var keyPath: String
    }

    let context: ObjectContext
    let request: FetchRequest
    let column: ListColumn
    let keys: [Key]
    private(set) var keyIndex = 0
    /// Counting on the store's second connection after a reset (a table of millions of rows).
    let refetchesInBackgroundOnReset: Bool
    /// Enter: the key path and the value chosen.
    var onChoose: ((_ keyPath: String, _ value: StoreValue) -> Void)?
    private(set) var controller: GroupedResultsController
    /// True while the first count runs in the background.
    private(set) var isCounting = false
    /// Why counting failed, if it did.
    private(set) var failure: String?
    /// Cells of the bar column this frame.
    private var barWidth = 20
    /// Batches the table refused (should never happen).
    private(set) var log: [String] = []

    init(
        context: ObjectContext,
        request: FetchRequest,
        column: ListColumn,
        loop: TerminalRunLoop,
        refetchesInBackgroundOnReset: Bool,
        animated: Bool = true
    ) {
        self.context = context
        self.request = request
        self.column = column
        self.refetchesInBackgroundOnReset = refetchesInBackgroundOnReset
        var keyList = [Key(title: column.name, keyPath: column.keyPath)]
        for keyPath in column.derivedKeyPaths { keyList.append(Key(title: keyPath, keyPath: keyPath)) }
        keys = keyList
        controller = GroupedResultsController(fetchRequest: request, context: context, groupKeyPath: column.keyPath)
        let titles = keyList.map { $0.title }
        let tab = titles.count > 1 ? "  Tab \(titles.dropFirst().joined(separator: ", "))" : ""
        let tabHelp = titles.count > 1 ? "count by \(titles.joined(separator: " → "))" : "(one way to count)"
        super.init(
            title: "\(column.name) · frequency",
            columns: FrequencySheet.columns(title: column.name, type: column.type),
            loop: loop,
            hints: "Enter only these rows\(tab)  Esc back  ? help",
            helpBindings: [
                ("", "Frequency of \(column.name)"),
                ("↑/↓  PgUp/PgDn  g/G", "move"),
                ("Enter", "show only the rows of this value in the list"),
                ("Tab", tabHelp),
                ("Esc", "back to the list"),
                ("q", "quit"),
            ]
        )
        table.emptyMessage = "No rows"
        table.animatesUpdates = animated
    }

    /// Counts, in the background when it can (call once, before the sheet shows).
    func start() { count() }

    static func columns(title: String, type: AttributeType?) -> [GridColumn] {
        let numeric = type == .integer || type == .real
        return [
            GridColumn(title, alignment: numeric ? .trailing : .leading),
            GridColumn("count", alignment: .trailing),
            GridColumn("%", alignment: .trailing),
            GridColumn("", maximumWidth: 200),
        ]
    }

    /// Counts by the current key: in the background when the store has a second connection
    /// (the sheet answers keys meanwhile), else here.
    private func count() {
        let key = keys[keyIndex]
        controller.onChange = nil
        controller.cancelBackgroundWork()
        controller = GroupedResultsController(fetchRequest: request, context: context, groupKeyPath: key.keyPath)
        controller.refetchesInBackgroundOnReset = refetchesInBackgroundOnReset
        // The background work's end comes back through the loop: nothing polls for it.
        controller.onBackgroundWorkFinished = loop.poster { [weak self] in self?.installBackgroundWork() }
        failure = nil
        navigationBar.title = "\(key.title) · frequency"
        var columns = FrequencySheet.columns(title: key.title, type: keyIndex == 0 ? column.type : nil)
        columns[0].title = key.title
        table.gridColumns = columns
        if controller.startInBackground(.fetch) == .started {
            isCounting = true
            table.reloadData()
        } else {
            do { try controller.performFetch() } catch { failure = "\(error)" }
            didCount()
        }
    }

    /// The groups are there: the table shows them from the top, and the changes follow.
    private func didCount() {
        isCounting = false
        let controller = self.controller
        controller.onChange = { [weak self, unowned controller] batch in
            guard let self, controller === self.controller else { return }
            self.apply(batch)
        }
        table.remeasureGridColumns()
        table.reloadData()
        table.selectRow(at: IndexPath(row: 0, section: 0))
        // Changes name their rows only where the store records them: then learn each row's group now.
        if !context.store.isForeign || context.store.hasTracking {
            _ = controller.startInBackground(.prepareForChanges)
        }
    }

    /// Installs the controller's finished background work (its end posted to the loop): the
    /// first count shows; a count again after a reset is delivered as a batch.
    func installBackgroundWork() {
        do {
            if try controller.pollBackgroundWork() == .fetch { didCount() }
        } catch {
            isCounting = false
            failure = "\(error)"
        }
    }

    deinit {
        controller.onChange = nil
        controller.cancelBackgroundWork()
    }

    /// A batch of the controller on the table: its rows inserted, deleted, moved and reloaded.
    private func apply(_ batch: GroupChangeBatch) {
        let row = { (index: Int) in IndexPath(row: index, section: 0) }
        table.beginUpdates()
        for change in batch.changes {
            switch change.change {
            case .insert: table.insertRows(at: [row(change.to!)])
            case .delete: table.deleteRows(at: [row(change.from!)])
            case .move: table.moveRow(at: row(change.from!), to: row(change.to!))
            case .update: table.reloadRows(at: [row(change.from!)])
            }
        }
        do {
            try table.endUpdates()
        } catch {
            log.append("FrequencySheet: the table refused a batch; reloaded instead: \(error)")
            table.reloadData()
        }
    }

    override func willRender(frame: Rect, at time: Double) {
        barWidth = max(4, min(60, (frame.width - 4) / 3))
        let rows = controller.totalCount
        if isCounting {
            navigationBar.trailingText = "counting…"
        } else if let failure {
            navigationBar.trailingText = nil
            statusLine.showMessage("Cannot count \(keys[keyIndex].title): \(failure)", at: time, style: .error)
        } else {
            navigationBar.trailingText = "\(GridSheet.grouped(rows)) row\(rows == 1 ? "" : "s")"
        }
        let values = controller.numberOfGroups
        statusLine.trailingText = table.selection.map {
            "\(GridSheet.grouped($0.row + 1))/\(GridSheet.grouped(values)) value\(values == 1 ? "" : "s")"
        }
    }

    override func handleSheetKey(_ event: InputEvent) -> Bool {
        switch event {
        case .tab where keys.count > 1:
            keyIndex = (keyIndex + 1) % keys.count
            count()
            return true
        case .backTab where keys.count > 1:
            keyIndex = (keyIndex + keys.count - 1) % keys.count
            count()
            return true
        case .enter:
            guard let selection = table.selection, !isCounting, selection.row < controller.numberOfGroups else {
                return true
            }
            let value = controller.group(at: selection.row).value
            loop.remove(self)
            onChoose?(keys[keyIndex].keyPath, value)
            return true
        default:
            return false
        }
    }

    // MARK: Rows

    override var numberOfSections: Int { isCounting || controller.numberOfGroups == 0 ? 0 : 1 }

    override func numberOfRows(inSection section: Int) -> Int { isCounting ? 0 : controller.numberOfGroups }

    override func cell(forRowAt indexPath: IndexPath) -> TableCell {
        guard indexPath.row < controller.numberOfGroups else { return TableCell(values: []) }
        let group = controller.group(at: indexPath.row)
        let total = max(1, controller.totalCount)
        let top = max(1, controller.numberOfGroups > 0 ? controller.group(at: 0).count : 1)
        let value: String? =
            group.value == .null ? nil : DisplayText.of(group.value, type: keyIndex == 0 ? column.type : nil)
        return TableCell(
            title: value ?? "",
            values: [
                value,
                GridSheet.grouped(group.count),
                String(format: "%.1f %%", Double(group.count) * 100 / Double(total)),
                FrequencySheet.bar(Double(group.count) / Double(top), width: barWidth),
            ]
        )
    }

    override func rowIdentity(at indexPath: IndexPath) -> AnyHashable? {
        guard indexPath.row < controller.numberOfGroups else { return nil }
        return AnyHashable(controller.group(at: indexPath.row).value)
    }

    override func indexPath(forRowIdentity identity: AnyHashable) -> IndexPath? {
        guard let value = identity.base as? StoreValue, let index = controller.index(ofGroupValue: value) else {
            return nil
        }
        return IndexPath(row: index, section: 0)
    }

    /// A bar `fraction` of `width` cells long, in eighths of a cell (at least one eighth).
    static func bar(_ fraction: Double, width: Int) -> String {
        let eighths = max(1, Int((max(0, min(1, fraction)) * Double(width * 8)).rounded()))
        var bar = String(repeating: "█", count: eighths / 8)
        if eighths % 8 > 0 { bar.append(BarChart.eighths[eighths % 8 - 1]) }
        return bar
    }
}
