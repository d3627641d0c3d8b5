import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport

/// A small library of books (title, author, year) shown by a ``ListScreen``
/// on an in-memory screen: tabs Year (newest first, sections by year) and
/// Author (sections by author), `/` searching titles and authors, a detail
/// screen, an extra `x` key.
final class ListScreenFixture {
    static let model = Model(
        version: 1,
        applicationID: 0x4c49_5354,
        entities: [
            Entity(
                "Book",
                attributes: [
                    Attribute("title", .text), Attribute("author", .text),
                    Attribute("year", .text),
                ]
            )
        ]
    )

    static let books: [(String, String, String)] = [
        ("Dune", "Herbert", "1965"),
        ("Emma", "Austen", "1815"),
        ("Persuasion", "Austen", "1817"),
        ("Neuromancer", "Gibson", "1984"),
        ("Count Zero", "Gibson", "1986"),
        ("Solaris", "Lem", "1961"),
        ("The Cyberiad", "Lem", "1965"),
        ("Kindred", "Butler", "1979"),
    ]

    let directory = TemporaryDirectory("list")
    let store: Store
    let context: ObjectContext
    let screen: MemoryBackend
    let clock = TestClock(now: 100)
    let loop: TerminalRunLoop
    let list: ListScreen
    /// Titles of the books the `x` key was pressed on.
    final class Marks { var titles: [String] = [] }
    let marks = Marks()
    var extraKeyTitles: [String] { marks.titles }

    init(
        width: Int = 48,
        height: Int = 14,
        readOnly: Bool = false,
        cache: Bool = true,
        willPoll: ((ListScreen) -> Bool)? = nil,
        fetchesInBackground: Bool = false,
        loopClock: (any TerminalUI.TimeSource)? = nil,
        authorRowHeight: Int = TableCell.Style.subtitle.lineCount,
        answersDeletesLater: Bool = false,
        yearGrid: ListGrid? = nil,
        cellEdits: Bool = false,
        cellEditRefusal: ((ListColumn) -> String?)? = nil,
        savesCellsLater: Bool = false,
        extraBooks: [(String, String, String)] = []
    ) throws {
        let path = directory.path("books.sqlite")
        do {
            let writer = ObjectContext(store: try Store(path: path, model: ListScreenFixture.model))
            for (title, author, year) in ListScreenFixture.books + extraBooks {
                let book = writer.insert(into: "Book")
                book["title"] = .text(title)
                book["author"] = .text(author)
                book["year"] = .text(year)
            }
            try writer.save()
        }
        store = try Store(path: path, model: ListScreenFixture.model, readOnly: readOnly)
        context = ObjectContext(store: store)
        screen = MemoryBackend(width: width, height: height)
        loop = TerminalRunLoop(backend: screen, clock: loopClock ?? clock, minimumWidth: 24, minimumHeight: 8)

        func cell(_ book: ManagedObject) -> TableCell {
            TableCell(
                style: .subtitle,
                title: book.string("title") ?? "",
                detail: "\(book.string("author") ?? "") · \(book.string("year") ?? "")",
                accessory: .disclosureIndicator
            )
        }
        var byYear = ListTab(
            title: "Year",
            entity: "Book",
            sortDescriptors: [
                FetchSort("year", ascending: false),
                FetchSort("title", comparison: .caseInsensitive),
            ],
            sectionNameKeyPath: "year",
            cell: cell
        )
        byYear.sectionIndexTitleProvider = { $0 }
        byYear.grid = yearGrid
        var byAuthor = ListTab(
            title: "Author",
            entity: "Book",
            sortDescriptors: [FetchSort("author"), FetchSort("title", comparison: .caseInsensitive)],
            sectionNameKeyPath: "author",
            cell: cell
        )
        byAuthor.sectionIndexTitleProvider = { String($0.prefix(2)) }
        byAuthor.rowHeight = authorRowHeight
        for index in [0, 1] {
            var tab = index == 0 ? byYear : byAuthor
            tab.cacheName = cache ? "books-\(tab.title)" : nil
            tab.searchKeyPaths = ["title", "author"]
            tab.searchDescription = "by title or author"
            tab.noun = ("book", "books")
            tab.objectName = { "“\($0.string("title") ?? "")”" }
            tab.headerTitle = { "\($0.name) (\($0.numberOfObjects))" }
            tab.provisionalHeaderTitle = { "\($0) (…)" }
            if index == 0 { byYear = tab } else { byAuthor = tab }
        }
        var configuration = ListScreenConfiguration(title: "Books", tabs: [byYear, byAuthor])
        configuration.readOnlyReason = readOnly ? "opened read-only for the test" : nil
        configuration.cacheDirectory = directory.path("cache")
        configuration.animated = false
        configuration.willPoll = willPoll
        configuration.allowsCellEdits = cellEdits
        configuration.cellEditRefusal = cellEditRefusal
        configuration.fetchesInBackground = fetchesInBackground
        configuration.navigationTrailingText = { screen in "\(screen.adapter?.controller.numberOfObjects ?? 0) books" }
        configuration.detailScreen = { book, _ in BookScreen(book: book) }
        configuration.filterExample = ["year >= \"1900\""]
        if answersDeletesLater {
            // An app whose deletes go to a server: sent on their way here, answered later.
            configuration.delete = { [marks] book, _ in marks.titles.append(book.string("title") ?? "") }
            configuration.deleteIsAnsweredLater = true
        }
        if savesCellsLater {
            // An app whose cell edits go to a server: sent on their way here, answered later.
            configuration.saveCell = { [marks] _, key, value, _, _ in marks.titles.append("\(key)=\(value)") }
            configuration.cellEditIsAnsweredLater = true
        }
        configuration.indexTitleDescription = "a year, an author"
        configuration.detailDescription = "show the book"
        configuration.keyBindings = [
            ListKeyBinding(.character("x"), keys: "x", description: "mark the book") { [marks] screen in
                marks.titles.append(screen.selectedObject?.string("title") ?? "")
                screen.showMessage("Marked")
            }
        ]
        list = try ListScreen(context: context, configuration: configuration, loop: loop)
        loop.draw()
    }

    deinit {
        while loop.pop() != nil {}
        directory.remove()
    }

    /// Sends events through the run loop's rules, each followed by a frame; returns the last.
    @discardableResult
    func press(_ events: InputEvent...) -> String {
        TestTerminal.press(events, on: loop, clock: clock)
        return screen.text
    }

    @discardableResult
    func type(_ text: String) -> String {
        for character in text { press(.character(character)) }
        return screen.text
    }

    var text: String { screen.text }
    var selectedTitle: String? { list.selectedObject?.string("title") }
}

/// The detail screen of the fixture: the book's title and author.
final class BookScreen: View {
    let book: ManagedObject
    init(book: ManagedObject) { self.book = book }

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        canvas.put("Book: \(book.string("title") ?? "")", x: frame.x, y: frame.y)
        canvas.put("by \(book.string("author") ?? "")", x: frame.x, y: frame.y + 1)
    }
}
