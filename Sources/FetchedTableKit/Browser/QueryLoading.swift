import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI

/// A query's first run on a thread of its own, shown meanwhile (``LoadingListScreen``: how long
/// it has run and the rows read so far); Esc stops it (``LiveQuerying/cancelRun()``: SQLite's
/// `sqlite3_interrupt`, a server's `PQcancel`). Its progress and its end are posted to the loop,
/// never polled for.
///
///     let loading = QueryLoading(source: source, title: ":1 SELECT …", loop: loop)
///     loading.onFinish = { result in … }      // not called once cancelled
///     loading.onCancel = { … }
///     loading.start()
final class QueryLoading {
    let source: QuerySource
    let screen: LoadingListScreen
    unowned let loop: TerminalRunLoop
    /// Esc was pressed: the run is being stopped, its end ignored.
    private(set) var isCancelled = false
    /// The run ended (or was cancelled).
    var onFinish: ((Result<Void, Error>) -> Void)?
    /// Esc.
    var onCancel: (() -> Void)?
    private var ticker: TerminalRunLoop.TickerID?
    private let started: Double
    private var rows = 0
    private let done = DispatchGroup()

    /// The loading screen of `source`'s first run, titled `title`, pushed on `loop`.
    init(source: QuerySource, title: String, loop: TerminalRunLoop) {
        self.source = source
        self.loop = loop
        started = loop.clock.now
        screen = LoadingListScreen(title: title)
        screen.table.emptyMessage = "Running the query…"
        screen.statusLine.hints = "running the query   Esc cancel  q quit"
        screen.progressText = "Running…"
        screen.onEscape = { [unowned self] in self.cancel() }
        loop.push(screen)
    }

    /// Starts the run; the elapsed time shows each half second.
    func start() {
        let live = source.live
        let progress = loop.poster { [weak self] (rows: Int) in
            self?.rows = rows
            self?.showProgress()
        }
        let finish = loop.poster { [self] (result: Result<Void, Error>) in self.finish(result) }
        ticker = loop.addTicker(every: 0.5) { [weak self] _ in self?.showProgress() }
        done.enter()
        let done = self.done
        let thread = Thread {
            defer { done.leave() }
            do {
                try live.load(progress: { rows in progress(rows) })
                finish(.success(()))
            } catch {
                finish(.failure(error))
            }
        }
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// Esc: the run stopped (one that has not begun yet, too: it then ends at once), the screen
    /// gone, ``onCancel`` called; its end, when it comes, ignored.
    func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        source.live.cancelRun()
        close()
        onCancel?()
    }

    /// Waits for the run's thread to end (after a cancel, before the result's file is removed).
    func waitUntilStopped() { done.wait() }

    /// "Running… 12 s · 120,000 rows".
    private func showProgress() {
        let seconds = Int(loop.clock.now - started)
        screen.progressText = "Running… \(seconds) s · \(TableBrowser.groupedRowCountText(rows))"
    }

    private func finish(_ result: Result<Void, Error>) {
        guard !isCancelled else { return }
        close()
        if case .failure(let error) = result, QuerySource.isCancellation(error) {
            isCancelled = true
            onCancel?()
            return
        }
        onFinish?(result)
    }

    private func close() {
        if let ticker { loop.removeTicker(ticker) }
        ticker = nil
        loop.remove(screen)
    }
}
