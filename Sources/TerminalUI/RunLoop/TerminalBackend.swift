/// A `Backend` on a real terminal: it can be asked to end by a signal, and can
/// repaint everything when the picture got damaged.
///
/// The run loop works with any `Backend`; when the screen is also a
/// `TerminalBackend` it ends on SIGINT/SIGTERM/SIGHUP and honours Ctrl-L.
/// `CursesBackend` conforms; a test fake may conform to script a signal.
///
///     if let terminal = screen as? TerminalBackend, let signo = terminal.terminationSignal {
///         return .signal(signo)
///     }
public protocol TerminalBackend: Backend {
    /// The first of SIGINT, SIGTERM, SIGHUP that arrived (or SIGHUP when the
    /// terminal went away), nil while none did.
    var terminationSignal: Int32? { get }
    /// Forgets what the terminal shows and repaints every cell on the next
    /// `present` (Ctrl-L, or after another program scribbled on the screen).
    func redrawAll()
}
