import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

// The hand-made list of FetchedResultsUI.docc/GettingStarted.md ("The same list
// by hand"), line for line, except that it runs on a temporary store and an
// in-memory screen instead of `students.sqlite` and `CursesBackend()`.
// scripts/doc-snippets.py compiles the article itself; this test runs its code.

// 1. The model: one entity, one table.
private let model = Model(
    version: 1,
    applicationID: 0x5354_5544,
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

// 2. Sample data on the first launch.
private func addSampleStudents(to context: ObjectContext) throws {
    guard try context.fetch("Student").isEmpty else { return }
    let students: [(String, Int64, String)] = [
        ("Ada", 3, "Algebra"), ("Blaise", 1, "Algebra"),
        ("Carl", 2, "Botany"),
        ("Emmy", 5, "Chemistry"), ("Marie", 4, "Chemistry"),
    ]
    for (name, number, subject) in students {
        let student = context.insert(into: "Student")
        student["name"] = .text(name)
        student["number"] = .integer(number)
        student["subject"] = .text(subject)
    }
    try context.save()
}

// 3. The list screen: a title line and the table, fed by the adapter.
private final class StudentList: View, TableViewDelegate {
    let context: ObjectContext
    let controller: FetchedResultsController
    let table = TableView(rowHeight: TableCell.Style.value1.lineCount)
    var adapter: FetchedResultsTableAdapter!

    init(context: ObjectContext) throws {
        self.context = context
        var request = FetchRequest(entity: "Student")
        request.sortDescriptors = [FetchSort("subject"), FetchSort("number")]
        controller = FetchedResultsController(
            fetchRequest: request,
            context: context,
            sectionNameKeyPath: "subject"
        )
        try controller.performFetch()
        adapter = FetchedResultsTableAdapter(
            controller: controller,
            tableView: table,
            cellForObject: { student in
                TableCell(
                    style: .value1,
                    title: student.string("name") ?? "",
                    detail: "#\(student.int("number") ?? 0)"
                )
            },
            headerTitle: { section in "\(section.name) (\(section.numberOfObjects))" }
        )
        table.delegate = self
    }

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        canvas.put("Students", x: frame.x, y: frame.y, attributes: .bold)
        table.render(into: &canvas, frame: frame.inset(top: 1), at: time)
    }

    func handle(_ event: InputEvent) -> EventResult {
        table.handle(event) ? .handled : .ignored
    }

    func needsTick(at time: Double) -> Bool { table.isAnimating(at: time) }

    /// `d`, then Enter: the student is deleted and saved; the controller's
    /// batch reaches the table through the adapter and the row leaves.
    func commitDelete(at indexPath: IndexPath) {
        context.delete(controller.object(at: indexPath))
        try? context.save()
    }
}

@Suite struct GettingStartedExampleTests {
    /// 4. The program's main code, on a temporary store and an in-memory screen.
    @Test func theGettingStartedBrowserShowsSectionsAndDeletes() throws {
        let directory = TemporaryDirectory("getting-started")
        defer { directory.remove() }
        let path = directory.path("students.sqlite")

        let store = try Store(path: path, model: model)
        let context = ObjectContext(store: store)
        try addSampleStudents(to: context)
        let list = try StudentList(context: context)

        let screen = MemoryBackend(width: 32, height: 10)
        let clock = TestClock()
        let loop = TerminalRunLoop(backend: screen, clock: clock)
        loop.push(list)
        loop.addTicker(every: 0.2) { _ in _ = try? context.processExternalChanges() }

        // First frame: three subjects, sorted by number within each, with counts and an index.
        loop.draw()
        let first = screen.text
        #expect(
            first == """
                Students
                 Algebra (2) ────────────────
                 Blaise                    #1
                 Ada                       #3
                 Botany (1) ─────────────────  A
                 Carl                      #2  B
                 Chemistry (2) ──────────────  C
                 Marie                     #4
                 Emmy                      #5

                """,
            "\(first)"
        )

        // ↓ ↓ selects Carl, `d` shows the Delete button, Enter deletes; `q` quits.
        screen.enqueue(.down, .down, .character("d"), .enter, .character("q"))
        #expect(loop.run() == .quit)
        loop.draw()  // the delete's animation starts with the first frame that shows it
        clock.advance(by: 1)  // past the animation
        loop.draw()
        let after = screen.text
        #expect(after.contains("Algebra (2)") && after.contains("Chemistry (2)"))
        #expect(!after.contains("Botany") && !after.contains("Carl"), "\(after)")
        #expect(list.adapter.lastError == nil)
        #expect(try context.fetch("Student").count == 4)
    }
}
