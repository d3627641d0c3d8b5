/// What a view tells the run loop after handling an event.
///
///     func handle(_ event: InputEvent) -> EventResult {
///         switch event {
///         case .escape: return .dismiss      // an overlay closes itself
///         case .character("j"): moveDown(); return .handled
///         default: return .ignored           // the loop's fallback may use it
///         }
///     }
public enum EventResult: Equatable, Sendable {
    /// Consumed; the loop redraws.
    case handled
    /// Not for this view; the run loop offers it to its `unhandledEventHandler`.
    case ignored
    /// Consumed, and the view is finished: the loop removes it from its stack.
    case dismiss
    /// Consumed; the run loop ends and `run()` returns `.quit`.
    case quit
}

/// Something the run loop can draw and send keys to: a whole screen (the
/// book list, a detail screen), an overlay (help, a dialog) or a widget.
///
/// Rendering is a function of state and time: `render` reads state and writes
/// cells, and never touches the terminal. State changes in `handle`.
///
///     final class HelloScreen: View {
///         var greeting = "Hello"
///         func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
///             canvas.put(greeting, x: frame.x, y: frame.y, attributes: .bold)
///         }
///         func handle(_ event: InputEvent) -> EventResult {
///             if event == .character("w") { greeting = "Hello, world"; return .handled }
///             return .ignored
///         }
///     }
public protocol View: AnyObject {
    /// Draws into `frame` of `canvas` as things are at `time` (seconds, the loop's clock).
    func render(into canvas: inout Canvas, frame: Rect, at time: Double)
    /// Reacts to one key, mouse or resize event. Default: `.ignored`.
    func handle(_ event: InputEvent) -> EventResult
    /// True while an animation runs: the loop then redraws about 30 times a second. Default: false.
    func needsTick(at time: Double) -> Bool
    /// A moment after `time` when the picture changes by itself (a message
    /// expires), so the loop wakes once then instead of ticking. Default: nil.
    func nextWakeTime(after time: Double) -> Double?
    /// False for overlays that draw over the views beneath them (help, dialogs).
    /// The loop renders from the top-most opaque view upwards. Default: true.
    var isOpaque: Bool { get }
}

extension View {
    public func handle(_ event: InputEvent) -> EventResult { .ignored }
    public func needsTick(at time: Double) -> Bool { false }
    public func nextWakeTime(after time: Double) -> Double? { nil }
    public var isOpaque: Bool { true }
}
