import Testing

@testable import TerminalUI

/// A screen that only draws a line: what lies under the search and filter bars.
private final class BackdropView: View {
    var keys: [InputEvent] = []
    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        canvas.put("backdrop", x: 0, y: 0)
    }
    func handle(_ event: InputEvent) -> EventResult {
        keys.append(event)
        return .ignored
    }
}

/// A paste reaches the program as thousands of keys at once: the run loop
/// delivers them as one burst, the fields report their change once, and the
/// key after the paste acts on the whole pasted text. Counting, not timing.
@Suite struct TerminalRunLoopPasteTests {
    static let pasted = String((0..<10_000).map { i in Character(Unicode.Scalar(UInt8(97 + i % 26))) })

    /// A loop on an in-memory screen with a test clock (a burst is never cut by time).
    private func makeLoop(_ events: [InputEvent]) -> (TerminalRunLoop, MemoryBackend) {
        let screen = MemoryBackend(width: 80, height: 24)
        screen.enqueue(contentsOf: events)
        let loop = TerminalRunLoop(backend: screen, clock: TestClock())
        loop.push(BackdropView())
        return (loop, screen)
    }

    @Test(arguments: ["search", "filter"])
    func pasteOfTenThousandCharactersRunsTheSearchOnceAndTheNextKeyActsOnIt(bar kind: String) {
        var evaluations: [Int] = []
        var committed: (text: Int, afterEvaluations: Int)?
        let bar: EntryBar = kind == "search" ? SearchField() : FilterField()
        bar.onChange = { text in evaluations.append(text.count) }
        bar.onCommit = { text in committed = (text.count, evaluations.count) }
        let (loop, screen) = makeLoop(Self.pasted.map { .character($0) } + [.enter, .character("q")])
        bar.activate()
        loop.push(bar)
        #expect(loop.run() == .quit)
        #expect(evaluations == [10_000], "one evaluation of the whole paste, not one per character")
        #expect(committed?.text == 10_000)
        #expect(committed?.afterEvaluations == 1, "Enter came after the search of the pasted text")
        #expect(!loop.views.contains { $0 === bar })
        #expect(screen.presentCount <= 3)
    }

    @Test func keysTypedOneBurstApartEachRunTheSearch() {
        // Bursts are what was waiting: with a frame between keys, each key is its own burst.
        var evaluations: [String] = []
        let search = SearchField()
        search.onChange = { evaluations.append($0) }
        let (loop, _) = makeLoop([])
        search.activate()
        loop.push(search)
        for key in "abc" {
            loop.dispatchBurst(startingWith: .character(key))
            loop.draw()
        }
        #expect(evaluations == ["a", "ab", "abc"])
        #expect(loop.dispatchBurst(startingWith: .backspace) == 1)
        #expect(evaluations.last == "ab")
    }

    @Test func pasteIntoAFormsTextAreaAndLimitedFieldReportsOnceAndKeepsTheLimit() {
        let area = TextArea(text: "")
        let field = TextField(text: "")
        field.maximumLength = 100
        var areaChanges = 0
        var fieldChanges: [Int] = []
        area.onChange = { _ in areaChanges += 1 }
        field.onChange = { fieldChanges.append($0.count) }
        let form = Form(fields: [
            .init(key: "notes", label: "Notes", control: area),
            .init(key: "name", label: "Name", control: field),
        ])
        var events: [InputEvent] = Self.pasted.map { .character($0) }
        events.append(.tab)
        events += Self.pasted.map { .character($0) }
        events.append(.escape)  // "Discard changes?" opens: the form answers the key after the paste
        let (loop, screen) = makeLoop(Array(events.dropFirst()))
        loop.push(form)
        #expect(loop.dispatchBurst(startingWith: events[0]) == events.count)
        #expect(screen.pendingEvents.isEmpty)
        #expect(areaChanges == 1)
        #expect(area.text == Self.pasted)
        #expect(fieldChanges == [100])
        #expect(field.text == String(Self.pasted.prefix(100)))
        #expect(form.isConfirmingDiscard)
    }

    @Test func aBurstStopsWhenAViewQuitsAndLeavesTheRestWaiting() {
        let (loop, screen) = makeLoop([.character("q"), .character("x"), .character("y")])
        #expect(loop.run() == .quit)
        #expect(screen.pendingEvents.count == 2)
    }

    @Test func scalarsOfOneClusterTypedOneByOneBecomeOneCharacter() {
        let field = TextField()
        for scalar in "e\u{301}\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}".unicodeScalars {
            _ = field.handle(.character(Character(scalar)))
        }
        #expect(field.text == "e\u{301}\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}")
        #expect(field.cursorIndex == 2)
        _ = field.handle(.backspace)
        #expect(field.text == "e\u{301}")
        // A flood of combining marks stops joining at a bound (each join rebuilds the character).
        for _ in 0..<1_000 { _ = field.handle(.character("\u{301}")) }
        #expect(field.cursorIndex > 2)
        #expect(field.text.unicodeScalars.count == 2 + 1_000)
    }
}
