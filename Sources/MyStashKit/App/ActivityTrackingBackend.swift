import TerminalUI

/// A screen that passes everything through to another and remembers when
/// the last key (or mouse event) arrived: what auto-lock measures idleness by.
///
///     let backend = ActivityTrackingBackend(base: try CursesBackend(), clock: clock)
///     screen.lastActivity   // the clock's time of the last input
final class ActivityTrackingBackend: TerminalBackend {
    let base: Backend
    let clock: any TimeSource
    /// The clock's time of the last input event (the creation time before any).
    private(set) var lastActivity: Double

    init(base: Backend, clock: any TimeSource) {
        self.base = base
        self.clock = clock
        lastActivity = clock.now
    }

    /// Counts as activity (the app calls it for events it is given directly, e.g. in tests).
    func noteActivity() { lastActivity = clock.now }

    var width: Int { base.width }
    var height: Int { base.height }
    func present(_ canvas: Canvas) { base.present(canvas) }

    func nextEvent(timeoutMilliseconds: Int?) -> InputEvent? {
        let event = base.nextEvent(timeoutMilliseconds: timeoutMilliseconds)
        if let event {
            if case .resize = event {} else { noteActivity() }
        }
        return event
    }

    /// The base's: a post to the run loop wakes the wait this screen passes through.
    var waker: (@Sendable () -> Void)? { base.waker }
    var terminationSignal: Int32? { (base as? TerminalBackend)?.terminationSignal }
    func redrawAll() { (base as? TerminalBackend)?.redrawAll() }
}
