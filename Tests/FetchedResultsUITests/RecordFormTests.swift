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

    /// Another program's change of the book, through a store of its own.
    static func otherProgram(_ f: Fixture, _ change: (ManagedObject, ObjectContext) -> Void) throws {
        let other = ObjectContext(store: try Store(path: f.directory.path("books.sqlite"), model: model))
        let book = try #require(try other.fetch("Book").first)
        change(book, other)
        try other.save()
    }

    func row(_ f: Fixture) throws -> [String] {
        try ObjectContext(store: f.store).fetch("Book").map {
            "\($0.string("title") ?? "") by \($0.string("authorName") ?? "")"
        }
    }

    /// Another program changes the author while the form is open and the title is edited: the
    /// save writes nothing, names the book and the field, and offers a choice; "reload and
    /// reapply" keeps both changes. (Before: the save was refused with the store's message and
    /// no choice, and the form could only overwrite or give up.)
    @Test func anEditOverAnotherProgramsChangeWritesNothingAndReloadAndReapplyKeepsBoth() throws {
        let f = try Fixture()
        f.terminal.press(.enter)
        let form = try #require(f.terminal.loop.topView as? Form)
        try Self.otherProgram(f) { book, _ in book["authorName"] = .text("F. Herbert") }
        for _ in "Dune" { f.terminal.press(.backspace) }
        f.terminal.type("Dune Messiah")
        f.terminal.press(.control("s"))
        #expect(form.errorMessage == "Not saved: “Dune” was changed by another program since this form opened (Author)")
        #expect(try row(f) == ["Dune by F. Herbert"])
        let picker = try #require(f.terminal.loop.topView as? ChoicePicker)
        #expect(picker.choices == ["Reload it and reapply my changes", "Overwrite it with this form", "Keep editing"])
        f.terminal.press(.enter)
        #expect(try row(f) == ["Dune Messiah by F. Herbert"])
        #expect(!f.terminal.loop.contains(form), "the form closed once saved")
        #expect(f.list.context.undoActionName == "Saved “Dune Messiah”")
    }

    /// The list's context has taken in another program's change before the save: the form
    /// wrote its stale author back over it (the change was lost) before it compared the book
    /// with what it opened with; now it refuses, and "overwrite" writes the form as it is.
    @Test func anEditOfABookTheListHasSeenChangedRefusesAndOverwriteWritesTheForm() throws {
        let f = try Fixture()
        f.terminal.press(.enter)
        let form = try #require(f.terminal.loop.topView as? Form)
        try Self.otherProgram(f) { book, _ in book["authorName"] = .text("F. Herbert") }
        _ = try f.list.context.fetch("Book")  // the context takes the change in, as a poll does
        for _ in "Dune" { f.terminal.press(.backspace) }
        f.terminal.type("Dune Messiah")
        f.terminal.press(.control("s"))
        #expect(try row(f) == ["Dune by F. Herbert"], "nothing written over the other program's change")
        #expect(form.errorMessage == "Not saved: “Dune” was changed by another program since this form opened (Author)")
        #expect(f.terminal.loop.topView is ChoicePicker)
        f.terminal.press(.down)
        f.terminal.press(.enter)
        #expect(try row(f) == ["Dune Messiah by Frank Herbert"])
        #expect(!f.terminal.loop.contains(form))
    }

    /// "Reload and reapply" writes only the fields changed in the form: another program's
    /// change of a field the form shows but that was not touched in it stays.
    @Test func reloadAndReapplyWritesOnlyTheFieldsChangedInTheForm() throws {
        let f = try Fixture()
        f.terminal.press(.enter)
        let form = try #require(f.terminal.loop.topView as? Form)
        f.terminal.press(.tab)
        for _ in "Frank Herbert" { f.terminal.press(.backspace) }
        f.terminal.type("Frank Patrick Herbert")
        try Self.otherProgram(f) { book, _ in book["pages"] = .integer(412) }
        _ = try f.list.context.fetch("Book")
        f.terminal.press(.control("s"))
        #expect(form.errorMessage?.contains("(Pages)") == true)
        f.terminal.press(.enter)  // reload and reapply
        let book = try #require(try ObjectContext(store: f.store).fetch("Book").first)
        #expect(book.string("authorName") == "Frank Patrick Herbert")
        #expect(book["pages"] == .integer(412))
        #expect(book.string("title") == "Dune")
    }

    /// Another program deleted the book while its form was open: the save says so and can add
    /// it again with the form's values.
    @Test func anEditOfABookAnotherProgramDeletedSaysSoAndCanAddItAgain() throws {
        let f = try Fixture()
        f.terminal.press(.enter)
        let form = try #require(f.terminal.loop.topView as? Form)
        try Self.otherProgram(f) { book, context in context.delete(book) }
        for _ in "Dune" { f.terminal.press(.backspace) }
        f.terminal.type("Dune Messiah")
        f.terminal.press(.control("s"))
        #expect(form.errorMessage == "Not saved: “Dune” was deleted by another program since this form opened")
        #expect(f.titles == [])
        let picker = try #require(f.terminal.loop.topView as? ChoicePicker)
        #expect(picker.choices == ["Add it again with this form's values", "Keep editing"])
        f.terminal.press(.enter)
        #expect(try row(f) == ["Dune Messiah by Frank Herbert"])
        #expect(!f.terminal.loop.contains(form))
        #expect(f.list.context.undoActionName == "Added “Dune Messiah”")
    }
}
