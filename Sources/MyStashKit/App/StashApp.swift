import Glibc
import SQLiteStore
import TerminalUI

/// The full-screen app on an unlocked stash: builds the run loop and the
/// browser on a screen, polls the store for other processes' changes, and
/// runs until `q` or a signal.
///
/// Works on any `Backend`: `CursesBackend` in the app, `MemoryBackend` in tests
/// (which drive `loop.dispatch(_:)` and read `loop.canvas`).
///
///     let screen = try CursesBackend()
///     let app = try StashApp(stash: stash, backend: screen)
///     let exit = app.run()
///     screen.close()
///     stash.lock()
package final class StashApp {
    /// The unlocked stash the app shows.
    package let stash: Stash
    /// The run loop (tests dispatch events to it and read its `canvas`).
    package let loop: TerminalRunLoop
    let browser: StashBrowser
    let activity: ActivityTrackingBackend
    /// Seconds without a key after which the app locks (`--lock-after`; 0 never).
    package let lockAfter: Double
    /// The unlock prompt while locked, else nil.
    private(set) var lockView: LockView?

    /// Where `c`, `C` and `t` copy to, and the countdown to clearing it.
    package let clipboard: ClipboardSession

    /// Builds the app. `animated: false` is `--no-animation`; `lockAfter` is `--lock-after`;
    /// `clipboard` defaults to the system's (OSC 52 to the terminal on stdout, and wl-copy/xclip/xsel),
    /// cleared after `clipSeconds` (`--clip-seconds`).
    package init(
        stash: Stash,
        backend: Backend,
        clock: any TimeSource = MonotonicClock(),
        animated: Bool = true,
        lockAfter: Double = 300,
        clipboard: Clipboard? = nil,
        clipSeconds: Double = 45
    ) throws {
        self.stash = stash
        self.lockAfter = lockAfter
        self.clipboard = ClipboardSession(
            clipboard: clipboard ?? SystemClipboard(terminal: isatty(STDOUT_FILENO) == 1 ? STDOUT_FILENO : nil),
            seconds: clipSeconds
        )
        activity = ActivityTrackingBackend(base: backend, clock: clock)
        loop = TerminalRunLoop(backend: activity, clock: clock, minimumWidth: 40, minimumHeight: 12)
        // The list screen pushes itself, sets the help and polls the store every 0.25 s.
        browser = try StashBrowser(stash: stash, loop: loop, animated: animated)
        browser.onLock = { [unowned self] in self.lock() }
        browser.clipboard = self.clipboard
        // A clock, not a poll: the clipboard's countdown and the idle time before auto-lock.
        loop.addTicker(every: 0.25) { [unowned self] now in
            self.browser.updateClipboardStatus(at: now)
            self.lockIfIdle(now: now)
        }
    }

    /// Whether the app is locked (the key wiped, only the unlock prompt showing).
    package var isLocked: Bool { lockView != nil }

    /// Locks when no key came for `lockAfter` seconds.
    func lockIfIdle(now: Double) {
        guard lockAfter > 0, lockView == nil, now - activity.lastActivity >= lockAfter else { return }
        lock()
    }

    /// Wipes the key and shows only the unlock prompt (`L`, or after `--lock-after` idle seconds).
    package func lock() {
        guard lockView == nil else { return }
        browser.willLock()
        clipboard.clearNow()
        stash.lock()
        let view = LockView(stash: stash)
        view.onUnlock = { [unowned self, unowned view] in
            self.loop.remove(view)
            self.lockView = nil
            self.browser.didUnlock()
            self.activity.noteActivity()
        }
        lockView = view
        loop.push(view)
    }

    /// Sends an event as if typed (tests): it counts as activity.
    package func send(_ event: InputEvent) {
        activity.noteActivity()
        loop.dispatch(event)
    }

    /// Runs until quit; returns why it ended (`exitStatus` gives the process status).
    package func run() -> TerminalRunLoop.Exit {
        defer { clipboard.clearNow() }  // a copied secret does not outlive the app
        return loop.run()
    }

    /// What the screen shows now (tests).
    package var screenText: String { loop.canvas.text }
}
