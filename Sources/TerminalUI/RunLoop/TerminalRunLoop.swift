/// The one loop that drives the screen: waits for input, hands it to the
/// front-most view, runs what other threads posted, fires tickers, redraws.
///
/// It owns a stack of views; the top one receives events, and everything from
/// the top-most opaque view upwards is drawn, so overlays (help, dialogs) show
/// the screen beneath. It blocks in `nextEvent` without a timeout unless a
/// visible view animates (then about `framesPerSecond` frames a second), a
/// ticker is due (the store's change polling), or a view asked to be woken at
/// a moment (a status message expiring), and wakes at once when another thread
/// posts a closure (``post(_:)``, through ``mailbox``): what background work hands
/// back runs before the frame of the iteration it woke. It handles all the input that is
/// waiting before it draws (a burst: see `dispatchBurst(startingWith:)` and
/// `InputBurst`), so a long paste costs one frame and one search, not one per
/// character. After every burst or tick it redraws the whole frame: erase the
/// canvas, render, `present` (the backend sends only the differences).
///
/// Built in: `.resize` goes to every view and relayouts; Ctrl-L repaints the
/// terminal; below `minimumWidth`×`minimumHeight` a "Terminal too small" screen
/// replaces the views (only `q` and resizes act then). Events the top view
/// ignores go to `unhandledEventHandler`; without one, `q` quits, Esc and ←
/// close the top view when there is one beneath it (back), and, when
/// `helpBindings` is set, `?` and F1 open a `HelpOverlay`.
///
///     let backend = try CursesBackend()
///     let loop = TerminalRunLoop(backend: backend, minimumWidth: 40, minimumHeight: 10)
///     loop.push(bookListScreen)
///     loop.helpBindings = [("↑/↓ j/k", "move"), ("q", "quit")]
///     loop.addTicker(every: 0.2) { _ in try? context.processExternalChanges() }
///     let reason = loop.run()          // .quit, or .signal(SIGTERM) …
///     backend.close()
///     exit(reason.exitStatus)
public final class TerminalRunLoop {
    /// Why `run()` returned.
    public enum Exit: Equatable, Sendable {
        /// `q`, a view's `.quit`, or `quit()`.
        case quit
        /// SIGINT, SIGTERM or SIGHUP (or the terminal hung up: SIGHUP).
        case signal(Int32)

        /// The process exit status for this reason: 0, or 128 + the signal number.
        public var exitStatus: Int32 {
            switch self {
            case .quit: return 0
            case .signal(let signo): return 128 + signo
            }
        }
    }

    /// An identifier for a ticker added with `addTicker`.
    public struct TickerID: Hashable, Sendable {
        fileprivate let value: Int
    }

    private struct Ticker {
        let id: TickerID
        let interval: Double
        var due: Double
        let body: (Double) -> Void
    }

    /// Where frames go and events come from.
    public let backend: Backend
    /// The thread-safe way in: what other threads post runs on the loop's thread
    /// (``post(_:)``, ``perform(_:then:)``).
    public let mailbox: RunLoopMailbox
    /// "Now" for rendering, tickers and timeouts.
    public let clock: any TimeSource
    /// Below this size the "Terminal too small" screen is shown.
    public var minimumWidth: Int
    /// Below this height the "Terminal too small" screen is shown.
    public var minimumHeight: Int
    /// Frame rate while a view animates.
    public var framesPerSecond: Double = 30
    /// The view stack, bottom first. The last one receives events.
    public private(set) var views: [View] = []
    /// Offered every event the top view ignores. Returning `.ignored` drops it.
    public var unhandledEventHandler: ((InputEvent) -> EventResult)?
    /// When set (and there is no `unhandledEventHandler`), `?` and F1 show these keys.
    public var helpBindings: [(keys: String, description: String)]?
    /// The last frame drawn (what the screen shows).
    public private(set) var canvas: Canvas
    /// Frames drawn so far (for tests and benchmarks).
    package private(set) var frameCount = 0

    private var tickers: [Ticker] = []
    private var nextTickerID = 0
    private var quitRequested = false
    private var afterFrameActions: [() -> Void] = []

    /// A loop over `backend` with an empty view stack.
    public init(
        backend: Backend,
        clock: any TimeSource = MonotonicClock(),
        minimumWidth: Int = 20,
        minimumHeight: Int = 5
    ) {
        self.backend = backend
        self.mailbox = RunLoopMailbox(wake: backend.waker)
        self.clock = clock
        self.minimumWidth = minimumWidth
        self.minimumHeight = minimumHeight
        self.canvas = Canvas(width: backend.width, height: backend.height)
    }

    /// The view that receives events.
    public var topView: View? { views.last }

    /// Puts `view` in front (a new screen, an overlay, a dialog).
    public func push(_ view: View) { views.append(view) }

    /// Puts `view` at the back, beneath every view shown: a screen made later to go back to
    /// (Esc from the bottom screen then returns to it).
    package func pushToBack(_ view: View) { views.insert(view, at: 0) }

    /// Removes the front view and returns it.
    @discardableResult
    public func pop() -> View? { views.popLast() }

    /// Removes `view` wherever it is in the stack.
    public func remove(_ view: View) { views.removeAll { $0 === view } }

    /// Replaces the whole stack with `view` (e.g. after a passphrase prompt).
    public func setRoot(_ view: View) { views = [view] }

    /// True when `view` is on the loop's stack (showing, or under another).
    ///
    ///     if loop.contains(list) { list.pollExternalChanges() }
    public func contains(_ view: View) -> Bool { views.contains { $0 === view } }

    /// Ends `run()` after the current event with `.quit`.
    public func quit() { quitRequested = true }

    /// Calls `body(now)` every `interval` seconds while the loop runs (the
    /// first time one interval from now); the frame is redrawn afterwards.
    @discardableResult
    public func addTicker(every interval: Double, _ body: @escaping (_ now: Double) -> Void) -> TickerID {
        let id = TickerID(value: nextTickerID)
        nextTickerID += 1
        tickers.append(Ticker(id: id, interval: max(0.001, interval), due: clock.now + interval, body: body))
        return id
    }

    /// Stops a ticker.
    public func removeTicker(_ id: TickerID) { tickers.removeAll { $0.id == id } }

    /// Runs `body` once, right after the next frame has been presented (so it is on the
    /// terminal), then draws again at once so that what `body` changed shows without
    /// waiting for a key or a tick.
    ///
    /// For slow work that should not delay the first picture: draw something quick
    /// (a provisional page, "Loading…"), do the work here, on the loop's thread. Keys
    /// typed meanwhile wait in the terminal and are handled afterwards. With
    /// `run()`, the next frame is its first; in a test that calls `draw()` itself,
    /// it is that call's. Actions added while the actions run wait for the frame
    /// drawn after them.
    ///
    ///     showProvisionalPage()
    ///     loop.afterNextFrame { [unowned self] in
    ///         try? controller.performFetch()     // a second or so on a big store
    ///         showResults()
    ///     }
    ///     loop.run()                             // frame 1: provisional; frame 2: results
    public func afterNextFrame(_ body: @escaping () -> Void) {
        afterFrameActions.append(body)
    }

    /// Runs until a view or `q` quits, or a termination signal arrives.
    public func run() -> Exit {
        quitRequested = false
        draw()
        while true {
            if quitRequested { return .quit }
            if let signo = (backend as? TerminalBackend)?.terminationSignal { return .signal(signo) }
            // Something posted meanwhile: look for keys, but do not wait.
            let timeout = hasPosted ? 0 : waitTimeout(now: clock.now)
            let event = backend.nextEvent(timeoutMilliseconds: timeout)
            if let signo = (backend as? TerminalBackend)?.terminationSignal { return .signal(signo) }
            if let event { dispatchBurst(startingWith: event) }
            if quitRequested { return .quit }
            runPosted()
            if quitRequested { return .quit }
            fireDueTickers(now: clock.now)
            draw()
        }
    }

    /// How long `nextEvent` may wait: nil (block) unless something needs time.
    func waitTimeout(now: Double) -> Int? {
        var deadline: Double?
        func consider(_ time: Double) { deadline = min(deadline ?? time, time) }
        if !isTooSmall {
            for view in visibleViews {
                if view.needsTick(at: now) { consider(now + 1 / framesPerSecond) }
                if let wake = view.nextWakeTime(after: now) { consider(wake) }
            }
        }
        for ticker in tickers { consider(ticker.due) }
        guard let deadline else { return nil }
        // Whole milliseconds, rounded up, ignoring floating-point dust (0.4 − 0.2 is 0.2000…03).
        return max(0, Int(((deadline - now) * 1000 - 1e-6).rounded(.up)))
    }

    private func fireDueTickers(now: Double) {
        // Half a millisecond early counts as due: waits are in whole milliseconds.
        for index in tickers.indices where index < tickers.count && tickers[index].due <= now + 0.0005 {
            let ticker = tickers[index]
            var due = ticker.due + ticker.interval
            if due <= now { due = now + ticker.interval }  // fell behind: do not fire in a burst
            tickers[index].due = due
            ticker.body(now)
        }
    }

    private var isTooSmall: Bool { backend.width < minimumWidth || backend.height < minimumHeight }

    private var visibleViews: ArraySlice<View> {
        let start = views.lastIndex { $0.isOpaque } ?? 0
        return views[start...]
    }

    /// Erases the canvas, renders the visible views (or the too-small screen), presents;
    /// then runs the ``afterNextFrame(_:)`` actions, if any, and draws once more.
    public func draw() {
        let width = backend.width
        let height = backend.height
        if canvas.width != width || canvas.height != height {
            canvas.resize(width: width, height: height)
        } else {
            canvas.erase()
        }
        let now = clock.now
        let frame = canvas.bounds
        if isTooSmall {
            TooSmallView(minimumWidth: minimumWidth, minimumHeight: minimumHeight)
                .render(into: &canvas, frame: frame, at: now)
        } else {
            for view in visibleViews { view.render(into: &canvas, frame: frame, at: now) }
        }
        backend.present(canvas)
        frameCount += 1
        if !afterFrameActions.isEmpty {
            let actions = afterFrameActions
            afterFrameActions.removeAll()
            for action in actions { action() }
            draw()
        }
    }

    /// Longest a burst is delivered before a frame is drawn (seconds, the loop's clock).
    package var maximumBurstDuration: Double = 0.05

    /// Sends `first` and every event already waiting in the screen through
    /// ``dispatch(_:)``, as one `InputBurst`: a paste of 10,000 characters is
    /// handled before anything is drawn, and the text fields report their
    /// change (a search, a filter) once at the end — or before the first event
    /// that is not a typed character, so that key acts on the pasted text.
    /// Stops early when a view quits, when no event waits, or after
    /// ``maximumBurstDuration`` (then a frame shows the progress and the next
    /// burst goes on). Returns the number of events dispatched.
    @discardableResult
    package func dispatchBurst(startingWith first: InputEvent) -> Int {
        var count = 0
        let start = clock.now
        InputBurst.deliver { burst in
            var next: InputEvent? = first
            while let event = next {
                if case .character = event {} else { burst.flush() }
                dispatch(event)
                count += 1
                if quitRequested || clock.now - start >= maximumBurstDuration { break }
                if (backend as? TerminalBackend)?.terminationSignal != nil { break }
                next = backend.nextPendingEvent()
            }
        }
        return count
    }

    /// Sends one event through the loop's rules (what `run()` does with each).
    public func dispatch(_ event: InputEvent) {
        switch event {
        case .resize:
            for view in views { _ = view.handle(event) }
            return
        case .control("l"):
            (backend as? TerminalBackend)?.redrawAll()
            return
        default:
            break
        }
        if isTooSmall {
            if event == .character("q") { quitRequested = true }
            return
        }
        guard let top = views.last else {
            apply(fallback(event), to: nil)
            return
        }
        var result = top.handle(event)
        if result == .ignored { result = fallback(event) }
        apply(result, to: top)
    }

    private func fallback(_ event: InputEvent) -> EventResult {
        if let handler = unhandledEventHandler { return handler(event) }
        switch event {
        case .character("q"):
            return .quit
        case .character("?"), .function(1):
            guard let bindings = helpBindings else { return .ignored }
            push(HelpOverlay(bindings: bindings))
            return .handled
        case .escape, .left:
            // Back: a pushed screen the top view did not close itself.
            return views.count > 1 ? .dismiss : .ignored
        default:
            return .ignored
        }
    }

    private func apply(_ result: EventResult, to view: View?) {
        switch result {
        case .handled, .ignored: break
        case .dismiss: if let view { remove(view) }
        case .quit: quitRequested = true
        }
    }
}
