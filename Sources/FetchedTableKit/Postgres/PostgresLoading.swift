import CLIKit
import FetchedResults
import FetchedResultsUI
import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import Synchronization
import TerminalUI

/// A server table being copied while the terminal already shows its first rows (a first
/// page read straight from the server, in the order asked) and the rows copied so far —
/// as a CSV file's preview while it loads (``CSVLoadingSession``). The copy and the first
/// page run on a thread of their own (``BackgroundLoading``): keys are answered meanwhile (`q` quits). A server out
/// of reach meanwhile (not answering for two seconds, a lost connection) says
/// `Reconnecting…` with the time since its last answer, as the browser does after the copy,
/// and the copy is made again once it answers.
final class PostgresLoading {
    let opening: PostgresOpening
    let options: TableOptions
    let loop: TerminalRunLoop
    /// The copy on its thread, and the screen shown meanwhile.
    let loading: BackgroundLoading
    var screen: LoadingListScreen { loading.screen }
    private let done: (Result<PostgresCopy, FetchedTableError>, LoadingListScreen) -> Void
    /// Counts the seconds of `Reconnecting…` while the server is out of reach.
    private var ticker: TerminalRunLoop.TickerID?
    /// The replica being copied, for ``cancel()`` (made on the copy's thread).
    private let cancelling = PostgresLoadCancel()
    /// ``cancel()`` was called: the screen is gone, the copy is being stopped, its end is dropped.
    private(set) var isCancelled = false
    /// Called on the loop's thread once the copy's thread has ended after ``cancel()``.
    var onStopped: (() -> Void)?
    /// Signalled by the copy's thread as it ends (``stopBeforeExit(waitingUpTo:)`` waits for it).
    private let ended = DispatchSemaphore(value: 0)

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
        loading = BackgroundLoading(title: opening.table.displayName, progressText: "Copying…", loop: loop)
    }

    /// Starts the first page and the copy on a thread of its own, which posts them to the loop
    /// as they come: the first page, the rows copied (each 20,000), the server's reachability,
    /// and the end.
    func start() {
        let order = PostgresLoading.order(of: opening.query)
        let sort = PostgresLoading.presortable(opening.query)
        let table = opening.table.name
        let target = opening.server.target
        let query = opening.query
        let showPreview = loading.rowsPoster { (preview: ReplicaPreview) in PostgresLoading.cells(preview, query: query)
        }
        let showCopied = loading.progressPoster { (rows: Int) in "Copying… \(rows) rows" }
        let showStatus = loop.poster { [weak self] (status: ReplicaStatus) in self?.show(status) }
        let showLockWait = loop.poster { [weak self] (wait: ReplicaLockWait?) in self?.show(wait) }
        let limit = opening.cacheLimit
        let cancelling = self.cancelling
        let ended = self.ended
        loading.start {
            defer { ended.signal() }
            let result: Result<PostgresCopy, FetchedTableError>
            do {
                let replica = try PostgresCopy.replica(of: table, on: target, cacheLimit: limit)
                replica.lockWaitHandler = { wait in showLockWait(wait) }
                cancelling.copying(replica)
                if let preview = try? replica.firstPage(orderBy: order, limit: 100) { showPreview(preview) }
                let copy = try PostgresCopy.load(
                    replica,
                    target: target,
                    browsing: true,
                    sortingBy: sort,
                    progress: { rows in showCopied(rows) },
                    status: { status in showStatus(status) }
                )
                result = .success(copy)
            } catch let error as FetchedTableError {
                result = .failure(error)
            } catch {
                result = .failure(FetchedTableError(FetchedTableError.reason(error), status: ExitStatus.ioError))
            }
            return result
        } then: { [weak self] result in
            guard let self else { return }
            if let ticker = self.ticker { self.loop.removeTicker(ticker) }
            self.ticker = nil
            guard !self.isCancelled else {
                // Copied before the cancel reached it: kept in the cache as a copy a session left.
                if case .success(let copy) = result { copy.replica.stop(waiting: false) }
                self.onStopped?()
                return
            }
            self.done(result, self.screen)
        }
    }

    /// Esc: the loading screen taken away, the copy stopped — its statement cancelled on the
    /// server (``PostgresReplica/cancelLoad()``), or, once copied, the copy left in the cache —
    /// and its end not handed to `done`; ``onStopped`` is called once its thread has ended.
    func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        if let ticker { loop.removeTicker(ticker) }
        ticker = nil
        loop.remove(screen)
        cancelling.cancel()
    }

    /// The program quits (`q`) while the copy runs: its statement cancelled on the server
    /// (``PostgresReplica/cancelLoad()``) and the copy's thread waited for, `seconds` at most (a
    /// server that does not answer), so that no statement of the program's is left waiting for
    /// a lock, nor copying, once it has exited. Any thread; the loop need not run.
    func stopBeforeExit(waitingUpTo seconds: Double) {
        cancelling.cancel()
        _ = ended.wait(timeout: .now() + seconds)
    }

    /// Another session holds a lock on the table (`wait`), or no longer does (nil): said on the
    /// loading screen — where the first rows would be, and in the status line — until the copy begins.
    private func show(_ wait: ReplicaLockWait?) {
        guard !isCancelled else { return }
        guard let wait else {
            if let readingMessage { screen.table.emptyMessage = readingMessage }
            screen.progressText = "Copying…"
            return
        }
        let text = PostgresConnectionState.lockWaitText(wait, table: opening.table.displayName)
        if readingMessage == nil { readingMessage = screen.table.emptyMessage }
        screen.table.emptyMessage = text.prefix(1).uppercased() + text.dropFirst()
        screen.progressText = "Waiting for a lock…"
    }

    /// The loading screen's own words before its first rows, kept while a lock's wait shows.
    private var readingMessage: String?

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

    /// The server out of reach (`Reconnecting… (3s since last contact)`, the seconds counted
    /// on the screen's clock until the next news), or back.
    private func show(_ status: ReplicaStatus) {
        if let ticker { loop.removeTicker(ticker) }
        ticker = nil
        guard !isCancelled else { return }
        guard PostgresConnectionState.statusText(status) != nil else {
            screen.statusLine.showMessage("", at: loop.clock.now, duration: 0)
            return
        }
        let showTime = { [weak self] in
            guard let self, let text = PostgresConnectionState.statusText(status) else { return }
            self.screen.statusLine.showMessage(text, at: self.loop.clock.now, duration: 1, style: .error)
        }
        showTime()
        // A clock on the screen (the seconds since the server last answered), not a poll.
        ticker = loop.addTicker(every: 0.5) { _ in showTime() }
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

/// The replica a ``PostgresLoading`` copies, made on the copy's thread, and whether the loading
/// was cancelled (on the loop's thread): whichever comes second cancels the replica's load.
private final class PostgresLoadCancel: Sendable {
    private let state = Mutex<(replica: PostgresReplica?, cancelled: Bool)>((nil, false))

    /// The copy's thread made `replica`: its load is cancelled at once when ``cancel()`` came first.
    func copying(_ replica: PostgresReplica) {
        let cancelled = state.withLock { state in
            state.replica = replica
            return state.cancelled
        }
        if cancelled { replica.cancelLoad() }
    }

    /// Cancels the replica's load, or the one of the replica to come.
    func cancel() {
        let replica = state.withLock { state in
            state.cancelled = true
            return state.replica
        }
        replica?.cancelLoad()
    }
}
