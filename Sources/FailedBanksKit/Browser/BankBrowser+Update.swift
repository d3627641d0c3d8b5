import Foundation
import TerminalUI

extension BankBrowser {
    /// `U`: downloads the list and imports it on a background thread (``BackgroundUpdate``),
    /// which posts where it is to the run loop: the status line shows its progress, then its
    /// summary or its error. Keys keep working;
    /// new and changed banks arrive through the polling of other connections' writes.
    func startUpdate() {
        guard !isLoading else { return }
        if let readOnlyReason {
            statusLine.showMessage("Update is disabled: \(readOnlyReason)", at: now, style: .error)
            return
        }
        if backgroundUpdate != nil {
            statusLine.showMessage("An update is already running", at: now)
            return
        }
        let address = BankListSource.url(option: options.updateURL, environment: ProcessEnvironment.current())
        guard let url = URL(string: address) else {
            statusLine.showMessage(
                "Update failed: \(UpdateError.badURL(address).reason)",
                at: now,
                duration: 8,
                style: .error
            )
            return
        }
        let update = BackgroundUpdate(storePath: store.path, url: url, timeout: UpdateCommand.defaultTimeout)
        backgroundUpdate = update
        statusLine.showMessage(BackgroundUpdate.State.starting.statusText, at: now, duration: 3600)
        update.start(report: loop.poster { [weak self] (state: BackgroundUpdate.State) in self?.show(state) })
    }

    /// Where the running update is (posted by its thread): its progress in the status line,
    /// or, once it is done, its summary or error (after picking up its writes).
    func show(_ state: BackgroundUpdate.State) {
        guard backgroundUpdate != nil else { return }
        guard case .finished(let message, let isError) = state else {
            statusLine.showMessage(state.statusText, at: now, duration: 3600)
            return
        }
        backgroundUpdate = nil
        // The writes are committed: pick them up now rather than at the next poll.
        pollExternalChanges()
        statusLine.showMessage(message, at: now, duration: 10, style: isError ? .error : .info)
    }
}
