import Foundation
import TerminalUI

/// A source loaded on a thread of its own while a ``LoadingListScreen`` shows its first rows
/// and how far the load has got; the load's end is handed to the loop's thread, where the app
/// makes the real list (and takes the loading screen away).
///
/// The loading thread never touches the screen: it reports through functions any thread may
/// call, made on the loop's thread before ``start(_:then:)`` — ``rowsPoster(_:)`` and
/// ``progressPoster(_:)`` — each a post to the loop (`TerminalRunLoop.poster(_:)`). After
/// ``cancel()``, or once the loading is gone, nothing it reports is shown and its end is not
/// handed over (the thread runs to its end, unheard).
///
///     let loading = BackgroundLoading(title: "events.csv", loop: loop)
///     let showRows = loading.rowsPoster { (rows: [String]) in rows.map { TableCell(title: $0) } }
///     let showProgress = loading.progressPoster { (rows: Int) in "Loading… \(rows) rows" }
///     loading.start {
///         load(path, firstRows: showRows, progress: showProgress)   // on the loading thread
///     } then: { [weak app] table in                                  // on the loop's thread
///         app?.browse(table)
///     }
package final class BackgroundLoading {
    /// The screen shown while loading (pushed by ``init(title:progressText:loop:)``).
    package let screen: LoadingListScreen
    /// The loop the screen is on, and which the load's reports are posted to.
    package let loop: TerminalRunLoop
    /// Whether ``cancel()`` was called: what the load reports from then on is dropped.
    package private(set) var isCancelled = false

    /// Pushes the loading screen titled `title`, its status line saying `progressText`.
    package init(title: String, progressText: String = "Loading…", loop: TerminalRunLoop) {
        self.loop = loop
        screen = LoadingListScreen(title: title)
        screen.progressText = progressText
        loop.push(screen)
    }

    /// A function any thread may call with the source's first rows: the first call's are shown,
    /// made into cells by `cells` on the loop's thread; later calls are ignored.
    package func rowsPoster<Preview>(
        _ cells: @escaping (Preview) -> [TableCell]
    ) -> @Sendable (sending Preview) -> Void {
        var shown = false
        return loop.poster { [weak self] (preview: Preview) in
            guard let self, !self.isCancelled, !shown else { return }
            shown = true
            self.screen.rows = cells(preview)
        }
    }

    /// A function any thread may call with how far the load has got: `text` makes the status
    /// line's progress of it, on the loop's thread.
    package func progressPoster<Progress>(
        _ text: @escaping (Progress) -> String
    ) -> @Sendable (sending Progress) -> Void {
        loop.poster { [weak self] (progress: Progress) in
            guard let self, !self.isCancelled else { return }
            self.screen.progressText = text(progress)
        }
    }

    /// Runs `load` on a thread of its own (with a 4 MiB stack, as a loader's parser may recurse
    /// deeper than a dispatch queue's threads allow), then `then` with what it returned, on the
    /// loop's thread, while the loading screen is still shown — unless cancelled meanwhile.
    package func start<Value>(
        _ load: @escaping @Sendable () -> sending Value,
        then: @escaping (Value) -> Void
    ) {
        let finish = loop.poster { [weak self] (value: Value) in
            guard let self, !self.isCancelled else { return }
            then(value)
        }
        let thread = Thread { finish(load()) }
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// Stops showing what the load reports and drops its end (on the loop's thread).
    package func cancel() { isCancelled = true }
}
