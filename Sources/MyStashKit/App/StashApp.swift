import SQLiteStore
import TerminalUI

/// The full-screen app on an unlocked stash: builds the run loop and the
/// browser on a screen, polls the store for other processes' changes, and
/// runs until `q` or a signal.
///
/// Works on any `Screen`: `CursesScreen` in the app, `MemoryScreen` in tests
/// (which drive `loop.dispatch(_:)` and read `loop.canvas`).
///
///     let screen = try CursesScreen()
///     let app = try StashApp(stash: stash, screen: screen)
///     let exit = app.run()
///     screen.close()
///     stash.lock()
public final class StashApp {
    /// The unlocked stash the app shows.
    public let stash: Stash
    /// The run loop (tests dispatch events to it and read its `canvas`).
    public let loop: TerminalRunLoop
    let browser: StashBrowser

    /// Builds the app. `animated: false` is `--no-animation`.
    public init(stash: Stash, screen: Screen, clock: any Clock = MonotonicClock(), animated: Bool = true) throws {
        self.stash = stash
        loop = TerminalRunLoop(screen: screen, clock: clock, minimumWidth: 40, minimumHeight: 12)
        // The list screen pushes itself, sets the help and polls the store every 0.25 s.
        browser = try StashBrowser(stash: stash, loop: loop, animated: animated)
    }

    /// Runs until quit; returns why it ended (`exitStatus` gives the process status).
    public func run() -> TerminalRunLoop.Exit {
        loop.run()
    }

    /// What the screen shows now (tests).
    public var screenText: String { loop.canvas.text }
}
