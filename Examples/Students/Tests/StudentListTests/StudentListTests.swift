import FetchedResultsUI
import Foundation
import SQLiteStore
import StudentList
import TerminalUI
import Testing

@Suite struct StudentListTests {
    final class Fixture {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("students-\(UUID().uuidString)")
        var path: String { directory.appendingPathComponent("school.sqlite").path }
        let terminal = TestTerminal(width: 50, height: 16, minimumWidth: 24, minimumHeight: 8)

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// The list of the store at ``path`` on the terminal, after its first frame.
        func list() throws -> ListScreen {
            let store = try StudentList.program.openStore(at: path)
            let list = try StudentList.program.makeList(store: store, loop: terminal.loop, animated: false)
            terminal.press()
            return list
        }
    }

    @Test func theFirstLaunchCreatesTheSampleStudents() throws {
        let f = Fixture()
        let store = try StudentList.program.openStore(at: f.path)
        let students = try ObjectContext(store: store).fetchRecords(Student.self, orderBy: "subject, number")
        #expect(students.count == StudentList.sampleStudents.count)
        let reopened = try StudentList.program.openStore(at: f.path)  // a second launch adds nothing
        #expect(try ObjectContext(store: reopened).fetchRecords(Student.self).count == students.count)
    }

    @Test func sectionsBySubjectWithCountsAndTheIndexOfInitials() throws {
        let f = Fixture()
        let controller = try f.list().adapter.controller
        #expect(f.terminal.text.contains("Astronomy (2)"))
        #expect(f.terminal.text.contains("Biology (3)"))
        #expect(
            controller.sections.map(\.name) == [
                "Astronomy", "Biology", "Chemistry", "Computing", "English", "History", "Mathematics", "Physics",
            ]
        )
        #expect(controller.sectionIndexTitles == ["A", "B", "C", "E", "H", "M", "P"])
        // Within a subject, by number.
        let numbers = try controller.sections[1].objects.map { try $0.record(as: Student.self).number }
        #expect(numbers == numbers.sorted())
    }

    @Test func dThenEnterDeletesSavesAndTheRowLeaves() throws {
        let f = Fixture()
        let list = try f.list()
        let first = try #require(list.selectedObject?.string("name"))
        #expect(f.terminal.press(.character("d")).contains("Delete"))
        let rows = f.terminal.press(.enter).split(separator: "\n")
        #expect(!rows.contains { $0.hasPrefix(" \(first)") })  // the row left (the status line names it)
        #expect(f.terminal.text.contains("Deleted “\(first)” — u to undo"))
        #expect(list.adapter.controller.numberOfObjects == StudentList.sampleStudents.count - 1)
        let saved = try ObjectContext(store: try Store(path: f.path, model: StudentList.model))
            .fetchRecords(Student.self, where: "name = ?", [.text(first)])
        #expect(saved.isEmpty)
    }
}
