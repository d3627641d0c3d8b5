import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

@Suite struct ListProgramTests {
    static let model = Model(
        version: 1,
        applicationID: 0x4c50_5247,
        entities: [Entity("Book", attributes: [Attribute("title", .text)])]
    )

    /// Counts its first launches; lists the books by title.
    final class Books {
        var firstLaunches = 0
        let directory = TemporaryDirectory("list-program")
        var program: ListProgram {
            ListProgram(name: "books", model: ListProgramTests.model) { [self] context in
                firstLaunches += 1
                for title in ["Emma", "Dune"] { context.insert(into: "Book")["title"] = .text(title) }
            } configuration: { _ in
                var tab = ListTab(title: "Books", entity: "Book", sortDescriptors: [FetchSort("title")]) { book in
                    TableCell(style: .value1, title: book.string("title") ?? "")
                }
                tab.noun = ("book", "books")
                return ListScreenConfiguration(title: "Books", tabs: [tab])
            }
        }
    }

    @Test func theStoreIsTheDbOptionElseTheProgramsFileInTheXDGDataFolder() {
        let program = Books().program
        #expect(program.storePath(arguments: ["--db", "x.sqlite"], environment: [:]) == "x.sqlite")
        let home = ["HOME": "/home/ada"]
        #expect(program.storePath(arguments: [], environment: home) == "/home/ada/.local/share/books/books.sqlite")
        var examples = program
        examples.dataFolder = "examples"
        #expect(
            examples.storePath(
                arguments: ["--no-animation"],
                environment: home.merging(["XDG_DATA_HOME": "/data"]) { $1 }
            )
                == "/data/examples/books.sqlite"
        )
    }

    @Test func aNewStoreGetsItsFolderAndTheFirstLaunchObjectsOnce() throws {
        let books = Books()
        let path = books.directory.path("a/b/books.sqlite")
        _ = try books.program.openStore(at: path)
        let reopened = try books.program.openStore(at: path)
        #expect(books.firstLaunches == 1)
        #expect(try ObjectContext(store: reopened).fetch("Book").count == 2)
    }

    @Test func makeListShowsTheConfiguredListOnTheLoop() throws {
        let books = Books()
        let store = try books.program.openStore(at: books.directory.path("books.sqlite"))
        let terminal = TestTerminal(width: 30, height: 8)
        let list = try books.program.makeList(store: store, loop: terminal.loop, animated: false)
        let text = terminal.press()
        #expect(text.contains("Books") && text.contains("Dune") && text.contains("Emma"))
        #expect(list.selectedObject?.string("title") == "Dune")
        #expect(terminal.loop.topView === list)
    }

    @Test func runRefusesABadCommandLineOrStoreBeforeTakingTheTerminal() throws {
        let books = Books()
        let program = books.program
        #expect(program.run(arguments: ["--db"], environment: [:]) == 64)
        #expect(program.run(arguments: ["--colour"], environment: [:]) == 64)
        #expect(program.run(arguments: ["--help"], environment: [:]) == 0)
        let file = books.directory.path("not-a-folder")
        try Data("text".utf8).write(to: URL(fileURLWithPath: file))
        #expect(program.run(arguments: ["--db", file + "/books.sqlite"], environment: [:]) == 73)
        #expect(program.run(arguments: ["--db", file], environment: [:]) == 65)
        #expect(books.firstLaunches == 0)
    }

    @Test func anErrorNamingAPathWithControlCharactersIsWrittenEscapedLineByLine() {
        let program = Books().program
        let text = program.errorText("/tmp/\u{1B}[2Jevil.sqlite: not a store\nusage: books")
        #expect(text == "books: /tmp/\\u{1B}[2Jevil.sqlite: not a store\nusage: books\n")
        #expect(!text.unicodeScalars.contains("\u{1B}"))
    }
}
