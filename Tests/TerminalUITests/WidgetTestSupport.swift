import Testing

@testable import TerminalUI

/// A canvas of the given size with `body` drawn into it.
func widgetCanvas(width: Int, height: Int, _ body: (inout Canvas) -> Void) -> Canvas {
    var canvas = Canvas(width: width, height: height)
    body(&canvas)
    return canvas
}

/// Fills every row with dim text, so overlay goldens show what they cover.
func widgetBackground(_ canvas: inout Canvas) {
    for y in 0..<canvas.height {
        canvas.put(String(repeating: "background \(y) ", count: 12), x: 0, y: y, attributes: .dim, truncate: false)
    }
}

/// Sends each event to `view`, returning the results.
@discardableResult
func widgetSend(_ view: View, _ events: [InputEvent]) -> [EventResult] {
    events.map { view.handle($0) }
}

/// Typed text as character events.
func widgetTyping(_ text: String) -> [InputEvent] {
    text.map { InputEvent.character($0) }
}

/// A screen for run-loop tests: events arrive at scripted times on a `TestClock`;
/// a wait with a timeout advances the clock by that timeout when nothing is due.
/// Every wait and every presented frame is recorded.
final class WidgetScriptedScreen: TerminalBackend {
    struct Wait: Equatable {
        let at: Double
        let timeoutMilliseconds: Int?
    }

    var width: Int
    var height: Int
    let clock: TestClock
    /// (time, event) sorted by time; a nil event stands for a signal delivery (see `signalAt`).
    var script: [(at: Double, event: InputEvent)]
    var signal: (at: Double, signo: Int32)?
    private(set) var waits: [Wait] = []
    private(set) var frames: [Canvas] = []
    private(set) var redrawAllCount = 0
    private(set) var blockedWithNothingScripted = false
    private(set) var delivered: Int32?

    init(width: Int = 80, height: Int = 24, clock: TestClock, script: [(at: Double, event: InputEvent)]) {
        self.width = width
        self.height = height
        self.clock = clock
        self.script = script.sorted { $0.at < $1.at }
    }

    var terminationSignal: Int32? { delivered }

    func redrawAll() { redrawAllCount += 1 }

    func present(_ canvas: Canvas) { frames.append(canvas) }

    func nextEvent(timeoutMilliseconds: Int?) -> InputEvent? {
        waits.append(Wait(at: clock.now, timeoutMilliseconds: timeoutMilliseconds))
        let limit = timeoutMilliseconds.map { clock.now + Double($0) / 1000 } ?? .infinity
        if let signal, signal.at <= limit, signal.at <= (script.first?.at ?? .infinity) {
            clock.now = max(clock.now, signal.at)
            delivered = signal.signo
            self.signal = nil
            return nil
        }
        if let next = script.first, next.at <= limit + 1e-9 {
            script.removeFirst()
            clock.now = max(clock.now, next.at)
            if case .resize(let w, let h) = next.event {
                width = w
                height = h
            }
            return next.event
        }
        guard let timeoutMilliseconds else {
            // Blocking forever with nothing scripted would hang the test: end it.
            blockedWithNothingScripted = true
            return .character("q")
        }
        clock.advance(by: Double(timeoutMilliseconds) / 1000)
        return nil
    }

    /// A scripted event that is due now (typed while the last one was handled), not a wait.
    func nextPendingEvent() -> InputEvent? {
        guard signal == nil || signal!.at > clock.now, let next = script.first, next.at <= clock.now + 1e-9 else {
            return nil
        }
        script.removeFirst()
        if case .resize(let w, let h) = next.event {
            width = w
            height = h
        }
        return next.event
    }
}
