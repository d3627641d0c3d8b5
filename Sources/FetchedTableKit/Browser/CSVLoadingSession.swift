import BulkImport
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI

/// A CSV or JSON file loaded into its cache database while the terminal already shows its
/// first rows as read and the progress (``LoadingListScreen``); once complete, the
/// sorted, sectioned list takes its place, at its top — or, when the person moved the
/// selection meanwhile, with the selection kept on the same row (a fresh load numbers
/// rows in file order, so preview row `i` is row id `i + 1`). The load runs in the
/// background as every source's does (``BackgroundLoading``).
///
///     let session = CSVLoadingSession(options: options, loop: loop)
///     session.start()
///     _ = loop.run()
///     if let error = session.error { … }
final class CSVLoadingSession {
    let options: TableOptions
    let loop: TerminalRunLoop
    /// The load on its thread, and the screen shown meanwhile.
    let loading: BackgroundLoading
    var screen: LoadingListScreen { loading.screen }
    /// The browser, once the load is complete.
    private(set) var browser: TableBrowser?
    /// Why the load or the opening failed (the loop is then quit).
    private(set) var error: Error?
    /// What to tell the person once the terminal is theirs again (a temporary cache folder was used).
    private(set) var notice: String?

    /// A session for `options.file` on `loop` (its loading screen pushed).
    init(options: TableOptions, loop: TerminalRunLoop) {
        self.options = options
        self.loop = loop
        loading = BackgroundLoading(title: (options.file as NSString).lastPathComponent, loop: loop)
    }

    /// Starts the load on a thread of its own; its first rows, its progress (at most ten
    /// times a second: the loader's pace) and its end are posted to the loop as they come.
    func start(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = options.file
        let missingValues = options.missingValues
        let showPreview = loading.rowsPoster { [options] (preview: CSVTableLoader.Preview) in
            CSVLoadingSession.cells(preview, options: options)
        }
        let showProgress = loading.progressPoster(CSVLoadingSession.progressText)
        let types = options.columnTypes
        loading.start {
            let result: Result<CSVTable, FetchedTableError>
            do {
                result = .success(
                    try CSVSource.load(
                        path: path,
                        missingValues: missingValues,
                        types: types,
                        environment: environment,
                        progress: { progress in showProgress(progress) },
                        firstRows: { preview in showPreview(preview) }
                    )
                )
            } catch let error as FetchedTableError {
                result = .failure(error)
            } catch {
                result = .failure(FetchedTableError("\(path): \(FetchedTableError.reason(error))", status: 74))
            }
            return result
        } then: { [weak self] result in
            self?.finish(result)
        }
    }

    /// How far the load is: `Loading… 42 % · 120000 rows`.
    static func progressText(_ progress: ImportProgress) -> String {
        let percent = progress.fraction.map { " \(Int($0 * 100)) %" } ?? ""
        return "Loading…\(percent) · \(progress.rows) rows"
    }

    /// The load is complete: the sorted list takes the loading screen's place (or the loop
    /// quits with ``error``).
    private func finish(_ result: Result<CSVTable, FetchedTableError>) {
        do {
            let table = try result.get()
            notice = table.cacheNotice
            let database = try TableDatabase(
                path: options.file,
                kind: (try? TableFileKind.of(path: options.file)) ?? .csv,
                databasePath: table.databasePath,
                readOnly: true
            )
            // The preview's first row, selected by itself, is no choice: the list opens at its top.
            let selected = screen.selectionWasMoved ? screen.selectedRow : nil
            let browser = try TableBrowser(database: database, options: options, loop: loop, previewsFirstPage: false)
            if let selected, let list = browser.list, let entity = browser.opened?.entityName {
                list.adapter.select(ObjectID(entity: entity, rowID: Int64(selected + 1)))
            }
            // The keys typed while loading go to the list, after the selection is kept.
            screen.handOver(to: loop)
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
