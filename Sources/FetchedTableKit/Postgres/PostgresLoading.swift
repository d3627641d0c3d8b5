import CLIKit
import FetchedResults
import FetchedResultsUI
import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import TerminalUI

/// A server table being copied while the terminal already shows its first rows (a first
/// page read straight from the server, in the order asked) and the rows copied so far —
/// as a CSV file's preview while it loads (``CSVLoadingSession``). The copy and the first
/// page run on a thread of their own: keys are answered meanwhile (`q` quits). A server out
/// of reach meanwhile (not answering for two seconds, a lost connection) says
/// `Reconnecting…` with the time since its last answer, as the browser does after the copy,
/// and the copy is made again once it answers.
final class PostgresLoading {
    /// What the loading thread hands to the run loop's thread.
    private final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var preview: ReplicaPreview?
        var copied = 0
        var status: ReplicaStatus = .live
        var result: Result<PostgresCopy, FetchedTableError>?
    }
    private let shared = Shared()
    let opening: PostgresOpening
    let options: TableOptions
    let loop: TerminalRunLoop
    let screen: LoadingListScreen
    private var shownPreview = false
    private var ticker: TerminalRunLoop.TickerID?
    private let done: (Result<PostgresCopy, FetchedTableError>, LoadingListScreen) -> Void

    /// Pushes the loading screen of `opening`'s table and starts the copy; `done` is called on
    /// the loop's thread with the copy (or why not) while the loading screen is still shown.
    init(
        _ opening: PostgresOpening,
        options: TableOptions,
        loop: TerminalRunLoop,
        done: @escaping (Result<PostgresCopy, FetchedTableError>, LoadingListScreen) -> Void
    ) {
        self.opening = opening
        self.options = options
        self.loop = loop
        self.done = done
        screen = LoadingListScreen(title: opening.table.displayName)
        screen.progressText = "Copying…"
        loop.push(screen)
    }

    /// Starts the first page and the copy on a thread of its own, and a ticker showing them.
    func start() {
        let shared = self.shared
        let order = PostgresLoading.order(of: opening.query)
        let sort = PostgresLoading.presortable(opening.query)
        let table = opening.table.name
        let target = opening.server.target
        let limit = opening.cacheLimit
        let thread = Thread {
            let result: Result<PostgresCopy, FetchedTableError>
            do {
                let replica = try PostgresCopy.replica(of: table, on: target, cacheLimit: limit)
                if let preview = try? replica.firstPage(orderBy: order, limit: 100) {
                    shared.lock.withLock { shared.preview = preview }
                }
                let copy = try PostgresCopy.load(
                    replica,
                    target: target,
                    browsing: true,
                    sortingBy: sort,
                    progress: { rows in shared.lock.withLock { shared.copied = rows } },
                    status: { status in shared.lock.withLock { shared.status = status } }
                )
                result = .success(copy)
            } catch let error as FetchedTableError {
                result = .failure(error)
            } catch {
                result = .failure(FetchedTableError(FetchedTableError.reason(error), status: ExitStatus.ioError))
            }
            shared.lock.withLock { shared.result = result }
        }
        thread.stackSize = 1 << 22
        thread.start()
        ticker = loop.addTicker(every: 0.05) { [weak self] _ in self?.tick() }
    }

    /// The server order of the first page: the sort asked, the section's column first when the sort does not begin with it.
    static func order(of query: TableQuery) -> [OrderTerm] {
        var terms = query.requestedSort.keys.map { OrderTerm($0.column, ascending: $0.ascending) }
        if let section = query.section, terms.first?.column != section.column {
            terms.insert(OrderTerm(section.column, ascending: true), at: 0)
        }
        return terms.filter { column in query.columns.contains { $0.name == column.column } }
    }

    /// The one sort of the list's first fetch when the copy can sort its rows in that order as
    /// they arrive (every row, sorted by a column byte for byte, or by its order column), else nil.
    static func presortable(_ query: TableQuery) -> FetchSort? {
        guard query.predicate == nil, query.sortDescriptors.count == 1, let sort = query.sortDescriptors.first,
            sort.comparison == .binary, query.columns.contains(where: { $0.name == sort.keyPath })
        else { return nil }
        return sort
    }

    private func tick() {
        let (preview, copied, status, result) = shared.lock.withLock {
            (shared.preview, shared.copied, shared.status, shared.result)
        }
        if let preview, !shownPreview {
            shownPreview = true
            screen.rows = PostgresLoading.cells(preview, query: opening.query)
        }
        screen.progressText = "Copying… \(copied) rows"
        if let text = PostgresConnectionState.statusText(status) {
            screen.statusLine.showMessage(text, at: loop.clock.now, duration: 0.5, style: .error)
        }
        guard let result else { return }
        if let ticker { loop.removeTicker(ticker) }
        ticker = nil
        done(result, screen)
    }

    /// The first page's rows as cells of the title and subtitle columns.
    static func cells(_ preview: ReplicaPreview, query: TableQuery) -> [TableCell] {
        let position = Dictionary(
            preview.columns.enumerated().map { ($1.name, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        let types = Dictionary(query.columns.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        return preview.rows.map { row in
            func value(_ key: String) -> String {
                guard let at = position[key], at < row.count else { return "" }
                return DisplayText.escapingControls(DisplayText.of(row[at], type: types[key]))
            }
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
