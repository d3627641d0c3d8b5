import FetchedResults
import FetchedResultsScripts
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// A small library: books, each with its author, each with a title, a year and whether it was read.
private final class Library {
    static let author = Entity(
        "Author",
        attributes: [Attribute("name", .text)],
        relationships: [Relationship("book", destination: "Book", inverse: "author", storesForeignKey: false)]
    )
    static let book = Entity(
        "Book",
        attributes: [Attribute("title", .text), Attribute("year", .integer), Attribute("read", .bool)],
        relationships: [Relationship("author", destination: "Author", inverse: "book", storesForeignKey: true)]
    )
    static let model = Model(version: 1, applicationID: 0x424F_4F4B, entities: [author, book])

    let directory = TemporaryDirectory("scripts-test")
    let context: ObjectContext

    init(_ books: [(title: String, year: Int64, read: Bool)]) throws {
        context = ObjectContext(store: try Store(path: directory.path("books.sqlite"), model: Library.model))
        for book in books {
            let author = context.insert(into: "Author")
            author["name"] = .text("Le Guin")
            let object = context.insert(into: "Book")
            object["title"] = .text(book.title)
            object["year"] = .integer(book.year)
            object["read"] = .integer(book.read ? 1 : 0)
            object.setRelated(author, for: "author")
        }
        try context.save()
    }

    /// The books by year, sectioned by year.
    func controller() throws -> FetchedResultsController {
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest(entity: "Book", sortDescriptors: [FetchSort("year"), FetchSort("title")]),
            context: context,
            sectionNameKeyPath: "year"
        )
        controller.sectionIndexTitleProvider = { $0 }
        try controller.performFetch()
        return controller
    }
}

@Suite("ResultsListWriter reads the rows itself")
struct ResultsListWriterTests {
    private func written(
        _ writer: ResultsListWriter,
        _ format: ResultsListWriter.Format,
        _ library: Library
    ) throws
        -> String
    {
        var out = ""
        try writer.write(try library.controller(), format: format) { out += $0 }
        return out
    }

    @Test(
        "JSON from a controller and columns alone: values read from the store, a boolean attribute as true/false, one line"
    )
    func jsonFromColumns() throws {
        let library = try Library([("Lathe", 1971, true), ("Dispossessed", 1974, false)])
        let writer = ResultsListWriter(columns: ["title", "year", "read"], noun: ("book", "books"))
        #expect(
            try written(writer, .json, library)
                == #"{"sections":[{"name":"1971","indexTitle":"1971","objects":[{"id":1,"title":"Lathe","year":1971,"read":true}]},"#
                + #"{"name":"1974","indexTitle":"1974","objects":[{"id":2,"title":"Dispossessed","year":1974,"read":false}]}]}"#
                + "\n"
        )
    }

    @Test("key paths may cross a to-one relationship; the columns name them")
    func keyPathsThroughRelationship() throws {
        let library = try Library([("Lathe", 1971, true)])
        let writer = ResultsListWriter(
            columns: ["title", "author"],
            keyPaths: ["title", "author.name"],
            noun: ("book", "books")
        )
        #expect(try written(writer, .csv, library) == "section,id,title,author\n1971,1,Lathe,Le Guin\n")
    }

    @Test("a custom text line keeps the control-character escaping; every format ends with a newline")
    func customTextLineIsEscaped() throws {
        let library = try Library([("Two\nLines\u{1B}[31m", 1971, true)])
        var writer = ResultsListWriter(columns: ["title"], noun: ("book", "books"))
        writer.textLine = { id, values in "  #\(id) " + DisplayText.of(values[0]) }
        #expect(try written(writer, .text, library) == "1971 (1 book)\n  #1 Two\\nLines\\u{1B}[31m\n")
        for format in ResultsListWriter.Format.allCases {
            #expect(try written(writer, format, library).hasSuffix("\n"), "\(format)")
        }
    }

    @Test("a key path the entity lacks is refused before anything is written")
    func unknownKeyPathRefused() throws {
        let library = try Library([("Lathe", 1971, true)])
        let writer = ResultsListWriter(columns: ["pages"], noun: ("book", "books"))
        var out = ""
        #expect(throws: StoreError.self) { try writer.write(try library.controller(), format: .json) { out += $0 } }
        #expect(out.isEmpty)
    }

    @Test("rows read a batch at a time come out in the controller's order")
    func batchesKeepOrder() throws {
        let library = try Library((0..<7).map { ("Book \($0)", 2000 - Int64($0), $0 % 2 == 0) })
        var writer = ResultsListWriter(columns: ["year"], noun: ("book", "books"))
        writer.batchSize = 2
        let lines = try written(writer, .csv, library).split(separator: "\n").dropFirst()
        #expect(lines.map { $0.split(separator: ",")[2] } == ["1994", "1995", "1996", "1997", "1998", "1999", "2000"])
    }
}
