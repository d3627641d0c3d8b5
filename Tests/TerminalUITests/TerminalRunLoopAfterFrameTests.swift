import Testing

@testable import TerminalUI

/// `afterNextFrame`: slow work after the first picture is on the screen.
@Suite struct TerminalRunLoopAfterFrameTests {
    @Test func actionRunsOnceAfterTheNextFrameIsPresentedAndTheLoopDrawsItsResultAtOnce() {
        let clock = TestClock()
        let screen = WidgetScriptedScreen(clock: clock, script: [(1, .character("q"))])
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        let view = LineView("Loading…")
        loop.push(view)
        var framesWhenRun: [Int] = []
        loop.afterNextFrame {
            framesWhenRun.append(screen.frames.count)
            view.line = "Loaded"
        }
        #expect(loop.run() == .quit)
        // The first frame was presented before the action ran; the second, drawn right
        // after it (before waiting for any key), shows what it did.
        #expect(framesWhenRun == [1])
        #expect(screen.frames.count >= 2)
        #expect(screen.frames[0].text.hasPrefix("Loading…"))
        #expect(screen.frames[1].text.hasPrefix("Loaded"))
        #expect(screen.waits.first?.at == 0)
    }

    @Test func drawRunsTheActionsOfItsFrameOnlyAndLaterActionsWaitForTheNextFrame() {
        let screen = MemoryBackend(width: 20, height: 5)
        let loop = TerminalRunLoop(backend: screen, clock: TestClock())
        let view = LineView("one")
        loop.push(view)
        var runs: [String] = []
        loop.afterNextFrame {
            runs.append("first after \(screen.presentCount)")
            view.line = "two"
            loop.afterNextFrame { runs.append("second after \(screen.presentCount)") }
        }
        loop.draw()
        // Frame 1 ("one"), the first action, frame 2 ("two"), the action it added, frame 3.
        #expect(runs == ["first after 1", "second after 2"])
        #expect(screen.presentCount == 3)
        #expect(screen.text.hasPrefix("two"))
        loop.draw()
        #expect(runs.count == 2)
        #expect(screen.presentCount == 4)
    }
}
