import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

/// A tab made from a record type: rows drawn from the decoded record, and only the rows drawn decoded.
@Suite struct ListTabRecordTests {
    /// The fixture's book, as a Codable record.
    struct Book: StoreRecord, Codable {
        static let entityName = "Book"
        var title: String
        var author: String
        var year: String
    }

    /// The same book, counting the titles it is decoded for.
    struct CountedBook: StoreRecord {
        static let entityName = "Book"
        static let decoded = DecodeLog()
        var title: String
        var author: String

        init(row: RecordRow) throws {
            title = try row["title"]
            author = try row["author"]
            CountedBook.decoded.append(title)
        }

        func encode(to container: inout RecordContainer) {
            container["title"] = title
            container["author"] = author
        }
    }

    /// The titles decoded, in order (a lock: the screen may fetch on another thread).
    final class DecodeLog: @unchecked Sendable {
        private let lock = NSLock()
        private var titles: [String] = []
        func append(_ title: String) { lock.withLock { titles.append(title) } }
        var all: [String] { lock.withLock { titles } }
        func reset() { lock.withLock { titles.removeAll() } }
    }

    /// A screen of one tab over `books`, sorted by title.
    final class Screen {
        let directory = TemporaryDirectory("record-tab")
        let context: ObjectContext
        let backend = MemoryBackend(width: 48, height: 14)
        let clock = TestClock(now: 100)
        let loop: TerminalRunLoop
        let list: ListScreen

        init(books: [(String, String, String)], tab: ListTab) throws {
            let store = try Store(path: directory.path("books.sqlite"), model: ListScreenFixture.model)
            context = ObjectContext(store: store)
            for (title, author, year) in books { context.insert(Book(title: title, author: author, year: year)) }
            try context.save()
            loop = TerminalRunLoop(backend: backend, clock: clock, minimumWidth: 24, minimumHeight: 8)
            var configuration = ListScreenConfiguration(title: "Books", tabs: [tab])
            configuration.animated = false
            list = try ListScreen(context: context, configuration: configuration, loop: loop)
            loop.draw()
        }

        deinit {
            while loop.pop() != nil {}
            directory.remove()
        }

        func press(_ events: InputEvent...) -> String {
            TestTerminal.press(events, on: loop, clock: clock)
            return backend.text
        }
    }

    static let byTitle = [FetchSort("title", comparison: .caseInsensitive)]

    @Test func aTabMadeFromARecordTypeDrawsTheSameScreenAsOneOverObjects() throws {
        var fromRecords = ListTab(
            title: "Title",
            records: Book.self,
            sortDescriptors: Self.byTitle,
            rowTitle: \.title,
            subtitle: { "\($0.author) · \($0.year)" }
        )
        fromRecords.noun = ("book", "books")
        let recordScreen = try Screen(books: ListScreenFixture.books, tab: fromRecords)
        let (ok, message) = matchesGolden(recordScreen.backend.text, "list-record-tab")
        #expect(ok, "\(message)")

        var fromObjects = ListTab(title: "Title", entity: "Book", sortDescriptors: Self.byTitle) { book in
            TableCell(
                style: .subtitle,
                title: book.string("title") ?? "",
                detail: "\(book.string("author") ?? "") · \(book.string("year") ?? "")"
            )
        }
        fromObjects.noun = ("book", "books")
        let objectScreen = try Screen(books: ListScreenFixture.books, tab: fromObjects)
        #expect(recordScreen.backend.text == objectScreen.backend.text)
        #expect(recordScreen.list.tab.objectName(try #require(recordScreen.list.selectedObject)) == "“Count Zero”")
    }

    @Test func onlyTheRowsDrawnAreDecoded() throws {
        let books = (0..<2_000).map { (String(format: "Book %04d", $0), "Author \($0 % 7)", "1999") }
        let tab = ListTab(title: "Title", records: CountedBook.self, sortDescriptors: Self.byTitle) { book in
            TableCell(style: .subtitle, title: book.title, detail: book.author)
        }
        CountedBook.decoded.reset()
        let screen = try Screen(books: books, tab: tab)
        var drawn = Set(CountedBook.decoded.all)
        #expect(!drawn.isEmpty)
        #expect(drawn.allSatisfy { screen.backend.text.contains($0) }, "decoded only what the first frame shows")
        #expect(drawn.count < 10, "a screen of 14 lines shows a handful of two-line rows, not 2,000")

        // A page down decodes the rows it shows, and still nothing it does not.
        CountedBook.decoded.reset()
        let page = screen.press(.pageDown)
        drawn = Set(CountedBook.decoded.all)
        #expect(!drawn.isEmpty)
        #expect(drawn.allSatisfy { page.contains($0) }, "decoded only what the second frame shows")
        #expect(CountedBook.decoded.all.count < 40, "\(CountedBook.decoded.all.count) decodes for a page")
    }

    @Test func aRowWhoseRecordDoesNotDecodeIsDrawnWithTheReason() throws {
        struct Numbered: StoreRecord, Codable {
            static let entityName = "Book"
            var title: String
            var year: Int  // the fixture's years are text: "1965" is not read as an Int
        }
        let tab = ListTab(title: "Title", records: Numbered.self, sortDescriptors: Self.byTitle) { book in
            TableCell(style: .subtitle, title: book.title, detail: "\(book.year)")
        }
        let screen = try Screen(books: [("Dune", "Herbert", "the year of the worm")], tab: tab)
        #expect(screen.backend.text.contains("⚠"))
        #expect(screen.backend.text.contains("year"))
    }
}
