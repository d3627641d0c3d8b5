import FetchedResults
import FetchedResultsUI
import SQLiteStore
import TerminalUI

/// A student, as the table `student` (name, number, subject) holds one: the one place the
/// schema is declared (the model is built from it).
public struct Student: EntityRecord, Codable, Equatable, Sendable {
    /// The attributes, by name: in sorts, predicates and section keys as in the entity.
    public enum CodingKeys: String, CodingKey { case name, number, subject }
    public typealias Columns = CodingKeys
    /// The entity `Student`, in the table `student`.
    public static let entity = Entity(
        "Student",
        attributes: [
            Attribute(Columns.name.stringValue, .text),
            Attribute(Columns.number.stringValue, .integer),
            Attribute(Columns.subject.stringValue, .text, indexed: true),
        ]
    )
    public var name: String
    public var number: Int
    public var subject: String
}

/// The store's model, the sample data, and the list screen's configuration of `students`.
public enum StudentList {
    /// One entity, `Student`, in the table `student`.
    public static let model = Model(version: 1, applicationID: 0x5354_4455, records: [Student.self])

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
            records: Student.self,
            sortDescriptors: [FetchSort(Student.Columns.subject), FetchSort(Student.Columns.number)],
            sectionNameKeyPath: Student.Columns.subject.stringValue,
            name: { student in "“\(student.name)”" }
        ) { student in
            TableCell(style: .subtitle, title: student.name, detail: "No. \(student.number)")
        }
        tab.headerTitle = { section in "\(section.name) (\(section.numberOfObjects))" }
        tab.searchKeyPaths = [Student.Columns.name.stringValue]
        tab.noun = ("student", "students")
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
