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
        let terminal = TestTerminal(width: 60, height: 20, minimumWidth: 24, minimumHeight: 8)
        let store: Store
        let list: ListScreen

        init() throws {
            store = try HeroList.program.openStore(at: directory.appendingPathComponent("heroes.sqlite").path)
            list = try HeroList.program.makeList(store: store, loop: terminal.loop, animated: false)
            terminal.press()
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// Selects the hero named `name` in the tab showing.
        func select(_ name: String) throws {
            let hero = try #require(
                try ObjectContext(store: store).fetch("Hero", where: "name = ?", [.text(name)]).first
            )
            list.adapter.select(hero.objectID)
        }

        /// Replaces the name in the form of the selected hero (Enter) with `name`, and saves.
        func rename(_ old: String, to name: String) throws {
            try select(old)
            terminal.press(.enter)
            for _ in old { terminal.press(.backspace) }
            terminal.type(name)
            terminal.press(.control("s"))
        }

        var names: [[String]] { list.adapter.controller.sections.map { $0.objects.map { $0.string("name") ?? "" } } }
    }

    @Test func theNameTabSectionsByFirstLetterAndTheOtherBySecretIdentity() throws {
        let f = try Fixture()
        #expect(f.list.adapter.controller.sections.map(\.name) == ["B", "I", "S", "T", "W"])
        #expect(f.names[0] == ["Batman", "Black Widow"])
        f.terminal.press(.tab)
        #expect(f.list.tab.title == "Secret Identity")
        #expect(f.list.adapter.controller.sections.map(\.name) == ["B", "C", "D", "N", "O", "P", "T"])
    }

    @Test func aAddsAHeroThroughTheForm() throws {
        let f = try Fixture()
        f.terminal.press(.character("a"))
        f.terminal.type("Aquaman")
        f.terminal.press(.tab)
        f.terminal.type("Arthur Curry")
        f.terminal.press(.control("s"))
        #expect(f.names[0] == ["Aquaman"])
        #expect(f.list.selectedObject?.string("secretIdentity") == "Arthur Curry")
        let saved = try ObjectContext(store: f.store).fetchRecords(Hero.self, where: "name = 'Aquaman'")
        #expect(saved.map(\.secretIdentity) == ["Arthur Curry"] && saved.map(\.birthdate) == [nil])
    }

    @Test func anEditThatChangesTheKeyMovesTheHeroToAnotherSectionInOneBatch() throws {
        let f = try Fixture()
        var batches: [ChangeBatch] = []
        f.list.adapter.controller.onChange = { batches.append($0) }
        try f.rename("Storm", to: "Rogue")
        #expect(batches.count == 1)
        let batch = try #require(batches.first)
        // "S" keeps Spider-Man and Superman; "R" is new, between "I" and "S".
        #expect(batch.sectionChanges == [.init(change: .insert, index: 2, name: "R")])
        #expect(batch.objectChanges.map(\.change) == [.move])
        #expect(batch.objectChanges[0].from == IndexPath(row: 1, section: 2))
        #expect(batch.objectChanges[0].to == IndexPath(row: 0, section: 2))
        #expect(
            f.names == [
                ["Batman", "Black Widow"], ["Iron Man"], ["Rogue"], ["Spider-Man", "Superman"], ["The Flash"],
                ["Wonder Woman"],
            ]
        )
    }

    @Test func anEditThatEmptiesASectionDeletesItInTheSameBatch() throws {
        let f = try Fixture()
        var batches: [ChangeBatch] = []
        f.list.adapter.controller.onChange = { batches.append($0) }
        try f.rename("Iron Man", to: "Ironclad")  // still "I": an update, not a move
        #expect(batches.last?.objectChanges.map(\.change) == [.update])
        try f.rename("Ironclad", to: "Hulk")
        let batch = try #require(batches.last)
        #expect(
            batch.sectionChanges == [
                .init(change: .delete, index: 1, name: "I"), .init(change: .insert, index: 1, name: "H"),
            ]
        )
        #expect(batch.objectChanges.map(\.change) == [.move])
    }
}
