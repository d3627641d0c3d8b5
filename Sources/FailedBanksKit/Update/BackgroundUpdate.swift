import Foundation
import SQLiteStore

/// `failedbanks update` run on a background thread for the browser (`U`): its
/// own connection to the store, so the browser's thread never waits for the
/// network or the import; the browser sees the new and changed banks through
/// its usual polling of other connections' writes, and reads ``state`` on a
/// timer for the status line.
///
///     let update = BackgroundUpdate(storePath: store.path, url: url, timeout: 30)
///     update.start()
///     loop.addTicker(every: 0.1) { _ in statusLine.showMessage(update.state.statusText, …) }
package final class BackgroundUpdate: @unchecked Sendable {
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
    private let lock = NSLock()
    private var current = State.starting

    package init(storePath: String, url: URL, timeout: Double) {
        (self.storePath, self.url, self.timeout) = (storePath, url, timeout)
    }

    /// The state now (from any thread).
    package var state: State { lock.withLock { current } }

    private func set(_ state: State) {
        lock.withLock {
            if !current.isFinished { current = state }
        }
    }

    /// Starts the thread.
    package func start() {
        let thread = Thread { [self] in main() }
        thread.name = "failedbanks update"
        thread.start()
    }

    /// The whole update, on the background thread.
    func main() {
        let message: String
        var isError = false
        do {
            let store = try FailedBankStore.open(path: storePath, for: .writing).store
            let result = try BankListUpdater(store: store).run(url: url, timeout: timeout) { [self] phase in
                set(.running(phase))
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
        set(.finished(message: message, isError: isError))
    }
}
