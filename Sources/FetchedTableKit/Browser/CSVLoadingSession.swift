import BulkImport
import Foundation
import SQLiteStore
import TerminalUI

/// A CSV file loaded into its cache database while the terminal already shows its
/// first rows as read and the progress (``LoadingListScreen``); once complete, the
/// sorted, sectioned list takes its place, at its top — or, when the person moved the
/// selection meanwhile, with the selection kept on the same row (a fresh load numbers
/// rows in file order, so preview row `i` is row id `i + 1`).
///
///     let session = CSVLoadingSession(options: options, loop: loop)
///     session.start()
///     _ = loop.run()
///     if let error = session.error { … }
final class CSVLoadingSession {
    let options: TableOptions
    let loop: TerminalRunLoop
    let screen: LoadingListScreen
    /// The browser, once the load is complete.
    private(set) var browser: TableBrowser?
    /// Why the load or the opening failed (the loop is then quit).
    private(set) var error: Error?
    /// What to tell the person once the terminal is theirs again (a temporary cache folder was used).
    private(set) var notice: String?

    /// What the loading thread hands to the run loop's thread.
    private final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var preview: CSVTableLoader.Preview?
        var progress: ImportProgress?
        var result: Result<CSVTable, FetchedTableError>?
    }
    private let shared = Shared()
    private var shownPreview = false
    private var ticker: TerminalRunLoop.TickerID?

    /// A session for `options.file` on `loop` (its loading screen pushed).
    init(options: TableOptions, loop: TerminalRunLoop) {
        self.options = options
        self.loop = loop
        screen = LoadingListScreen(title: (options.file as NSString).lastPathComponent)
        loop.push(screen)
    }

    /// Starts the load on a thread of its own, and a ticker that shows its progress.
    func start(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let shared = self.shared
        let path = options.file
        let missingValues = options.missingValues
        let thread = Thread {
            let result: Result<CSVTable, FetchedTableError>
            do {
                result = .success(
                    try CSVSource.load(
                        path: path,
                        missingValues: missingValues,
                        environment: environment,
                        progress: { progress in
                            shared.lock.withLock { shared.progress = progress }
                        },
                        firstRows: { preview in
                            shared.lock.withLock { shared.preview = preview }
                        }
                    )
                )
            } catch let error as FetchedTableError {
                result = .failure(error)
            } catch {
                result = .failure(FetchedTableError("\(path): \(FetchedTableError.reason(error))", status: 74))
            }
            shared.lock.withLock { shared.result = result }
        }
        thread.stackSize = 1 << 22
        thread.start()
        ticker = loop.addTicker(every: CSVLoadingSession.resultCheckInterval) { [weak self] now in
            self?.tick(now: now)
        }
    }

    /// How often the loop looks for the finished load: the sorted list appears at most this long after
    /// the load (a lock and a look, cheap; at 0.05 s the wait was a tenth of a 1M-row file's whole load).
    static let resultCheckInterval = 0.01
    /// How often the progress text changes (a redraw each time).
    static let progressInterval = 0.05
    private var progressShownAt = -Double.infinity

    /// Shows what arrived; swaps the list in once the load is complete.
    private func tick(now: Double) {
        let (preview, progress, result) = shared.lock.withLock { (shared.preview, shared.progress, shared.result) }
        if let preview, !shownPreview {
            shownPreview = true
            screen.rows = CSVLoadingSession.cells(preview, options: options)
        }
        if let progress, result != nil || now - progressShownAt >= CSVLoadingSession.progressInterval {
            progressShownAt = now
            let percent = progress.fraction.map { " \(Int($0 * 100)) %" } ?? ""
            screen.progressText = "Loading…\(percent) · \(progress.rows) rows"
        }
        guard let result else { return }
        if let ticker { loop.removeTicker(ticker) }
        ticker = nil
        do {
            let table = try result.get()
            notice = table.cacheNotice
            let database = try TableDatabase(
                path: options.file,
                kind: .csv,
                databasePath: table.databasePath,
                readOnly: true
            )
            // The preview's first row, selected by itself, is no choice: the list opens at its top.
            let selected = screen.selectionWasMoved ? screen.selectedRow : nil
            let browser = try TableBrowser(database: database, options: options, loop: loop, previewsFirstPage: false)
            loop.remove(screen)
            if let selected, let list = browser.list, let entity = browser.opened?.entityName {
                list.adapter.select(ObjectID(entity: entity, rowID: Int64(selected + 1)))
            }
            self.browser = browser
        } catch {
            self.error = error
            loop.quit()
        }
    }

    /// The preview's rows as cells: the title and subtitle columns the options name, or their
    /// defaults over the columns typed from the preview's values (numbers, else text).
    static func cells(_ preview: CSVTableLoader.Preview, options: TableOptions) -> [TableCell] {
        let columns = preview.columns.indices.map { index -> TableColumn in
            let values = preview.rows.compactMap { index < $0.count ? $0[index] : nil }
            let numeric = !values.isEmpty && values.allSatisfy { Double($0) != nil }
            return TableColumn(name: preview.columns[index], type: numeric ? .integer : .text)
        }
        var plain = options
        plain.sort = nil
        plain.section = nil
        plain.predicate = nil
        let query =
            (try? TableQuery(options: plain, table: "", columns: columns, idKey: "rowid"))
            ?? (try? TableQuery(options: TableOptions(file: options.file), table: "", columns: columns, idKey: "rowid"))
        guard let query else { return [] }
        let position = Dictionary(
            preview.columns.enumerated().map { ($1, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        return preview.rows.map { row in
            func value(_ key: String) -> String { position[key].flatMap { $0 < row.count ? row[$0] : nil } ?? "" }
            let detail = query.subtitleKeys.map(value).filter { !$0.isEmpty }.joined(separator: " · ")
            let title = value(query.titleKey)
            return TableCell(
                style: .subtitle,
                title: title.isEmpty ? "—" : title,
                detail: detail,
                accessory: .disclosureIndicator
            )
        }
    }
}
