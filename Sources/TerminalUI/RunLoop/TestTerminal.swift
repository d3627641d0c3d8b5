/// A terminal for tests: a ``MemoryBackend``, a ``TestClock`` and a ``TerminalRunLoop`` on
/// them, with keys pressed as a person presses them and each frame drawn at a known time, so
/// that a test reads what the screen shows (ratatui's `TestBackend`, with its event loop).
///
///     let terminal = TestTerminal(width: 50, height: 16)
///     let list = try ListScreen(context: context, configuration: configuration, loop: terminal.loop)
///     terminal.press()                          // the first frame
///     terminal.press(.character("d"), .enter)   // delete the selected row
///     #expect(terminal.text.contains("u to undo"))
///
/// Letting the terminal go empties its loop's view stack, which frees the views it held.
public final class TestTerminal {
    /// The screen the loop draws on.
    public let backend: MemoryBackend
    /// The loop's clock, moved only by ``press(_:)`` and ``type(_:)`` (or by the test).
    public let clock: TestClock
    /// The run loop the test's views go on.
    public let loop: TerminalRunLoop

    /// A terminal of `width` × `height` cells whose clock stands at `now`; a loop whose views
    /// need at least `minimumWidth` × `minimumHeight` (a smaller terminal shows a notice).
    public init(width: Int = 80, height: Int = 24, now: Double = 10, minimumWidth: Int = 20, minimumHeight: Int = 5) {
        backend = MemoryBackend(width: width, height: height)
        clock = TestClock(now: now)
        loop = TerminalRunLoop(backend: backend, clock: clock, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
    }

    deinit { while loop.pop() != nil {} }

    /// Sends each event through the loop's rules (``TerminalRunLoop/dispatch(_:)``) and runs what
    /// was posted to the loop by then (``TerminalRunLoop/runPosted(waitingUpTo:)``), with a frame
    /// 10 ms after it, then runs what was posted and draws a frame one second later, when
    /// animations have ended; that frame's text. Without events, it draws that one frame.
    @discardableResult
    public func press(_ events: InputEvent...) -> String {
        TestTerminal.press(events, on: loop, clock: clock)
        return text
    }

    /// ``press(_:)`` on a loop the test did not make here (an app's own, on a ``MemoryBackend``),
    /// whose time `clock` tells.
    ///
    ///     TestTerminal.press([.down, .enter], on: browser.loop, clock: clock)
    public static func press(_ events: [InputEvent], on loop: TerminalRunLoop, clock: TestClock) {
        for event in events {
            loop.dispatch(event)
            loop.runPosted()
            clock.advance(by: 0.01)
            loop.draw()
        }
        loop.runPosted()
        clock.advance(by: 1)
        loop.draw()
    }

    /// Waits up to `timeout` seconds for background work to post to the loop (nothing sleeps:
    /// it returns as soon as a post arrives), runs what was posted and draws a frame; the
    /// number of closures run (0: nothing arrived in time).
    ///
    ///     loop.perform({ expensiveCount() }, then: { [weak view] in view?.count = try? $0.get() })
    ///     #expect(terminal.runPosted(waitingUpTo: 10) == 1)
    ///     #expect(terminal.text.contains("42"))
    @discardableResult
    public func runPosted(waitingUpTo timeout: Double) -> Int {
        let count = loop.runPosted(waitingUpTo: timeout)
        loop.draw()
        return count
    }

    /// Presses the characters of `text` one by one (``press(_:)``); the last frame's text.
    @discardableResult
    public func type(_ text: String) -> String {
        for character in text { press(.character(character)) }
        return self.text
    }

    /// The text of the last frame drawn (``MemoryBackend/text``).
    public var text: String { backend.text }
}
