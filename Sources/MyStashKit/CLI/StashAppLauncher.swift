#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLIKit
import TerminalUI

/// Starts the full-screen app on an unlocked stash and returns the exit status.
///
/// The terminal is given back and the key wiped on every path out of the run
/// loop (quit, SIGINT/SIGTERM/SIGHUP).
struct StashAppLauncher {
    let stash: Stash
    var animated = true

    func run() -> Int32 {
        if !animated { TableView.animationsEnabled = false }
        // Ctrl-S saves a form: the terminal's XON/XOFF flow control must not
        // swallow it (curses' cbreak mode leaves IXON on). Turned off before
        // curses saves the terminal state, put back after it restores it.
        let flowControl = FlowControlSwitch(fd: STDIN_FILENO)
        defer { flowControl.restore() }
        let screen: CursesScreen
        do {
            screen = try CursesScreen()
        } catch {
            printError("\(error)")
            return ExitStatus.usage
        }
        let exit: TerminalRunLoop.Exit
        do {
            let app = try StashApp(stash: stash, screen: screen, animated: animated)
            exit = app.run()
        } catch {
            screen.close()
            stash.lock()
            printError("cannot show the stash: \(error)")
            return ExitStatus.software
        }
        screen.close()
        stash.lock()
        return exit.exitStatus
    }
}

/// Turns the terminal's XON/XOFF flow control (Ctrl-S/Ctrl-Q) off until `restore()`.
final class FlowControlSwitch {
    private let fd: Int32
    private var saved: termios?

    init(fd: Int32) {
        self.fd = fd
        var settings = termios()
        guard isatty(fd) == 1, tcgetattr(fd, &settings) == 0 else { return }
        saved = settings
        settings.c_iflag &= ~tcflag_t(IXON | IXOFF)
        tcsetattr(fd, TCSANOW, &settings)
    }

    func restore() {
        guard var settings = saved else { return }
        tcsetattr(fd, TCSANOW, &settings)
        saved = nil
    }
}
