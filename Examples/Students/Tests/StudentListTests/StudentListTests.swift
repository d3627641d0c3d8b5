import Foundation
import SQLiteStore
import StudentList
import TerminalUI
import Testing

@Suite struct StudentListTests {
    final class Fixture {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("students-\(UUID().uuidString)")
        let path: String
        let screen = MemoryBackend(width: 50, height: 16)
        let clock = TestClock(now: 10)
        let loop: TerminalRunLoop

        init() throws {
            path = directory.appendingPathComponent("school.sqlite").path
            loop = TerminalRunLoop(screen: screen, clock: clock, minimumWidth: 24, minimumHeight: 8)
        }

        deinit {
            while loop.pop() != nil {}
            try? FileManager.default.removeItem(at: directory)
        }

        func press(_ events: InputEvent...) {
            for event in events {
                loop.dispatch(event)
                clock.advance(by: 0.01)
                loop.draw()
            }
            clock.advance(by: 1)
            loop.draw()
        }
    }

    @Test func theFirstLaunchCreatesTheSampleStudents() throws {
        let f = try Fixture()
        let store = try StudentList.openStore(at: f.path)
        let students = try ObjectContext(store: store).fetchRecords(Student.self, orderBy: "subject, number")
        #expect(students.count == StudentList.sampleStudents.count)
        let reopened = try StudentList.openStore(at: f.path)  // a second launch adds nothing
        #expect(try ObjectContext(store: reopened).fetchRecords(Student.self).count == students.count)
    }

    @Test func sectionsBySubjectWithCountsAndTheIndexOfInitials() throws {
        let f = try Fixture()
        let list = try StudentList.makeScreen(
            store: try StudentList.openStore(at: f.path),
            loop: f.loop,
            animated: false
        )
        f.loop.draw()
        let text = f.screen.text
        #expect(text.contains("Astronomy (2)"))
        #expect(text.contains("Biology (3)"))
        let controller = list.adapter.controller
        #expect(
            controller.sections.map(\.name) == [
                "Astronomy", "Biology", "Chemistry", "Computing", "English",
                "History", "Mathematics", "Physics",
            ]
        )
        #expect(controller.sectionIndexTitles == ["A", "B", "C", "E", "H", "M", "P"])
        // Within a subject, by number.
        let numbers = try controller.sections[1].objects.map { try $0.record(as: Student.self).number }
        #expect(numbers == numbers.sorted())
    }

    @Test func dThenEnterDeletesSavesAndTheRowLeaves() throws {
        let f = try Fixture()
        let store = try StudentList.openStore(at: f.path)
        let list = try StudentList.makeScreen(store: store, loop: f.loop, animated: false)
        f.loop.draw()
        let first = try #require(list.selectedObject?.string("name"))
        f.press(.character("d"))
        #expect(f.screen.text.contains("Delete"))
        f.press(.enter)
        let rows = f.screen.text.split(separator: "\n")
        #expect(!rows.contains { $0.hasPrefix(" \(first)") })  // the row left (the status line names it)
        #expect(f.screen.text.contains("Deleted “\(first)” — u to undo"))
        #expect(list.adapter.controller.numberOfObjects == StudentList.sampleStudents.count - 1)
        let saved = try ObjectContext(store: try Store(path: f.path, model: StudentList.model))
            .fetchRecords(Student.self, where: "name = ?", [.text(first)])
        #expect(saved.isEmpty)
    }
}
