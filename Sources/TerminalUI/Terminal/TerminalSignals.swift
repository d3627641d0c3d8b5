import CNCurses
import Glibc
import Synchronization

/// The one boundary between signal handlers and the rest of the program.
///
/// Handlers run at any instruction, so they touch nothing but what is here:
/// atomics, and raw buffers filled in before the handlers are installed (a
/// `let` holding a pointer is neither lazily re-initialised nor subject to
/// exclusivity checks once touched). They do only async-signal-safe work:
///
/// - SIGINT, SIGTERM, SIGHUP: record the signal and write a byte to the wake
///   pipe; the run loop sees it, returns, and the screen restores the terminal
///   with `endwin`. A second one while the first is still pending (the loop
///   is stuck) restores the terminal the raw way and `_exit(128 + signo)`.
/// - SIGTSTP, SIGCONT, SIGWINCH: record and wake; `CursesBackend.nextEvent`
///   suspends, repaints or resizes on the loop's thread.
/// - SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGQUIT: write the
///   saved terminfo strings (keypad off, attributes off, cursor on, leave the
///   alternate screen) and `tcsetattr` the saved modes, then re-raise with the
///   disposition that was there before (the default, or Swift's backtracer).
enum TerminalSignals {
    static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    static let controlSignals: [Int32] = [SIGTSTP, SIGCONT, SIGWINCH]
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGQUIT]
    static var allSignals: [Int32] { terminationSignals + controlSignals + crashSignals }

    /// Bit `signo` set: that signal arrived and is not yet handled by the loop.
    static let pending = Atomic<UInt64>(0)
    /// Write end of the wake pipe (-1: none).
    static let wakeDescriptor = Atomic<Int32>(-1)
    /// The terminal to restore after a crash (-1: curses is not active).
    static let terminalDescriptor = Atomic<Int32>(-1)
    static let restoreByteCount = Atomic<Int>(0)
    static let restoreCapacity = 512
    nonisolated(unsafe) static let restoreBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: restoreCapacity)
    nonisolated(unsafe) static let savedModes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        actions.initialize(repeating: sigaction(), count: 65)
        return actions
    }()
    private static let exitHookRegistered = Atomic<Bool>(false)

    /// Installs the handlers. Dispositions that were SIG_IGN (nohup, a shell
    /// without job control) stay ignored. Call before `newterm` so that
    /// ncurses, which only replaces default dispositions, keeps out.
    static func install(wakeDescriptor wake: Int32) {
        // Touch every lazily initialised global here, not first in a handler.
        _ = pending.load(ordering: .relaxed)
        _ = (restoreBytes, savedModes, previousActions, restoreByteCount.load(ordering: .relaxed))
        wakeDescriptor.store(wake, ordering: .sequentiallyConsistent)
        pending.store(0, ordering: .sequentiallyConsistent)
        let restart = cnc_sa_restart()
        for signo in terminationSignals {
            cnc_sigaction_handler(signo, terminationHandler, restart, previousActions + Int(signo))
            if cnc_sigaction_is_ignored(previousActions + Int(signo)) != 0 {
                cnc_sigaction_restore(signo, previousActions + Int(signo))
            }
        }
        for signo in controlSignals {
            cnc_sigaction_handler(signo, controlHandler, restart, previousActions + Int(signo))
            if signo == SIGTSTP, cnc_sigaction_is_ignored(previousActions + Int(signo)) != 0 {
                cnc_sigaction_restore(signo, previousActions + Int(signo))
            }
        }
        for signo in crashSignals {
            cnc_sigaction_handler(signo, crashHandler, 0, previousActions + Int(signo))
        }
        if !exitHookRegistered.exchange(true, ordering: .sequentiallyConsistent) {
            atexit(exitHook)
        }
    }

    /// Puts back every disposition `install` replaced.
    static func uninstall() {
        for signo in allSignals { cnc_sigaction_restore(signo, previousActions + Int(signo)) }
        wakeDescriptor.store(-1, ordering: .sequentiallyConsistent)
        pending.store(0, ordering: .sequentiallyConsistent)
    }

    /// Records what a crash handler must write and reset for the terminal on `descriptor`.
    static func arm(descriptor: Int32, modes: termios, restoreSequence: [UInt8]) {
        savedModes.pointee = modes
        let count = min(restoreSequence.count, restoreCapacity)
        restoreSequence.withUnsafeBufferPointer { source in
            restoreBytes.update(from: source.baseAddress!, count: count)
        }
        restoreByteCount.store(count, ordering: .sequentiallyConsistent)
        terminalDescriptor.store(descriptor, ordering: .sequentiallyConsistent)
    }

    /// Curses mode again (after a suspend): the strings and modes recorded by `arm` still apply.
    static func rearm(descriptor: Int32) {
        terminalDescriptor.store(descriptor, ordering: .sequentiallyConsistent)
    }

    /// The terminal is no longer in curses mode (endwin ran): nothing to restore.
    static func disarm() -> Int32 {
        terminalDescriptor.exchange(-1, ordering: .sequentiallyConsistent)
    }

    static func isPending(_ signo: Int32) -> Bool {
        pending.load(ordering: .sequentiallyConsistent) & (1 << UInt64(signo)) != 0
    }

    /// Clears `signo` and tells whether it was pending.
    static func take(_ signo: Int32) -> Bool {
        let bit: UInt64 = 1 << UInt64(signo)
        return pending.bitwiseAnd(~bit, ordering: .sequentiallyConsistent).oldValue & bit != 0
    }

    /// Marks a signal as arrived (for the loop's own use: input hang-up counts as SIGHUP).
    static func post(_ signo: Int32) {
        pending.bitwiseOr(1 << UInt64(signo), ordering: .sequentiallyConsistent)
    }

    /// Restores the terminal with write(2) and tcsetattr(3) only: safe in a handler.
    static func restoreTerminalRaw() {
        let fd = terminalDescriptor.exchange(-1, ordering: .sequentiallyConsistent)
        guard fd >= 0 else { return }
        let count = restoreByteCount.load(ordering: .sequentiallyConsistent)
        if count > 0 { _ = write(fd, restoreBytes, count) }
        _ = tcsetattr(fd, TCSANOW, savedModes)
    }

    fileprivate static func wake() {
        let fd = wakeDescriptor.load(ordering: .sequentiallyConsistent)
        guard fd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }
}

private func terminationHandler(_ signo: Int32) {
    let savedErrno = errno
    let bit: UInt64 = 1 << UInt64(signo)
    let before = TerminalSignals.pending.bitwiseOr(bit, ordering: .sequentiallyConsistent).oldValue
    let terminationBits: UInt64 = (1 << UInt64(SIGINT)) | (1 << UInt64(SIGTERM)) | (1 << UInt64(SIGHUP))
    if before & terminationBits != 0 {
        // Asked twice and the loop has not ended: do not leave the terminal raw.
        TerminalSignals.restoreTerminalRaw()
        _exit(128 + signo)
    }
    TerminalSignals.wake()
    errno = savedErrno
}

private func controlHandler(_ signo: Int32) {
    let savedErrno = errno
    TerminalSignals.pending.bitwiseOr(1 << UInt64(signo), ordering: .sequentiallyConsistent)
    TerminalSignals.wake()
    errno = savedErrno
}

private func crashHandler(_ signo: Int32) {
    TerminalSignals.restoreTerminalRaw()
    // Re-raise under the disposition found at install (default, or a backtracer).
    // The signal stays blocked until this handler returns, then is delivered again.
    cnc_sigaction_restore(signo, TerminalSignals.previousActions + Int(signo))
    raise(signo)
}

private func exitHook() {
    // exit() called while curses was still active (the app forgot `close()`).
    TerminalSignals.restoreTerminalRaw()
}
