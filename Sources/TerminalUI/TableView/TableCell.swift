/// The content of one table row: what the data source returns for an index path.
///
/// A value, not a view: the table view draws it (it never keeps it, except to
/// animate the row away after a delete). Two styles, as UIKit's:
/// `.subtitle` (title line and a dim detail line, two lines high) and
/// `.value1` (one line: title on the left, detail right-aligned). Text that
/// does not fit is truncated by display cells with `…`; a wide character
/// (CJK, emoji) is never split.
///
/// In a table showing a grid (`TableView.gridColumns`), the cell's ``values``
/// are its columns, one line per row, and the title and detail are not drawn.
///
///     func cell(forRowAt indexPath: IndexPath) -> TableCell {
///         let book = books[indexPath.section][indexPath.row]
///         return TableCell(style: .subtitle, title: book.name,
///                          detail: "\(book.author), \(book.language)", accessory: .disclosureIndicator)
///     }
public struct TableCell: Hashable, Sendable {
    /// How the title and detail are laid out.
    public enum Style: Hashable, Sendable {
        /// Title line, then a dim detail line (`UITableViewCell.CellStyle.subtitle`).
        case subtitle
        /// One line: title left, detail right-aligned and dim (`.value1`).
        case value1

        /// Lines the style needs: use it for `TableView.rowHeight`.
        ///
        ///     let table = TableView(rowHeight: TableCell.Style.subtitle.lineCount)
        public var lineCount: Int {
            switch self {
            case .subtitle: return 2
            case .value1: return 1
            }
        }
    }

    /// A symbol at the right edge of the row.
    public enum Accessory: Hashable, Sendable {
        /// No symbol.
        case none
        /// `›`: selecting the row shows more.
        case disclosureIndicator
        /// `✓`
        case checkmark
        /// `ⓘ`: a click on it calls the delegate's `accessoryTapped(at:)`.
        case detailButton

        var symbol: String? {
            switch self {
            case .none: return nil
            case .disclosureIndicator: return "›"
            case .checkmark: return "✓"
            case .detailButton: return "ⓘ"
            }
        }
    }

    /// Layout of title and detail.
    public var style: Style
    /// The main text (first line).
    public var title: String
    /// Secondary text, dim: the second line (`.subtitle`) or right-aligned (`.value1`).
    public var detail: String?
    /// Symbol at the right edge of the first line.
    public var accessory: Accessory
    /// Extra attributes for the title (e.g. `.bold` for an unread note).
    public var titleAttributes: CellAttributes
    /// The row's column values in a grid, in `TableView.gridColumns`' order, as
    /// text; nil is NULL (drawn as a dim `∅`, unlike an empty string). Empty for a list cell.
    public var values: [String?]
    /// Parts of the grid values to show apart (a search's matches): in reverse video, or —
    /// in the selected row, which is reversed already — bold and underlined, not reversed.
    public var highlights: [Highlight] = []
    /// Whether the row waits for a store's answer to a change sent on its way (a delete sent
    /// to a server): drawn dim, marked ``pendingMark`` at its left edge until the answer.
    ///
    ///     cell.isPending = deleting.contains(row.id)
    public var isPending = false
    /// The grid values that wait for a store's answer (an edit sent to a server), as indices
    /// in ``values``: each drawn dim, marked ``pendingMark`` just before it, until the answer.
    ///
    ///     cell.pendingColumns = [2]   // the third value is being saved
    public var pendingColumns: Set<Int> = []

    /// The mark of a row or a grid value that waits for a store's answer.
    public static let pendingMark = "↻"

    /// A part of one grid value to show apart: `range` counts the value's characters
    /// (grapheme clusters, as `String.count` does).
    ///
    ///     TableCell(values: ["Heritage Bank", "Atlanta"],
    ///               highlights: [.init(column: 0, range: 0..<8)])   // "Heritage"
    public struct Highlight: Hashable, Sendable {
        /// The index of the value in ``TableCell/values``.
        public var column: Int
        /// The characters highlighted.
        public var range: Range<Int>

        /// Characters `range` of value `column`.
        public init(column: Int, range: Range<Int>) {
            self.column = column
            self.range = range
        }
    }

    /// A cell; only the title is required.
    ///
    ///     TableCell(style: .value1, title: "User ID", detail: "alice")
    public init(
        style: Style = .subtitle,
        title: String,
        detail: String? = nil,
        accessory: Accessory = .none,
        titleAttributes: CellAttributes = []
    ) {
        self.init(
            style: style,
            title: title,
            detail: detail,
            accessory: accessory,
            titleAttributes: titleAttributes,
            values: []
        )
    }

    /// A grid row's cell: its column values (nil is NULL), a title for messages, and the parts
    /// of its values to show apart (``highlights``).
    ///
    ///     TableCell(values: ["Heritage Bank", "Atlanta", "GA", nil])
    public init(title: String = "", values: [String?], highlights: [Highlight] = []) {
        self.init(style: .value1, title: title, detail: nil, accessory: .none, titleAttributes: [], values: values)
        self.highlights = highlights
    }

    private init(
        style: Style,
        title: String,
        detail: String?,
        accessory: Accessory,
        titleAttributes: CellAttributes,
        values: [String?]
    ) {
        self.values = values
        self.style = style
        self.title = title
        self.detail = detail
        self.accessory = accessory
        self.titleAttributes = titleAttributes
    }
}
