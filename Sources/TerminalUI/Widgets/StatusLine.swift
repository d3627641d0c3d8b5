/// The bottom line of a screen: hints or state on the left (dim), a position
/// such as "123/572" on the right, and transient messages that replace the
/// hints for a few seconds ("Deleted Dune Messiah — u to undo").
///
/// A message is shown from the time it is posted until `duration` seconds
/// later; `nextWakeTime` tells the run loop when to redraw without it, so no
/// ticking is needed while it shows.
///
///     let status = StatusLine(hints: "? help  / search  q quit")
///     status.trailingText = "123/572"
///     status.showMessage("Deleted Dune Messiah — u to undo", at: clock.now)
///     status.render(into: &canvas, frame: canvas.bounds.row(canvas.height - 1), at: clock.now)
public final class StatusLine: View {
    /// How a message is drawn: `.info` bold, `.error` in the destructive colour (and bold).
    public enum MessageStyle: Sendable, Equatable {
        /// An ordinary message, bold.
        case info
        /// Something went wrong: the destructive colour, bold.
        case error
    }

    /// A transient message and when it stops showing.
    public struct Message: Sendable, Equatable {
        /// What is shown.
        public var text: String
        /// How it is drawn.
        public var style: MessageStyle
        /// When it stops showing (seconds, the clock's time).
        public var expiresAt: Double
    }

    /// Left side when no message shows: key hints, the current tab, a filter.
    public var hints: String
    /// Right side: position ("123/572"), match count, …
    public var trailingText: String?
    /// The last message posted (it may have expired; see `message(at:)`).
    public private(set) var message: Message?

    /// A status line with hints on the left and optional text on the right.
    public init(hints: String = "", trailingText: String? = nil) {
        self.hints = hints
        self.trailingText = trailingText
    }

    /// Shows `text` from `time` for `duration` seconds, replacing any earlier message.
    public func showMessage(_ text: String, at time: Double, duration: Double = 4, style: MessageStyle = .info) {
        message = Message(text: text, style: style, expiresAt: time + duration)
    }

    /// Removes the message at once (e.g. after `u` undid the delete).
    public func clearMessage() { message = nil }

    /// The message showing at `time`, if any.
    public func message(at time: Double) -> Message? {
        guard let message, time < message.expiresAt else { return nil }
        return message
    }

    public func nextWakeTime(after time: Double) -> Double? {
        guard let message, message.expiresAt > time else { return nil }
        return message.expiresAt
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        let y = frame.y
        var right = frame.maxX
        if let trailingText, !trailingText.isEmpty {
            let width = min(DisplayWidth.of(trailingText), frame.width)
            canvas.put(trailingText, x: frame.maxX - width, y: y, maxWidth: width)
            right -= width + 2
        }
        let available = right - frame.x
        guard available > 0 else { return }
        if let message = message(at: time) {
            let attributes: CellAttributes = message.style == .error ? [.bold, .destructive] : .bold
            canvas.put(message.text, x: frame.x, y: y, attributes: attributes, maxWidth: available)
        } else {
            canvas.put(hints, x: frame.x, y: y, attributes: .dim, maxWidth: available)
        }
    }
}
