import Foundation
import TestSupport
import Testing

@testable import TerminalUI

/// A data source over an array of sections of rows: the model the tests mutate.
final class ModelDataSource: TableViewDataSource {
    struct Row: Hashable {
        var id: Int
        var title: String
        var detail: String?
        /// The row's grid values (nil: NULL).
        var values: [String?] = []
    }

    struct Section {
        var id: Int
        var title: String?
        var indexTitle: String?
        var rows: [Row]
    }

    var sections: [Section]
    var style: TableCell.Style
    var accessory: TableCell.Accessory = .none
    /// How many cells the table asked for.
    var cellRequests = 0
    /// The table holds its data source weakly (as UIKit); a test fixture keeps
    /// itself alive on purpose (a deliberate cycle) so that a test can drop its
    /// own reference without the table losing its rows.
    private var keepAlive: AnyObject?

    init(_ sections: [Section], style: TableCell.Style = .subtitle) {
        self.sections = sections
        self.style = style
        keepAlive = self
    }

    var numberOfSections: Int { sections.count }
    func numberOfRows(inSection section: Int) -> Int { sections[section].rows.count }
    func cell(forRowAt indexPath: IndexPath) -> TableCell {
        cellRequests += 1
        let row = sections[indexPath.section].rows[indexPath.row]
        var cell = TableCell(style: style, title: row.title, detail: row.detail, accessory: accessory)
        cell.values = row.values
        return cell
    }
    func titleForHeader(inSection section: Int) -> String? { sections[section].title }
    func sectionIndexTitles() -> [String] { sections.compactMap(\.indexTitle) }
    func section(forSectionIndexTitle title: String, at index: Int) -> Int {
        sections.firstIndex { $0.indexTitle == title } ?? 0
    }
    func rowIdentity(at indexPath: IndexPath) -> AnyHashable? {
        AnyHashable(sections[indexPath.section].rows[indexPath.row].id)
    }

    func row(at indexPath: IndexPath) -> Row { sections[indexPath.section].rows[indexPath.row] }
    func indexPath(ofRow id: Int) -> IndexPath? {
        for (s, section) in sections.enumerated() {
            if let r = section.rows.firstIndex(where: { $0.id == id }) { return IndexPath(row: r, section: s) }
        }
        return nil
    }
}

/// Records what the table told its delegate.
final class RecordingDelegate: TableViewDelegate {
    var selected: [IndexPath] = []
    var deleted: [IndexPath] = []
    var accessoryTaps: [IndexPath] = []
    var selectionChanges: [IndexPath?] = []
    var deletable: (IndexPath) -> Bool = { _ in true }
    private var keepAlive: AnyObject?  // weakly held by the table: see ModelDataSource
    init() { keepAlive = self }
    func didSelectRow(at indexPath: IndexPath) { selected.append(indexPath) }
    func commitDelete(at indexPath: IndexPath) { deleted.append(indexPath) }
    func accessoryTapped(at indexPath: IndexPath) { accessoryTaps.append(indexPath) }
    func canDeleteRow(at indexPath: IndexPath) -> Bool { deletable(indexPath) }
    func selectionDidChange(to indexPath: IndexPath?) { selectionChanges.append(indexPath) }
}

enum Fixtures {
    static let bankNames = [
        "First National Bank", "Citizens State Bank", "Heritage Community Bank", "Pinnacle Bank",
        "Farmers & Merchants Bank of Long Beach", "Security Savings", "Home Federal Savings and Loan Association",
        "Valley Bank", "Metropolitan National Bank", "Bank of the Ozarks", "Riverside National Bank of Florida",
        "Sunrise Bank", "Premier American Bank", "Colonial Bank", "Washington Mutual Bank", "Peoples Community Bank",
    ]
    static let cities = [
        ("Chicago", "IL"), ("Austin", "TX"), ("Atlanta", "GA"), ("Sacramento", "CA"), ("Denver", "CO"),
        ("Tampa", "FL"), ("Seattle", "WA"), ("Phoenix", "AZ"), ("Newark", "NJ"), ("Tulsa", "OK"),
    ]

    /// Failed banks by year, newest first: `years` sections of `perYear` rows.
    static func banks(
        years: ClosedRange<Int> = 2006...2015,
        perYear: (Int) -> Int = { _ in 6 },
        style: TableCell.Style = .subtitle
    ) -> ModelDataSource {
        var id = 0
        var sections: [ModelDataSource.Section] = []
        for year in years.reversed() {
            var rows: [ModelDataSource.Row] = []
            for i in 0..<perYear(year) {
                let name = bankNames[(id * 7 + i) % bankNames.count]
                let (city, state) = cities[(id * 3 + year) % cities.count]
                let month = (id % 12) + 1
                let day = (id * 5) % 28 + 1
                let date = String(format: "%04d-%02d-%02d", year, month, day)
                let detail = style == .subtitle ? "\(city), \(state) · closed \(date)" : date
                rows.append(.init(id: id, title: name, detail: detail))
                id += 1
            }
            sections.append(.init(id: year, title: String(year), indexTitle: String(year), rows: rows))
        }
        return ModelDataSource(sections, style: style)
    }

    /// One section of `count` plain rows, no headers, no index.
    static func plain(_ count: Int, style: TableCell.Style = .value1) -> ModelDataSource {
        ModelDataSource(
            [
                .init(
                    id: 0,
                    title: nil,
                    indexTitle: nil,
                    rows: (0..<count).map { .init(id: $0, title: "Row \($0)", detail: "d\($0)") }
                )
            ],
            style: style
        )
    }
}

/// Renders `table` on a fresh canvas of the given size.
func draw(_ table: TableView, width: Int, height: Int, at time: Double = 0) -> Canvas {
    var canvas = Canvas(width: width, height: height)
    table.render(into: &canvas, at: time)
    return canvas
}

/// One character per cell for its most telling attribute, so golden files can
/// say which cells are reversed, dim, accented or destructive:
/// `X` destructive, `R` reverse, `A` accent, `B` bold, `D` dim, `.` none
/// (a wide character's continuation cell is left out, as in `Canvas.text`).
func attributeMap(_ canvas: Canvas) -> String {
    var lines: [String] = []
    for y in 0..<canvas.height {
        var line = ""
        for x in 0..<canvas.width {
            let cell = canvas[x, y]
            if cell.isContinuation { continue }
            let a = cell.attributes
            line.append(
                a.contains(.destructive)
                    ? "X"
                    : a.contains(.reverse)
                        ? "R"
                        : a.contains(.accent)
                            ? "A"
                            : a.contains(.bold) ? "B" : a.contains(.dim) ? "D" : "."
            )
        }
        while line.hasSuffix(".") { line.removeLast() }
        lines.append(line)
    }
    return lines.joined(separator: "\n")
}

/// Golden files: `Tests/TerminalUITests/Golden/<name>.txt` (``GoldenFiles``: `UPDATE_GOLDEN=1`
/// rewrites them; a missing file is an error that says so).
enum Golden {
    static let files = GoldenFiles(
        directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    )

    static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if let mismatch = files.mismatch(actual + "\n", named: name) {
            Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
        }
    }

    /// Checks the text and the attribute map of `canvas`.
    static func check(
        _ canvas: Canvas,
        _ name: String,
        attributes: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        check(canvas.text, name, sourceLocation: sourceLocation)
        if attributes { check(attributeMap(canvas), name + ".attrs", sourceLocation: sourceLocation) }
    }
}
