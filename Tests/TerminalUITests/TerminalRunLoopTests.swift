import Testing

@testable import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// A view that animates for `duration` seconds after any key, on the loop's clock.
private final class PulseView: View {
    let clock: TestClock
    var animationEnd: Double = -1
    var duration: Double
    var events: [InputEvent] = []
    var renders: [Double] = []

    init(clock: TestClock, duration: Double = 0.25) {
        self.clock = clock
        self.duration = duration
    }

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        renders.append(time)
        canvas.put("pulse \(events.count)", x: 0, y: 0)
    }

    func handle(_ event: InputEvent) -> EventResult {
        events.append(event)
        if event == .character("a") { animationEnd = clock.now + duration }
        if event == .character("x") { return .dismiss }
        if event == .character("!") { return .quit }
        return event == .character("q") ? .ignored : .handled
    }

    func needsTick(at time: Double) -> Bool { time < animationEnd }
}

@Suite struct TerminalRunLoopTests {
    @Test func blocksWithoutTimeoutWhenNothingAnimatesOrPolls() {
        let clock = TestClock()
        let screen = WidgetScriptedScreen(clock: clock, script: [(1, .down), (2, .character("q"))])
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        loop.push(PulseView(clock: clock))
        #expect(loop.run() == .quit)
        #expect(screen.waits.map(\.timeoutMilliseconds) == [nil, nil])
        #expect(!screen.blockedWithNothingScripted)
    }

    @Test func ticksAtAboutThirtyFramesPerSecondOnlyWhileAnimating() {
        let clock = TestClock()
        let screen = WidgetScriptedScreen(clock: clock, script: [(1, .character("a")), (5, .character("q"))])
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        let view = PulseView(clock: clock, duration: 0.25)
        loop.push(view)
        #expect(loop.run() == .quit)
        let timeouts = screen.waits.map(\.timeoutMilliseconds)
        // Before the key: block. During 250 ms of animation: 34 ms frames. After: block again.
        #expect(timeouts.first == .some(nil))
        #expect(timeouts.last == .some(nil))
        let ticking = timeouts.compactMap { $0 }
        #expect(ticking.allSatisfy { $0 == 34 })
        #expect((7...9).contains(ticking.count))
        // Every tick redrew a frame: initial + key + ticks + the q that ended it is not drawn.
        #expect(screen.frames.count == 2 + ticking.count)
        #expect(view.renders.last! >= 1.25)
    }

    @Test func tickerPollsAtItsIntervalAndStopsWhenRemoved() {
        let clock = TestClock()
        let screen = WidgetScriptedScreen(clock: clock, script: [(1.05, .character("r")), (3, .character("q"))])
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        var polls: [Double] = []
        var ticker: TerminalRunLoop.TickerID?
        loop.unhandledEventHandler = { event in
            if event == .character("r"), let id = ticker {
                loop.removeTicker(id)
                return .handled
            }
            return event == .character("q") ? .quit : .ignored
        }
        ticker = loop.addTicker(every: 0.2) { now in polls.append(now) }
        #expect(loop.run() == .quit)
        #expect(polls.count == 5)  // 0.2, 0.4, 0.6, 0.8, 1.0
        for (index, time) in polls.enumerated() {
            #expect(abs(time - 0.2 * Double(index + 1)) < 0.002)
        }
        let timeouts = screen.waits.map(\.timeoutMilliseconds)
        #expect(timeouts.prefix(5).allSatisfy { $0 != nil && $0! <= 200 })
        #expect(timeouts.last == .some(nil))  // ticker removed: blocks again
    }

    @Test func wakesOnceWhenAStatusMessageExpiresInsteadOfTicking() {
        let clock = TestClock()
        let screen = WidgetScriptedScreen(clock: clock, script: [(10, .character("q"))])
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        let status = StatusLine(hints: "q quit")
        status.showMessage("Saved", at: 0, duration: 4)
        loop.push(status)
        #expect(loop.run() == .quit)
        #expect(screen.waits.map(\.timeoutMilliseconds) == [4000, nil])
        #expect(screen.frames[0].text.hasPrefix("Saved"))
        #expect(screen.frames[1].text.hasPrefix("q quit"))
    }

    @Test func quitsOnQWhenTheTopViewIgnoresIt() {
        let clock = TestClock()
        let screen = WidgetScriptedScreen(clock: clock, script: [(0, .character("q"))])
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        let view = PulseView(clock: clock)
        loop.push(view)
        #expect(loop.run() == .quit)
        #expect(view.events == [.character("q")])
    }

    @Test func viewCanQuitAndDismissItself() {
        let clock = TestClock()
        let screen = WidgetScriptedScreen(clock: clock, script: [(0, .character("x")), (1, .character("!"))])
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        let bottom = PulseView(clock: clock)
        let top = PulseView(clock: clock)
        loop.push(bottom)
        loop.push(top)
        #expect(loop.run() == .quit)
        #expect(top.events == [.character("x")])
        #expect(bottom.events == [.character("!")])
        #expect(loop.views.count == 1)
    }

    @Test func escapeOrLeftIgnoredByAPushedScreenGoesBack() {
        final class Quiet: View {
            func render(into canvas: inout Canvas, frame: Rect, at time: Double) {}
        }
        let clock = TestClock()
        let screen = WidgetScriptedScreen(
            clock: clock,
            script: [
                (0, .escape), (1, .left), (2, .escape), (3, .character("q")),
            ]
        )
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        let root = Quiet()
        loop.push(root)
        loop.push(Quiet())
        loop.push(Quiet())
        #expect(loop.run() == .quit)
        #expect(loop.views.count == 1)  // two backs; the third Esc has nothing beneath
        #expect(loop.topView === root)
    }

    @Test func terminationSignalEndsTheLoopWithItsExitStatus() {
        let clock = TestClock()
        let screen = WidgetScriptedScreen(clock: clock, script: [(9, .character("q"))])
        screen.signal = (at: 2, signo: SIGTERM)
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        loop.push(PulseView(clock: clock))
        let exit = loop.run()
        #expect(exit == .signal(SIGTERM))
        #expect(exit.exitStatus == 143)
        #expect(TerminalRunLoop.Exit.quit.exitStatus == 0)
    }

    @Test func controlLRepaintsTheTerminalAndResizeGoesToEveryView() {
        let clock = TestClock()
        let screen = WidgetScriptedScreen(
            clock: clock,
            script: [
                (0, .control("l")), (1, .resize(width: 100, height: 30)), (2, .character("q")),
            ]
        )
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        let bottom = PulseView(clock: clock)
        let top = PulseView(clock: clock)
        loop.push(bottom)
        loop.push(top)
        #expect(loop.run() == .quit)
        #expect(screen.redrawAllCount == 1)
        #expect(bottom.events.contains(.resize(width: 100, height: 30)))
        #expect(top.events.first == .resize(width: 100, height: 30))
        #expect(!top.events.contains(.control("l")))
        #expect(screen.frames.last!.width == 100 && screen.frames.last!.height == 30)
    }

    @Test func helpBindingsOpenAHelpOverlayThatAnyKeyCloses() {
        final class Quiet: View {
            func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
                canvas.put("list", x: 0, y: 0)
            }
        }
        let clock = TestClock()
        let screen = WidgetScriptedScreen(
            width: 40,
            height: 12,
            clock: clock,
            script: [
                (0, .character("?")), (1, .character("z")), (2, .function(1)), (3, .escape), (4, .character("q")),
            ]
        )
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        loop.push(Quiet())
        loop.helpBindings = [("q", "quit"), ("?", "this help")]
        #expect(loop.run() == .quit)
        // Frames: initial, help open, closed, help open (F1), closed.
        #expect(screen.frames.count == 5)
        #expect(screen.frames[1].text.contains("this help"))
        #expect(screen.frames[1].text.hasPrefix("list"))  // the screen beneath still shows
        #expect(!screen.frames[2].text.contains("this help"))
        #expect(screen.frames[3].text.contains("this help"))
        #expect(loop.views.count == 1)
    }

    @Test func tooSmallScreenReplacesTheViewsAndOnlyQActs() {
        let clock = TestClock()
        let screen = WidgetScriptedScreen(
            width: 15,
            height: 4,
            clock: clock,
            script: [
                (0, .character("a")), (1, .character("q")),
            ]
        )
        let loop = TerminalRunLoop(backend: screen, clock: clock, minimumWidth: 20, minimumHeight: 5)
        let view = PulseView(clock: clock)
        loop.push(view)
        #expect(loop.run() == .quit)
        #expect(view.events.isEmpty)
        #expect(screen.frames[0].text.contains("Terminal too"))
        // Never ticks while too small, even if a view would animate.
        #expect(screen.waits.allSatisfy { $0.timeoutMilliseconds == nil })
    }

    @Test func growingPastTheMinimumBringsTheViewsBack() {
        let clock = TestClock()
        let screen = WidgetScriptedScreen(
            width: 15,
            height: 4,
            clock: clock,
            script: [
                (0, .resize(width: 40, height: 12)), (1, .character("q")),
            ]
        )
        let loop = TerminalRunLoop(backend: screen, clock: clock, minimumWidth: 20, minimumHeight: 5)
        loop.push(PulseView(clock: clock))
        _ = loop.run()
        #expect(screen.frames.last!.text.hasPrefix("pulse 1"))
    }
}
