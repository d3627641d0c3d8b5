/// The in-memory screen backend: keeps the last frame presented and replays a
/// script of input events. Tests and benchmarks run the same views on it as the
/// ncurses backend, and compare `text` with golden files.
///
///     let backend = MemoryBackend(width: 80, height: 24)
///     backend.enqueue(.down, .down, .enter, .character("q"))
///     var canvas = Canvas(width: screen.width, height: screen.height)
///     table.render(into: &canvas, at: 0)
///     screen.present(canvas)
///     print(backend.text)
///     screen.nextEvent(timeoutMilliseconds: 0)   // .down
public final class MemoryBackend: Backend {
    /// Columns; changed by `resize`.
    public private(set) var width: Int
    /// Lines; changed by `resize`.
    public private(set) var height: Int
    /// The frame most recently given to `present`, if any.
    public private(set) var lastFrame: Canvas?
    /// How many frames have been presented.
    public private(set) var presentCount = 0
    /// Events `nextEvent` will still return, first to last.
    public var pendingEvents: ArraySlice<InputEvent> { script[nextEventIndex...] }
    /// The events enqueued so far; those before `nextEventIndex` have been returned
    /// (an index, not `removeFirst`, so a scripted 10,000-character paste is not quadratic).
    private var script: [InputEvent] = []
    private var nextEventIndex = 0

    /// A blank screen of the given size with no scripted events.
    public init(width: Int = 80, height: Int = 24) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The last frame's text (one line per row, trailing spaces trimmed); "" before any.
    public var text: String { lastFrame?.text ?? "" }

    /// Keeps `canvas` as `lastFrame` (a copy: later drawing does not change it).
    public func present(_ canvas: Canvas) {
        lastFrame = canvas
        presentCount += 1
    }

    /// The next scripted event; nil (at once, never waiting) when the script is used up.
    public func nextEvent(timeoutMilliseconds: Int?) -> InputEvent? {
        guard nextEventIndex < script.count else { return nil }
        defer { nextEventIndex += 1 }
        return script[nextEventIndex]
    }

    /// Appends events to the script.
    public func enqueue(_ events: InputEvent...) {
        enqueue(contentsOf: events)
    }

    /// Appends events to the script.
    public func enqueue(contentsOf events: [InputEvent]) {
        if nextEventIndex == script.count {
            script.removeAll(keepingCapacity: true)
            nextEventIndex = 0
        }
        script.append(contentsOf: events)
    }

    /// Types `string` as `.character` events.
    public func type(_ string: String) {
        enqueue(contentsOf: string.map { InputEvent.character($0) })
    }

    /// Changes the size, as a terminal resize would, and queues the `.resize` event.
    public func resize(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        enqueue(.resize(width: self.width, height: self.height))
    }
}
