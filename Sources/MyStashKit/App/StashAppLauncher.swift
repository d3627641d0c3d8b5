import CLIKit
import Glibc
import TerminalUI

/// Starts the full-screen app on an unlocked stash and returns the exit status.
///
/// The terminal is given back and the key wiped on every path out of the run
/// loop (quit, SIGINT/SIGTERM/SIGHUP).
struct StashAppLauncher {
    let stash: Stash
    var animated = true
    /// `--lock-after SECONDS` (0: never).
    var lockAfter: Double = 300
    /// `--clip-seconds N`.
    var clipSeconds: Double = 45

    func run() -> Int32 {
        if !animated { TableView.animationsEnabled = false }
        // Ctrl-S saves a form; CursesBackend turns XON/XOFF flow control off
        // while it owns the terminal so the key reaches the app.
        let screen: CursesBackend
        do {
            screen = try CursesBackend()
        } catch {
            printError("\(ErrorReason.text(of: error))")
            return ExitStatus.usage
        }
        let exit: TerminalRunLoop.Exit
        do {
            let app = try StashApp(
                stash: stash,
                backend: screen,
                animated: animated,
                lockAfter: lockAfter,
                clipSeconds: clipSeconds
            )
            exit = app.run()
        } catch {
            screen.close()
            stash.lock()
            printError("cannot show the stash: \(ErrorReason.text(of: error))")
            return ExitStatus.software
        }
        screen.close()
        stash.lock()
        return exit.exitStatus
    }
}
