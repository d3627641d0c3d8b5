import FetchedResults
import FetchedResultsUI
import Foundation
import HeroList
import SQLiteStore
import TerminalUI
import Testing

@Suite struct HeroListTests {
    final class Fixture {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("heroes-\(UUID().uuidString)")
        let screen = MemoryBackend(width: 60, height: 20)
        let clock = TestClock(now: 10)
        let loop: TerminalRunLoop
        let store: Store
        let list: ListScreen

        init() throws {
            loop = TerminalRunLoop(screen: screen, clock: clock, minimumWidth: 24, minimumHeight: 8)
            store = try HeroList.openStore(at: directory.appendingPathComponent("heroes.sqlite").path)
            list = try HeroList.makeScreen(store: store, loop: loop, animated: false)
            loop.draw()
        }

        deinit {
            while loop.pop() != nil {}
            try? FileManager.default.removeItem(at: directory)
        }

        func press(_ events: InputEvent...) {
            for event in events {
                loop.dispatch(event)
                clock.advance(by: 0.01)
                loop.draw()
            }
        }

        func type(_ text: String) { for character in text { press(.character(character)) } }

        /// Selects the hero named `name` in the tab showing.
        func select(_ name: String) throws {
            let hero = try #require(
                try ObjectContext(store: store).fetch("Hero", where: "name = ?", [.text(name)]).first
            )
            list.adapter.select(hero.objectID)
        }

        var names: [[String]] {
            list.adapter.controller.sections.map { $0.objects.map { $0.string("name") ?? "" } }
        }
    }

    @Test func theNameTabSectionsByFirstLetterAndTheOtherBySecretIdentity() throws {
        let f = try Fixture()
        let controller = f.list.adapter.controller
        #expect(controller.sections.map(\.name) == ["B", "I", "S", "T", "W"])
        #expect(f.names[0] == ["Batman", "Black Widow"])
        f.press(.tab)
        #expect(f.list.tab.title == "Secret Identity")
        #expect(f.list.adapter.controller.sections.map(\.name) == ["B", "C", "D", "N", "O", "P", "T"])
    }

    @Test func aAddsAHeroThroughTheForm() throws {
        let f = try Fixture()
        f.press(.character("a"))
        f.type("Aquaman")
        f.press(.tab)
        f.type("Arthur Curry")
        f.press(.control("s"))
        #expect(f.names[0] == ["Aquaman"])
        #expect(f.list.selectedObject?.string("secretIdentity") == "Arthur Curry")
        let saved = try ObjectContext(store: f.store).fetchRecords(Hero.self, where: "name = 'Aquaman'")
        #expect(saved == [Hero(name: "Aquaman", secretIdentity: "Arthur Curry")])
    }

    @Test func anEditThatChangesTheKeyMovesTheHeroToAnotherSectionInOneBatch() throws {
        let f = try Fixture()
        var batches: [ChangeBatch] = []
        f.list.adapter.controller.onChange = { batches.append($0) }
        try f.select("Storm")
        f.press(.enter)  // the form, on the name
        for _ in "Storm" { f.press(.backspace) }
        f.type("Rogue")
        f.press(.control("s"))
        #expect(batches.count == 1)
        let batch = try #require(batches.first)
        // "S" keeps Spider-Man and Superman; "R" is new, between "I" and "S".
        #expect(batch.sectionChanges == [.init(change: .insert, index: 2, name: "R")])
        #expect(batch.objectChanges.map(\.change) == [.move])
        #expect(batch.objectChanges[0].from == IndexPath(row: 1, section: 2))
        #expect(batch.objectChanges[0].to == IndexPath(row: 0, section: 2))
        #expect(
            f.names == [
                ["Batman", "Black Widow"], ["Iron Man"], ["Rogue"], ["Spider-Man", "Superman"],
                ["The Flash"], ["Wonder Woman"],
            ]
        )
    }

    @Test func anEditThatEmptiesASectionDeletesItInTheSameBatch() throws {
        let f = try Fixture()
        var batches: [ChangeBatch] = []
        f.list.adapter.controller.onChange = { batches.append($0) }
        try f.select("Iron Man")
        f.press(.enter)
        for _ in "Iron Man" { f.press(.backspace) }
        f.type("Ironclad")  // still "I": an update, not a move
        f.press(.control("s"))
        #expect(batches.last?.objectChanges.map(\.change) == [.update])
        try f.select("Ironclad")
        f.press(.enter)
        for _ in "Ironclad" { f.press(.backspace) }
        f.type("Hulk")
        f.press(.control("s"))
        let batch = try #require(batches.last)
        #expect(
            batch.sectionChanges == [
                .init(change: .delete, index: 1, name: "I"),
                .init(change: .insert, index: 1, name: "H"),
            ]
        )
        #expect(batch.objectChanges.map(\.change) == [.move])
    }
}
