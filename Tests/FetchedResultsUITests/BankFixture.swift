import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport

/// A temporary store in the failed-bank shape (info ↔ details, a derived
/// closing year), a REAL controller over it, and the adapter feeding a table
/// that renders into an in-memory canvas at chosen times.
final class BankFixture {
    static let model = Model(
        version: 1,
        applicationID: 0x5445_5354,
        entities: [
            Entity(
                "Bank",
                attributes: [Attribute("name", .text), Attribute("city", .text), Attribute("state", .text)],
                relationships: [
                    Relationship(
                        "details",
                        destination: "Details",
                        inverse: "bank",
                        deleteRule: .cascade,
                        storesForeignKey: false
                    )
                ]
            ),
            Entity(
                "Details",
                attributes: [Attribute("closeDate", .date, indexed: true), Attribute("cert", .integer)],
                relationships: [
                    Relationship(
                        "bank",
                        destination: "Bank",
                        inverse: "details",
                        deleteRule: .nullify,
                        storesForeignKey: true
                    )
                ],
                derived: [
                    .year("closeYear", of: "closeDate", column: "close_date", valuesAreDates: true)
                ]
            ),
        ]
    )

    let directory = TemporaryDirectory("adapter")
    let store: Store
    let context: ObjectContext
    let table: TableView
    var controller: FetchedResultsController
    var adapter: FetchedResultsTableAdapter!
    var logged: [String] = []
    var canvas: Canvas

    /// A store holding `banks` (name, city, state, closing date), shown by date
    /// (newest first, then name) in year sections on a `width`×`height` canvas.
    init(banks: [(String, String, String, String)], width: Int = 44, height: Int = 14) throws {
        store = try Store(path: directory.path("banks.sqlite"), model: BankFixture.model)
        context = ObjectContext(store: store)
        for (index, bank) in banks.enumerated() {
            try BankFixture.insert(bank, cert: Int64(index + 1), into: context)
        }
        try context.save()
        controller = BankFixture.makeController(context: context, byName: false)
        try controller.performFetch()
        table = TableView(rowHeight: TableCell.Style.subtitle.lineCount)
        canvas = Canvas(width: width, height: height)
        adapter = FetchedResultsTableAdapter(
            controller: controller,
            tableView: table,
            cellForObject: { bank in
                TableCell(
                    style: .subtitle,
                    title: bank.string("name") ?? "",
                    detail: "\(bank.string("city") ?? ""), \(bank.string("state") ?? "")"
                )
            },
            headerTitle: { section in "\(section.name) (\(section.numberOfObjects))" }
        )
        adapter.log = { [unowned self] message in self.logged.append(message) }
    }

    static func makeController(
        context: ObjectContext,
        byName: Bool,
        predicate: FetchPredicate? = nil
    ) -> FetchedResultsController {
        var request = FetchRequest(entity: "Bank")
        request.predicate = predicate
        if byName {
            request.sortDescriptors = [FetchSort("state"), FetchSort("name", comparison: .caseInsensitive)]
            let controller = FetchedResultsController(
                fetchRequest: request,
                context: context,
                sectionNameKeyPath: "state"
            )
            return controller
        }
        request.sortDescriptors = [
            FetchSort("details.closeDate", ascending: false),
            FetchSort("name", comparison: .caseInsensitive),
        ]
        request.fetchBatchSize = 20
        let controller = FetchedResultsController(
            fetchRequest: request,
            context: context,
            sectionNameKeyPath: "details.closeYear"
        )
        controller.sectionIndexTitleProvider = { $0 }
        return controller
    }

    @discardableResult
    static func insert(
        _ bank: (String, String, String, String),
        cert: Int64,
        into context: ObjectContext
    ) throws -> ManagedObject {
        let info = context.insert(into: "Bank")
        info["name"] = .text(bank.0)
        info["city"] = .text(bank.1)
        info["state"] = .text(bank.2)
        let details = context.insert(into: "Details")
        details["closeDate"] = .text(bank.3)
        details["cert"] = .integer(cert)
        info.setRelated(details, for: "details")
        return info
    }

    /// The bank named `name`.
    func bank(named name: String) throws -> ManagedObject {
        let found = try context.fetch("Bank", where: "name = ?", [.text(name)])
        guard let bank = found.first else { throw FixtureError.noSuchBank(name) }
        return bank
    }

    enum FixtureError: Error { case noSuchBank(String) }

    /// Renders the table at `time` and returns the frame's text.
    func render(at time: Double) -> String {
        canvas.erase()
        table.render(into: &canvas, frame: canvas.bounds, at: time)
        return canvas.text
    }

    /// One letter per cell of the last frame, trailing plain cells trimmed:
    /// `.` plain, `r` reverse (selection), `d` dim (detail lines, fading rows),
    /// `D` dim + reverse, `b` bold, `a` accent, `x` destructive, `*` other mixes.
    var attributeMap: String {
        var lines: [String] = []
        for y in 0..<canvas.height {
            var line = ""
            for x in 0..<canvas.width {
                let a = canvas[x, y].attributes
                switch a {
                case []: line += "."
                case [.reverse]: line += "r"
                case [.dim]: line += "d"
                case [.dim, .reverse]: line += "D"
                case [.bold]: line += "b"
                case [.accent], [.accent, .bold]: line += "a"
                case [.destructive], [.destructive, .bold], [.destructive, .reverse]: line += "x"
                default: line += "*"
                }
            }
            while line.hasSuffix(".") { line.removeLast() }
            lines.append("   " + line)
        }
        return lines.joined(separator: "\n")
    }

    /// Frames at `start + fraction × duration` for each fraction, labelled.
    func frames(from start: Double, fractions: [Double] = [0, 0.25, 0.5, 0.75, 1.0]) -> String {
        var out: [String] = []
        for fraction in fractions {
            let time = start + fraction * table.animationDuration
            let text = render(at: time)
            let marker = table.selection.map { "selection [\($0.section), \($0.row)]" } ?? "no selection"
            out.append("── t = \(String(format: "%.3f", fraction * table.animationDuration)) s · \(marker) ──")
            out.append(text)
            out.append("   attributes:")
            out.append(attributeMap)
        }
        // Settled: well after the animation.
        out.append("── settled ──")
        out.append(render(at: start + 10))
        return out.joined(separator: "\n") + "\n"
    }
}

/// Compares `text` with `Golden/<name>.txt` next to this file (``GoldenFiles``: with
/// `UPDATE_GOLDEN=1` it rewrites the file instead; review the diff).
func matchesGolden(_ text: String, _ name: String, filePath: String = #filePath) -> (Bool, String) {
    let files = GoldenFiles(
        directory: URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    )
    guard let mismatch = files.mismatch(text, named: name) else { return (true, "") }
    return (false, mismatch)
}
