import Foundation
import SQLiteStore
import Synchronization
import Timekeeping

/// `failedbanks update` run on a background thread for the browser (`U`): its
/// own connection to the store, so the browser's thread never waits for the
/// network or the import; the browser sees the new and changed banks through
/// its usual polling of other connections' writes. Where the update is goes to
/// `report` on the update's thread — what a run loop's poster takes to the
/// status line: each phase (the download's progress at most ten times a second),
/// then ``State/finished(message:isError:)`` once.
///
///     let update = BackgroundUpdate(storePath: store.path, url: url, timeout: 30)
///     update.start(report: loop.poster { [weak statusLine] (state: BackgroundUpdate.State) in
///         statusLine?.showMessage(state.statusText, at: loop.clock.now)
///     })
package struct BackgroundUpdate: Sendable {
    /// Where the update is.
    package enum State: Sendable, Equatable {
        /// Not yet started, or connecting.
        case starting
        /// Downloading (bytes so far, of the total when known) or importing.
        case running(BankListUpdater.Phase)
        /// Done: the message to show, and whether it is an error.
        case finished(message: String, isError: Bool)

        /// The status line's text while running, or the final message.
        package var statusText: String {
            switch self {
            case .starting:
                return "Updating: connecting…"
            case .running(.downloading(let progress)):
                var text = "Updating: \(DownloadProgressBar.size(progress.received))"
                if let expected = progress.expected, expected > 0 {
                    text +=
                        " of \(DownloadProgressBar.size(expected)) (\(min(100, progress.received * 100 / expected))%)"
                }
                return text + "…"
            case .running(.importing):
                return "Updating: importing…"
            case .finished(let message, _):
                return message
            }
        }

        package var isFinished: Bool {
            if case .finished = self { return true }
            return false
        }
    }

    package let storePath: String
    package let url: URL
    package let timeout: Double
    /// Shortest time between two reports of the download's progress (seconds).
    static let progressInterval = 0.1

    package init(storePath: String, url: URL, timeout: Double) {
        (self.storePath, self.url, self.timeout) = (storePath, url, timeout)
    }

    /// Starts the thread; `report` is called on it.
    package func start(report: @escaping @Sendable (sending State) -> Void) {
        let thread = Thread { [self] in main(report: report) }
        thread.name = "failedbanks update"
        thread.start()
    }

    /// The whole update, on the background thread.
    func main(report: @escaping @Sendable (sending State) -> Void) {
        let message: String
        var isError = false
        do {
            let store = try FailedBankStore.open(path: storePath, for: .writing).store
            let pace = ProgressPace(interval: BackgroundUpdate.progressInterval)
            let result = try BankListUpdater(store: store).run(url: url, timeout: timeout) { phase in
                if case .downloading = phase, !pace.isDue() { return }
                report(.running(phase))
            }
            switch result {
            case .current: message = "Update: the list is current (nothing changed)"
            case .updated(let summary): message = "U" + summary.summaryLine.dropFirst()
            }
        } catch let error as UpdateError {
            isError = true
            message = "Update failed: \(error.reason); nothing changed"
        } catch BankImportError.store(_, let error) {
            isError = true
            message = "Update failed: " + StoreRefusal(error, path: storePath).message
        } catch {
            isError = true
            message = "Update failed: " + StoreRefusal(error, path: storePath).message
        }
        report(.finished(message: message, isError: isError))
    }

    /// Whether a report is due: the first, then one per `interval` (the download calls back per chunk).
    private final class ProgressPace: Sendable {
        private let last = Mutex(-Double.infinity)
        private let interval: Double
        init(interval: Double) { self.interval = interval }
        func isDue() -> Bool {
            let now = MonotonicClock.seconds()
            return last.withLock { last in
                guard now - last >= interval else { return false }
                last = now
                return true
            }
        }
    }
}
