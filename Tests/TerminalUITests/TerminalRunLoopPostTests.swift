import Dispatch
import Glibc
import Synchronization
import Testing

@testable import TerminalUI

/// `post(_:)`, `poster(_:)` and `perform(_:then:)`: the one way back to the loop's thread.
@Suite struct TerminalRunLoopPostTests {
    @Test func whatIsPostedRunsOnTheLoopBeforeTheFrameOfThatIteration() {
        let clock = TestClock()
        // A key at 5 s: the loop would wait until then if the post did not wake it.
        let screen = WidgetScriptedScreen(clock: clock, script: [(5, .character("q"))])
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        let view = LineView("Loading…")
        loop.push(view)
        let show = loop.poster { [unowned view] (text: String) in view.line = text }
        show("Loaded")
        #expect(view.line == "Loading…", "a post runs on the loop, not in the caller")
        #expect(loop.run() == .quit)
        // Frame 1 is run()'s first; the post ran in the first iteration, whose frame shows it.
        #expect(screen.frames.count >= 2)
        #expect(screen.frames[1].text.hasPrefix("Loaded"))
        // That iteration did not wait: something was posted.
        #expect(screen.waits.first?.timeoutMilliseconds == 0)
    }

    @Test func postsRunOldestFirstAndAPostFromAPostWaitsForTheNextIteration() {
        let terminal = TestTerminal(width: 20, height: 5)
        let order = Mutex<[String]>([])
        let loop = terminal.loop
        let mailbox = loop.mailbox
        loop.post { order.withLock { $0.append("first") } }
        loop.post {
            order.withLock { $0.append("second") }
            mailbox.post { order.withLock { $0.append("third") } }
        }
        #expect(loop.runPosted() == 2)
        #expect(order.withLock { $0 } == ["first", "second"])
        #expect(loop.runPosted() == 1)
        #expect(order.withLock { $0 } == ["first", "second", "third"])
        #expect(loop.runPosted() == 0)
    }

    @Test func performRunsTheWorkOffTheLoopAndHandsTheResultBack() throws {
        let terminal = TestTerminal(width: 30, height: 5)
        let view = LineView("counting")
        terminal.loop.push(view)
        let loopThread = pthread_self()
        terminal.loop.perform {
            (pthread_equal(pthread_self(), loopThread) == 0, (1...100).reduce(0, +))
        } then: { [unowned view] result in
            let (offTheLoop, sum) = result.get()
            view.line = "\(offTheLoop) \(sum)"
        }
        #expect(terminal.runPosted(waitingUpTo: 60) == 1)
        #expect(terminal.text.hasPrefix("true 5050"))
    }

    @Test func performHandsAnErrorBackAsAFailure() {
        struct Refused: Error, Equatable {}
        let terminal = TestTerminal(width: 30, height: 5)
        let view = LineView("")
        terminal.loop.push(view)
        terminal.loop.perform { () throws(Refused) -> Int in
            throw Refused()
        } then: { [unowned view] result in
            view.line = result == .failure(Refused()) ? "refused" : "?"
        }
        #expect(terminal.runPosted(waitingUpTo: 60) == 1)
        #expect(terminal.text.hasPrefix("refused"))
    }

    @Test func runPostedWaitsOnlyUntilSomethingArrivesAndNotAtAllWithoutATimeout() {
        let terminal = TestTerminal(width: 20, height: 5)
        #expect(terminal.loop.runPosted() == 0)
        #expect(terminal.runPosted(waitingUpTo: 0.01) == 0)
        let mailbox = terminal.loop.mailbox
        let ran = Mutex(false)
        DispatchQueue.global().async { mailbox.post { ran.withLock { $0 = true } } }
        #expect(terminal.runPosted(waitingUpTo: 60) == 1)
        #expect(ran.withLock { $0 })
    }

    @Test func pressRunsWhatWasPostedBeforeItsFrame() {
        let terminal = TestTerminal(width: 20, height: 5)
        let view = LineView("before")
        terminal.loop.push(view)
        terminal.press()
        let show = terminal.loop.poster { [unowned view] in view.line = "after" }
        show()
        #expect(terminal.press().hasPrefix("after"))
    }
}
