import FetchedResults
import FetchedResultsScripts
import Foundation
import TerminalUI

/// Saving the view (Ctrl-S): the file name asked on the status line, what a save would replace
/// asked about, the save running on a thread of its own, which posts its progress and its end to the loop.
final class ViewSaving {
    /// The `Save as:` line.
    let field = PromptField(prompt: ViewSaving.filePrompt)
    /// Whether a sectioned tab's section is saved as a first column (Tab in the field switches).
    var keepsSections = true
    /// The name typed last (offered again).
    var lastName = ""
    /// The save running, if one is.
    var running: Job?
    /// The file chosen, while the line asks for the table to make in it (``ListScreenConfiguration/saveTableName``).
    var tableStep: TableStep?

    /// A `.sqlite` file chosen, its table's name asked next.
    struct TableStep {
        let export: ViewExport
        let path: String
        let name: String
    }

    /// The line's question for a file's name.
    static let filePrompt = "Save as: "

    /// A save on its thread: what the loop's thread tells it (stop). What it hands back (its
    /// progress, its end) is posted to the loop.
    final class Job: @unchecked Sendable {
        // @unchecked Sendable: `cancelled` is read and written under `lock`; the rest is constant.
        private let lock = NSLock()
        private var cancelled = false
        let name: String
        let total: Int

        init(name: String, total: Int) {
            self.name = name
            self.total = total
        }

        func cancel() { lock.withLock { cancelled = true } }
        var isCancelled: Bool { lock.withLock { cancelled } }
    }
}

extension ListScreen {
    /// Ctrl-S: asks on the status line for the file to save the rows shown to — the tab's
    /// objects in the order shown (the filter and the sort in force), the grid's shown columns in
    /// their order, the sections kept as a first column or dropped (Tab) — in the format its
    /// extension names (``ExportFormat``: `.csv`, `.tsv`, `.jsonl`, `.sqlite`).
    /// Enter saves, after asking when a file (or a SQLite file's table) would be replaced; the
    /// save runs on a thread of its own, a progress bar on the status line, and writes a
    /// temporary file renamed into place only when complete (``ViewExport``).
    /// A tab without a ``ListTab/grid`` has no columns to save: the status line says so.
    public func beginSavingView() {
        guard !isLoading, adapter != nil else { return }
        guard tabGrid(tabIndex) != nil else {
            showMessage("This list has no columns to save", style: .error)
            return
        }
        if let running = viewSaving.running {
            showMessage("\(running.name) is being saved: one save at a time", style: .error)
            return
        }
        let field = viewSaving.field
        if field.onCommit == nil {
            field.onCommit = { [unowned self] text in
                if let step = self.viewSaving.tableStep {
                    self.commitSaveTable(text, step)
                } else {
                    self.commitSaveName(text)
                }
            }
        }
        viewSaving.tableStep = nil
        field.prompt = ViewSaving.filePrompt
        field.activate(text: viewSaving.lastName)
        updateSaveHint()
    }

    /// Whether a save (``beginSavingView()``) is running.
    package var isSavingView: Bool { viewSaving.running != nil }

    /// The save line's keys: Tab keeps or drops a sectioned tab's sections; the rest edit the name.
    /// False when the line is not open.
    func handleSaveFieldKey(_ event: InputEvent) -> Bool {
        let field = viewSaving.field
        guard field.isActive else { return false }
        if event == .tab, tab.sectionNameKeyPath != nil {
            viewSaving.keepsSections.toggle()
            updateSaveHint()
            return true
        }
        _ = field.handle(event)
        return true
    }

    /// The right of the save line: what happens to a sectioned tab's sections (Tab switches),
    /// else the formats.
    private func updateSaveHint() {
        if tab.sectionNameKeyPath != nil {
            viewSaving.field.trailingText = viewSaving.keepsSections ? "Tab: sections kept" : "Tab: no sections"
        } else if viewSaving.tableStep != nil {
            viewSaving.field.trailingText = "a new table"
        } else {
            viewSaving.field.trailingText = ".csv .tsv .jsonl .sqlite"
        }
    }

    /// Enter on the save line: the name checked, what would be replaced asked about, the save started.
    func commitSaveName(_ text: String) {
        let name = text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return }
        viewSaving.lastName = name
        func refuse(_ reason: String) {
            viewSaving.field.activate(text: name)
            updateSaveHint()
            viewSaving.field.setError(reason)
        }
        let path = ListScreen.savePath(name)
        guard let format = ExportFormat(path: path) else {
            refuse("use \(ExportFormat.extensionsDescription)")
            return
        }
        var isFolder: ObjCBool = false
        let folder = (path as NSString).deletingLastPathComponent
        guard FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isFolder),
            isFolder.boolValue
        else {
            refuse("no folder \(folder)")
            return
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            refuse("\(name) is a folder")
            return
        }
        let export = makeExport()
        if format == .sqlite, let table = configuration.saveTableName?(self) {
            askTableName(export, path: path, name: name, offering: table)
            return
        }
        guard let replaced = export.replaced(at: path, format: format) else {
            startSave(export, to: path, name: name, format: format, replacing: nil)
            return
        }
        confirmReplacing(replaced, export: export, path: path, name: name, format: format)
    }

    /// The line asks for the table to make in the SQLite file `name`: `table` offered (`table_2`,
    /// `table_3`… when the file has one of that name), editable.
    func askTableName(_ export: ViewExport, path: String, name: String, offering table: String) {
        var offered = table
        var probe = export
        probe.tableName = offered
        var suffix = 2
        while case .table = probe.replaced(at: path, format: .sqlite) {
            offered = "\(table)_\(suffix)"
            probe.tableName = offered
            suffix += 1
        }
        viewSaving.tableStep = ViewSaving.TableStep(export: export, path: path, name: name)
        viewSaving.field.prompt = "Table in \(name): "
        viewSaving.field.activate(text: offered)
        updateSaveHint()
    }

    /// Enter on the table's line: the name checked — a plain SQL name, and no table or view of
    /// the file's has it — then the save started (a file that is no database replaced after a yes).
    func commitSaveTable(_ text: String, _ step: ViewSaving.TableStep) {
        let table = text.trimmingCharacters(in: .whitespaces)
        func refuse(_ reason: String) {
            viewSaving.field.activate(text: table)
            updateSaveHint()
            viewSaving.field.setError(reason)
        }
        guard ListScreen.isPlainTableName(table) else {
            refuse(
                table.isEmpty
                    ? "the table needs a name"
                    : "\(table) is not a table name: letters, digits and _, not starting with a digit or sqlite_"
            )
            return
        }
        var export = step.export
        export.tableName = table
        switch export.replaced(at: step.path, format: .sqlite) {
        case .table(let existing):
            refuse("\(step.name) has a table \(existing) already: give another name")
        case .file:
            viewSaving.tableStep = nil
            confirmReplacing(.file, export: export, path: step.path, name: step.name, format: .sqlite)
        case nil:
            viewSaving.tableStep = nil
            startSave(export, to: step.path, name: "\(table) in \(step.name)", format: .sqlite, replacing: nil)
        }
    }

    /// Whether `name` is a plain SQL name for a new table: letters, digits and `_`, not starting
    /// with a digit, nor with `sqlite_` (SQLite's own).
    static func isPlainTableName(_ name: String) -> Bool {
        let plain = name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
        guard plain, let first = name.first, !first.isNumber else { return false }
        return !name.lowercased().hasPrefix("sqlite_")
    }

    /// Asks whether to replace what a save to `name` would (a file, or a table of the file), then saves or says it did not.
    private func confirmReplacing(
        _ replaced: ViewExport.Replaced,
        export: ViewExport,
        path: String,
        name: String,
        format: ExportFormat
    ) {
        let question: String
        switch replaced {
        case .file: question = "\(name) exists. Replace it?"
        case .table(let table): question = "\(name) has a table \(table). Replace it?"
        }
        let confirm = ConfirmDialog(
            title: "Save",
            message: question,
            confirmTitle: "Replace",
            cancelTitle: "Cancel",
            confirmSelected: false
        )
        confirm.isDestructive = true
        confirm.onAnswer = { [unowned self] replace in
            if replace {
                self.startSave(export, to: path, name: name, format: format, replacing: replaced)
            } else {
                self.showMessage("Not saved: \(name) is as it was")
            }
        }
        loop.push(confirm)
    }

    /// `name` as a path: `~/` is the home folder; a relative name is in the current folder.
    static func savePath(_ name: String) -> String {
        if name.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] {
            return home + name.dropFirst()
        }
        return name
    }

    /// The rows shown, as an export: the objects' ids in order, the grid's shown columns, the
    /// sections when kept.
    func makeExport() -> ViewExport {
        let controller = adapter.controller
        let grid = tabGrid(tabIndex)?.grid
        let columns =
            grid?.visibleIndices.compactMap { grid?.columns[$0] }.map {
                ViewExport.Column(name: $0.name, keyPath: $0.keyPath)
            } ?? []
        var export = ViewExport(
            databasePath: store.path,
            model: store.model,
            entity: tab.entity,
            columns: columns,
            rowIDs: controller.fetchedObjects.rowIDs
        )
        if let key = tab.sectionNameKeyPath, viewSaving.keepsSections {
            export.sections = controller.sections.map { ViewExport.Section(name: $0.name, count: $0.numberOfObjects) }
            var name = key
            let taken = Set(columns.map { $0.name.lowercased() })
            while taken.contains(name.lowercased()) { name = "_" + name }
            export.sectionColumn = name
        }
        return export
    }

    /// Starts the save on a thread of its own, which posts its progress (at most every
    /// ``saveProgressInterval`` seconds) and its end to the loop.
    func startSave(
        _ export: ViewExport,
        to path: String,
        name: String,
        format: ExportFormat,
        replacing: ViewExport.Replaced?
    ) {
        let job = ViewSaving.Job(name: name, total: export.rowIDs.count)
        viewSaving.running = job
        let showProgress = loop.poster { [weak self] (written: Int) in
            guard let self, self.loop.contains(self) else {
                job.cancel()  // the screen went away: the file is left as it was
                return
            }
            guard self.viewSaving.running === job else { return }
            self.showSaveProgress(job, written: written)
        }
        let finish = loop.poster { [weak self] (result: Result<Int, Error>) in
            self?.endSave(job, result: result, format: format)
        }
        let thread = Thread {
            var shown = ProcessInfo.processInfo.systemUptime
            let result = Result<Int, Error> {
                try export.write(
                    to: path,
                    format: format,
                    replacing: replacing,
                    progress: { written in
                        let now = ProcessInfo.processInfo.systemUptime
                        guard now - shown >= ListScreen.saveProgressInterval else { return }
                        shown = now
                        showProgress(written)
                    },
                    isCancelled: { job.isCancelled }
                )
            }
            finish(result)
        }
        thread.stackSize = 1 << 22
        thread.start()
        showSaveProgress(job, written: 0)
    }

    /// How often the save's progress is shown, at most (seconds).
    static let saveProgressInterval = 0.1

    /// The save ended (posted by its thread): said on the status line.
    func endSave(_ job: ViewSaving.Job, result: Result<Int, Error>, format: ExportFormat) {
        guard viewSaving.running === job else { return }
        viewSaving.running = nil
        switch result {
        case .success(let count):
            let rows = count == 1 ? tab.noun.singular : tab.noun.plural
            statusLine.showMessage(
                "Saved \(ListScreen.grouped(count)) \(rows) to \(job.name) (\(format.name))",
                at: now,
                duration: 6
            )
        case .failure(let error):
            statusLine.showMessage("Not saved: \(error)", at: now, duration: 10, style: .error)
        }
    }

    /// "Saving books.csv ▕████████░░░░░░░░▏ 52 %".
    private func showSaveProgress(_ job: ViewSaving.Job, written: Int) {
        let fraction = job.total > 0 ? min(1, Double(written) / Double(job.total)) : 0
        let width = 16
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        statusLine.showMessage(
            "Saving \(job.name) ▕\(bar)▏ \(Int(fraction * 100)) %",
            at: now,
            duration: ListScreen.saveProgressInterval * 20
        )
    }

    /// "336,776".
    static func grouped(_ count: Int) -> String {
        var digits = String(count)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return digits
    }
}
