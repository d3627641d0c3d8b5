/// A key or other input event, decoded from the terminal by a backend.
public enum InputEvent: Hashable, Sendable {
    /// A printable character typed.
    case character(Character)
    /// The arrow and paging keys.
    case up, down, left, right, pageUp, pageDown, home, end
    /// Enter, Esc, Tab, Shift-Tab, Backspace, Delete and Insert.
    case enter, escape, tab, backTab, backspace, delete, insert
    /// A function key: `.function(1)` is F1.
    case function(Int)
    /// A control chord other than those above, e.g. `.control("l")` for Ctrl-L.
    case control(Character)
    /// The mouse wheel turned at (`x`, `y`).
    case mouseWheel(up: Bool, x: Int, y: Int)
    /// A click at (`x`, `y`).
    case mouseClick(x: Int, y: Int)
    /// The terminal's new size (the screen's `width` and `height` already report it).
    case resize(width: Int, height: Int)
}

/// Where frames go and keys come from: ncursesw, or an in-memory grid in tests.
///
/// A frame is drawn into a `Canvas` by the views and handed to `present`,
/// which the ncurses backend turns into `wnoutrefresh` + one `doupdate`.
///
///     let backend = MemoryBackend(width: 80, height: 24)
///     var canvas = Canvas(width: screen.width, height: screen.height)
///     tableView.render(into: &canvas, at: clock.now)
///     screen.present(canvas)
public protocol Backend: AnyObject {
    /// Columns of the terminal (or of the in-memory grid).
    var width: Int { get }
    /// Lines of the terminal (or of the in-memory grid).
    var height: Int { get }
    /// Shows a finished frame.
    func present(_ canvas: Canvas)
    /// Waits up to `timeoutMilliseconds` (nil: forever) for the next event; nil on timeout,
    /// and when woken by ``waker`` before one came.
    func nextEvent(timeoutMilliseconds: Int?) -> InputEvent?
    /// The next event if one is already waiting, without waiting: what the run
    /// loop reads to deliver a burst. Default: `nextEvent(timeoutMilliseconds: 0)`.
    func nextPendingEvent() -> InputEvent?
    /// A function any thread may call to make a `nextEvent` that waits return at once
    /// (nil when `nextEvent` never waits). The run loop's ``RunLoopMailbox`` calls it after
    /// each post. Default: nil — so a backend that waits must give one (``CursesBackend``
    /// writes to its self-pipe), and one that wraps another passes the other's on.
    var waker: (@Sendable () -> Void)? { get }
}

extension Backend {
    public func nextPendingEvent() -> InputEvent? { nextEvent(timeoutMilliseconds: 0) }
    /// No waker: `nextEvent` of this backend never waits for long (``MemoryBackend``).
    public var waker: (@Sendable () -> Void)? { nil }
}
