import FetchedResults
import FetchedResultsUI
import SQLiteStore
import TerminalUI

/// A student, as the table `student` (name, number, subject) holds one.
public struct Student: StoreRecord, Codable, Equatable, Sendable {
    public static let entityName = "Student"
    public var name: String
    public var number: Int
    public var subject: String
}

/// The store's model, the sample data, and the list screen's configuration of `students`.
public enum StudentList {
    /// One entity, `Student`, in the table `student`.
    public static let model = Model(
        version: 1,
        applicationID: 0x5354_4455,
        entities: [
            Entity(
                "Student",
                attributes: [
                    Attribute("name", .text),
                    Attribute("number", .integer),
                    Attribute("subject", .text, indexed: true),
                ]
            )
        ]
    )

    /// What a first launch puts in the new store.
    public static let sampleStudents: [Student] = [
        ("Ada Lovelace", "Mathematics"), ("Alan Turing", "Mathematics"), ("Emmy Noether", "Mathematics"),
        ("Marie Curie", "Physics"), ("Richard Feynman", "Physics"), ("Lise Meitner", "Physics"),
        ("Rosalind Franklin", "Biology"), ("Charles Darwin", "Biology"), ("Barbara McClintock", "Biology"),
        ("Dorothy Hodgkin", "Chemistry"), ("Linus Pauling", "Chemistry"),
        ("Mary Beard", "History"), ("Eric Hobsbawm", "History"), ("Herodotus", "History"),
        ("Grace Hopper", "Computing"), ("Donald Knuth", "Computing"), ("Edsger Dijkstra", "Computing"),
        ("Jane Austen", "English"), ("Virginia Woolf", "English"),
        ("Hypatia", "Astronomy"), ("Vera Rubin", "Astronomy"),
    ].enumerated().map { index, student in Student(name: student.0, number: 101 + index * 7 % 40, subject: student.1) }

    /// The one tab: by subject then number, a section per subject with its count, the subjects'
    /// initials in the index; `/` searches names.
    public static var bySubject: ListTab {
        var tab = ListTab(
            title: "Students",
            entity: "Student",
            sortDescriptors: [FetchSort("subject"), FetchSort("number")],
            sectionNameKeyPath: "subject"
        ) { object in
            let student = try? object.record(as: Student.self)
            return TableCell(style: .subtitle, title: student?.name ?? "?", detail: "No. \(student?.number ?? 0)")
        }
        tab.headerTitle = { section in "\(section.name) (\(section.numberOfObjects))" }
        tab.searchKeyPaths = ["name"]
        tab.noun = ("student", "students")
        tab.objectName = { object in "“\(object.string("name") ?? "")”" }
        return tab
    }

    /// `students [--db PATH] [--no-animation]`: the sectioned list, `d` then Enter deletes; the store
    /// is `$XDG_DATA_HOME/fetchedtable-examples/students.sqlite` unless `--db` names one.
    public static var program: ListProgram {
        ListProgram(name: "students", model: model, dataFolder: "fetchedtable-examples") { context in
            for student in sampleStudents { context.insert(student) }
        } configuration: { _ in
            var configuration = ListScreenConfiguration(title: "Students", tabs: [bySubject])
            configuration.indexTitleDescription = "a subject's initial"
            configuration.filterExample = ["subject == \"Physics\"; Esc clears"]
            return configuration
        }
    }
}
