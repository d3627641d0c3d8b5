import Foundation
import Testing

@testable import TerminalUI

/// The in-memory backend keeps the last frame and plays back scripted input.
@Suite struct MemoryBackendTests {
    @Test func presentKeepsTheLastFrameAndItsText() {
        let screen = MemoryBackend(width: 10, height: 2)
        #expect(screen.text == "")
        var canvas = Canvas(width: screen.width, height: screen.height)
        canvas.put("hello", x: 0, y: 0)
        screen.present(canvas)
        canvas.put("world", x: 0, y: 1)
        screen.present(canvas)
        #expect(screen.text == "hello\nworld")
        #expect(screen.presentCount == 2)
        #expect(screen.lastFrame?[0, 0].text == "h")
    }

    @Test func scriptedEventsComeBackInOrderThenNil() {
        let screen = MemoryBackend()
        screen.enqueue(.down, .enter)
        screen.type("q")
        #expect(screen.nextEvent(timeoutMilliseconds: nil) == .down)
        #expect(screen.nextEvent(timeoutMilliseconds: 0) == .enter)
        #expect(screen.nextEvent(timeoutMilliseconds: 0) == .character("q"))
        #expect(screen.nextEvent(timeoutMilliseconds: nil) == nil)
    }

    @Test func resizeChangesTheSizeAndQueuesAResizeEvent() {
        let screen = MemoryBackend(width: 80, height: 24)
        screen.resize(width: 40, height: 12)
        #expect(screen.width == 40 && screen.height == 12)
        #expect(screen.nextEvent(timeoutMilliseconds: 0) == .resize(width: 40, height: 12))
    }

    @Test func aTableDrivenByScriptedKeysEndsOnTheExpectedScreen() {
        let banks = Fixtures.banks(years: 2010...2012, perYear: { _ in 3 }, style: .value1)
        let table = TableView(rowHeight: 1)
        table.dataSource = banks
        let screen = MemoryBackend(width: 40, height: 6)
        screen.enqueue(.down, .down, .down, .character("}"))
        var canvas = Canvas(width: screen.width, height: screen.height)
        while let event = screen.nextEvent(timeoutMilliseconds: 0) {
            table.handle(event)
            canvas.erase()
            table.render(into: &canvas, at: 0)
            screen.present(canvas)
        }
        #expect(table.selection == IndexPath(row: 0, section: 2))
        #expect(screen.text.contains("\n 2010 ─"))  // as far down as the content allows
        #expect(screen.presentCount == 4)
    }
}
