import CLIKit
import FetchedResults

/// The loop of every app's `watch` command: a controller's snapshot line, then a line per
/// change batch (<doc:ListAndWatchFormats>), polling for other processes' changes until the
/// reader goes away or a stop is asked (``WatchProcess``).
///
/// What is watched and how it is polled stay the app's: it opens its store and hands the
/// fetched controller to ``show(_:)`` (again, for a new snapshot line, when what it watches is
/// replaced), and gives ``run(until:poll:)`` one poll, which reads other processes' changes,
/// waits, and returns an exit status to end the watch early.
///
///     let watch = ResultsWatch(output: output)
///     watch.show(controller)
///     return try watch.run(until: shouldStop) {
///         try controller.context.processExternalChanges()
///         usleep(100_000)
///         return nil
///     }
package final class ResultsWatch {
    private let output: (String) -> Bool
    /// True once a line could not be written (the reader is gone): ``run(until:poll:)`` ends.
    package private(set) var readerGone = false

    /// A watch writing its lines to `output`, which returns false once the reader is gone.
    package init(output: @escaping (String) -> Bool) {
        self.output = output
    }

    /// Prints `controller`'s snapshot line, then each of its batches that changes something,
    /// and prepares it for changes (so that the first batch is not slower).
    ///
    /// A change set that touched none of the results (a row outside the predicate) comes from
    /// the controller as an empty batch: nothing a reader could apply. A reset (a bulk import)
    /// is the refetch diffed against what was shown: a batch like any other.
    package func show(_ controller: FetchedResultsController) {
        readerGone = !output(ResultsJSONLines.snapshot(controller))
        controller.onChange = { [weak self] batch in
            guard let self, !self.readerGone, !batch.isEmpty else { return }
            if !self.output(ResultsJSONLines.batch(batch)) { self.readerGone = true }
        }
        try? controller.prepareForChanges()
    }

    /// Calls `poll` until the reader goes or `shouldStop` says so (exit status 0), or until
    /// `poll` returns an exit status (the watch ends with it).
    package func run<Failure: Error>(
        until shouldStop: () -> Bool,
        poll: () throws(Failure) -> Int32?
    ) throws(Failure) -> Int32 {
        while !readerGone && !shouldStop() {
            if let status = try poll() { return status }
        }
        return ExitStatus.ok
    }
}
