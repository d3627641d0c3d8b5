import FetchedResultsScripts
import SQLiteStore
import TerminalUI

/// The detail screen of one object: a label/value row for each of `keys` (every
/// column of a table, for fetchedtable), labelled by the key or by `labels`, values
/// as ``DisplayText`` writes them (`—` for NULL or empty; a boolean attribute's
/// `yes`/`no`). Esc, ←, Backspace or `h` go back; ↑/↓ scroll.
///
/// It reads the object each time it draws, so a change made meanwhile by another
/// process shows at once, and an object deleted meanwhile says so.
///
///     let detail = ObjectDetailScreen(object: row, keys: ["name", "author", "language"], titleKey: "name", backTitle: "books")
///     loop.push(detail)
public final class ObjectDetailScreen: View {
    /// The object shown.
    public let object: ManagedObject
    /// The keys shown, top to bottom.
    public let keys: [String]
    /// The label of a key that is not labelled by its own name (`"details.publishedOn": "Published"`).
    public let labels: [String: String]
    /// What the object is called: `Row 12` titles an object without a title, `This row was deleted` a deleted one.
    public let noun: String
    /// The key whose value titles the navigation bar.
    public let titleKey: String?
    /// How a key's value is shown (nil: ``DisplayText/of(_:type:)`` of the value and its attribute's type).
    public let valueText: ((ManagedObject, String) -> String)?
    let navigationBar: NavigationBar
    let detailView = DetailView(rows: [])
    let statusLine = StatusLine(hints: "Esc/← back   ↑/↓ scroll   q quit")

    /// A screen of `object`'s `keys` (each labelled by `labels`, or by itself), titled by `titleKey`'s
    /// value, with `backTitle` on the back button; `valueText` shows a key's value otherwise than
    /// ``DisplayText`` (numbers as a file wrote them, dates written out).
    public init(
        object: ManagedObject,
        keys: [String],
        labels: [String: String] = [:],
        titleKey: String? = nil,
        backTitle: String? = nil,
        noun: String = "row",
        valueText: ((ManagedObject, String) -> String)? = nil
    ) {
        self.object = object
        self.keys = keys
        self.labels = labels
        self.noun = noun
        self.titleKey = titleKey
        self.valueText = valueText
        navigationBar = NavigationBar(title: "", backTitle: backTitle)
    }

    /// The label/value rows of `object`'s `keys`, each labelled by `labels` or by itself, each value
    /// by `valueText` (by default ``DisplayText/of(_:type:)``: a boolean attribute's `yes`/`no`).
    ///
    ///     ObjectDetailScreen.rows(for: book, keys: ["name", "language"], labels: ["name": "Title"])
    public static func rows(
        for object: ManagedObject,
        keys: [String],
        labels: [String: String] = [:],
        valueText: ((ManagedObject, String) -> String)? = nil
    ) -> [DetailView.Row] {
        keys.map { key in
            let text =
                valueText?(object, key)
                ?? DisplayText.of(object.value(forKeyPath: key), type: object.entity.attribute(named: key)?.type)
            return DetailView.Row(label: labels[key] ?? key, value: text.isEmpty ? "—" : text)
        }
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        if object.isDeleted {
            navigationBar.title = "Deleted"
            detailView.rows = [.init(label: "", value: "This \(noun) was deleted (by you or by another program).")]
        } else {
            let title = titleKey.map { valueText?(object, $0) ?? DisplayText.of(object.value(forKeyPath: $0)) } ?? ""
            let untitled = noun.prefix(1).uppercased() + noun.dropFirst() + " \(object.objectID.rowID)"
            navigationBar.title = title.isEmpty ? untitled : title
            let rows = ObjectDetailScreen.rows(for: object, keys: keys, labels: labels, valueText: valueText)
            if rows != detailView.rows { detailView.rows = rows }
        }
        navigationBar.render(into: &canvas, frame: frame.row(0), at: time)
        detailView.render(into: &canvas, frame: frame.inset(top: 2, left: 1, bottom: 1, right: 1), at: time)
        statusLine.render(into: &canvas, frame: frame.row(frame.height - 1), at: time)
    }

    /// True while a long value is still being laid out (a frame at a time, keys answered between).
    public func needsTick(at time: Double) -> Bool { detailView.needsTick(at: time) }

    public func handle(_ event: InputEvent) -> EventResult {
        switch event {
        case .escape, .left, .backspace, .character("h"):
            return .dismiss
        default:
            return detailView.handle(event)
        }
    }
}
