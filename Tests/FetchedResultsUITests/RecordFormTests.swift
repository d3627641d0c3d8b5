import FaultInjection
import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

@testable import FetchedResultsUI

/// The form made from an entity's attributes, on a list of books in an in-memory terminal.
@Suite struct RecordFormTests {
    static let model = Model(
        version: 1,
        applicationID: 0x5246_524d,
        entities: [
            Entity(
                "Book",
                attributes: [
                    Attribute("title", .text),
                    Attribute("authorName", .text),
                    Attribute("publishedOn", .date, optional: true),
                    Attribute("pages", .integer, optional: true),
                    Attribute("isRead", .bool, default: .integer(0)),
                ]
            )
        ]
    )

    final class Fixture {
        let directory = TemporaryDirectory("record-form")
        let terminal = TestTerminal(width: 60, height: 16, minimumWidth: 24, minimumHeight: 8)
        let store: Store
        let list: ListScreen
        let form = RecordForm(entity: "Book", labels: ["authorName": "Author"])

        init() throws {
            store = try Store(path: directory.path("books.sqlite"), model: RecordFormTests.model)
            let writer = ObjectContext(store: store)
            let dune = writer.insert(into: "Book")
            dune["title"] = .text("Dune")
            dune["authorName"] = .text("Frank Herbert")
            try writer.save()
            var configuration = ListScreenConfiguration(
                title: "Books",
                tabs: [
                    ListTab(title: "Title", entity: "Book", sortDescriptors: [FetchSort("title")]) { book in
                        TableCell(style: .value1, title: book.string("title") ?? "")
                    }
                ]
            )
            configuration.detailScreen = { [form] book, screen in form.form(editing: book, in: screen) }
            list = try ListScreen(
                context: ObjectContext(store: store),
                configuration: configuration,
                loop: terminal.loop
            )
            terminal.press()
        }

        /// Opens the form of a new book.
        func add() -> Form {
            let made = form.form(editing: nil, in: list)
            terminal.loop.push(made)
            terminal.press()
            return made
        }

        /// Goes to the next field and types `text` there.
        func next(_ text: String = "") {
            terminal.press(.tab)
            if !text.isEmpty { terminal.type(text) }
        }

        var titles: [String] {
            (try? ObjectContext(store: store).fetch("Book", orderBy: "title").map { $0.string("title") ?? "" }) ?? []
        }
    }

    @Test func aFieldPerAttributeLabelledByItsNameWithTheDatePlaceholder() throws {
        let f = try Fixture()
        _ = f.add()
        let (matches, message) = matchesGolden(f.terminal.text, "record-form-new")
        #expect(matches, "\(message)")
    }

    @Test func labelsSplitANameWhereTheStoreSplitsItIntoItsColumnsName() {
        #expect(RecordForm.label(of: "secretIdentity") == "Secret Identity")
        #expect(RecordForm.label(of: "secret_identity") == "Secret Identity")
        #expect(RecordForm.label(of: "userID") == "User ID")
        #expect(RecordForm.label(of: "URLValue") == "URL Value")
    }

    @Test func theRequiredAttributesLeftEmptyAreAllNamedAndNothingIsSaved() throws {
        let f = try Fixture()
        let form = f.add()
        f.terminal.press(.control("s"))
        #expect(form.errorMessage == "Title and Author are required")
        f.terminal.type("Emma")
        f.terminal.press(.control("s"))
        #expect(form.errorMessage == "Author is required")
        #expect(f.titles == ["Dune"])
    }

    @Test func aDateANumberAndAYesOrNoAreCheckedBeforeSaving() throws {
        let f = try Fixture()
        let form = f.add()
        f.terminal.type("Emma")
        f.next("Jane Austen")
        f.next("1815-13-40")
        f.terminal.press(.control("s"))
        #expect(form.errorMessage == "Published On is not a date (YYYY-MM-DD)")
        for _ in "1815-13-40" { f.terminal.press(.backspace) }
        f.terminal.type("1815-12-23")
        f.next("many")
        f.terminal.press(.control("s"))
        #expect(form.errorMessage == "Pages is not a whole number")
        for _ in "many" { f.terminal.press(.backspace) }
        f.terminal.type("474")
        f.next("maybe")
        f.terminal.press(.control("s"))
        #expect(form.errorMessage == "Is Read is not yes or no")
        #expect(f.titles == ["Dune"])
    }

    @Test func addingSavesOneChangeSetNamedForUndoAndSelectsTheNewObject() throws {
        let f = try Fixture()
        _ = f.add()
        f.terminal.type("Emma")
        f.next("Jane Austen")
        f.next("1815-12-23")
        f.next("474")
        f.terminal.press(.control("s"))
        #expect(f.list.context.undoActionName == "Added “Emma”")
        #expect(f.list.selectedObject?.string("title") == "Emma")
        let emma = try #require(try ObjectContext(store: f.store).fetch("Book", where: "title = 'Emma'").first)
        #expect(emma["authorName"] == .text("Jane Austen") && emma["publishedOn"] == .text("1815-12-23"))
        #expect(emma["pages"] == .integer(474) && emma["isRead"] == .integer(0))
    }

    @Test func editingShowsTheValuesAndSavesTheChangeUnderSaved() throws {
        let f = try Fixture()
        f.terminal.press(.enter)
        #expect(f.terminal.text.contains("Edit Book") && f.terminal.text.contains("Frank Herbert"))
        for _ in "Dune" { f.terminal.press(.backspace) }
        f.terminal.type("Dune Messiah")
        f.terminal.press(.control("s"))
        #expect(f.list.context.undoActionName == "Saved “Dune Messiah”")
        #expect(f.titles == ["Dune Messiah"])
        #expect(f.list.selectedObject?.string("authorName") == "Frank Herbert")
    }

    /// A save the disk refuses (SQLITE_FULL on the first write) keeps the form open with the
    /// reason in words, what was typed still in it, and Ctrl-S again saves it.
    @Test func aSaveThatFailsKeepsTheFormOpenSaysWhyAndCtrlSAgainSavesIt() throws {
        FaultInjection.install()
        let f = try Fixture()
        let form = f.add()
        f.terminal.type("Emma")
        f.next("Jane Austen")
        let (_, report) = FaultInjection.inject(Fault(.write, .diskFull, n: 1), under: f.directory.path) {
            f.terminal.press(.control("s"))
        }
        #expect(report.fired)
        #expect(form.errorMessage == "Not saved: the disk is full")
        #expect(f.terminal.loop.topView === form, "the form stays open")
        #expect(f.titles == ["Dune"])
        f.terminal.press(.control("s"))
        #expect(f.titles == ["Dune", "Emma"])
        #expect(f.terminal.loop.topView !== form)
        #expect(f.list.context.undoActionName == "Added “Emma”")
    }

    @Test func anEditThatFailsKeepsTheFormOpenAndCtrlSAgainSavesIt() throws {
        FaultInjection.install()
        let f = try Fixture()
        f.terminal.press(.enter)
        let form = try #require(f.terminal.loop.topView as? Form)
        for _ in "Dune" { f.terminal.press(.backspace) }
        f.terminal.type("Dune Messiah")
        let (_, report) = FaultInjection.inject(Fault(.write, .ioError, n: 1), under: f.directory.path) {
            f.terminal.press(.control("s"))
        }
        #expect(report.fired)
        // The cause in brackets is the system's errno as SQLite last saw it (EIO here, or none).
        #expect(form.errorMessage?.hasPrefix("Not saved: the file could not be written (") == true)
        #expect(f.terminal.loop.topView === form)
        #expect(f.titles == ["Dune"])
        f.terminal.press(.control("s"))
        #expect(f.titles == ["Dune Messiah"])
        #expect(f.list.context.undoActionName == "Saved “Dune Messiah”")
    }
}
