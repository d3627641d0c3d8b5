/// One column of a table view's grid layout: its name in the header row, how its
/// values line up, how wide it may grow, and whether it stays on the left.
///
/// A description, not state: the table measures the column's width from the
/// values it draws (in display cells), between the name's width and
/// ``maximumWidth``, unless ``width`` fixes it. Frozen columns are drawn first,
/// left of a `│`, and never scroll sideways.
///
///     table.gridColumns = [
///         GridColumn("name", isFrozen: true),
///         GridColumn("city"),
///         GridColumn("cert", alignment: .trailing),   // a number
///     ]
public struct GridColumn: Hashable, Sendable {
    /// Where a value sits in its column.
    public enum Alignment: Hashable, Sendable {
        /// Left-aligned (text, dates).
        case leading
        /// Right-aligned (numbers).
        case trailing
    }

    /// The name shown in the header row.
    public var title: String
    /// How the column's values (and its name) line up.
    public var alignment: Alignment
    /// The widest the measured column grows, in cells; a longer value is cut with `…`.
    public var maximumWidth: Int
    /// A width set by hand (at least 1), instead of the measured one; nil: measured.
    public var width: Int?
    /// Whether the column stays on the left while the others scroll sideways.
    public var isFrozen: Bool

    /// A column named `title`.
    ///
    ///     GridColumn("close date", maximumWidth: 10)
    public init(
        _ title: String,
        alignment: Alignment = .leading,
        maximumWidth: Int = GridColumn.defaultMaximumWidth,
        width: Int? = nil,
        isFrozen: Bool = false
    ) {
        self.title = title
        self.alignment = alignment
        self.maximumWidth = max(1, maximumWidth)
        self.width = width.map { max(1, $0) }
        self.isFrozen = isFrozen
    }

    /// The default ``maximumWidth``: long enough for most names, short enough that
    /// one long text does not hide every other column.
    public static let defaultMaximumWidth = 32
}

/// What a grid shows of its columns: the column cursor and how far the
/// unfrozen columns are scrolled sideways (ratatui's `TableState`, for columns).
///
/// Kept apart from drawing: keys change it (`TableView.moveColumnCursor(by:)`),
/// and each render reads it, first scrolling the least that shows the cursor's
/// column whole.
///
///     table.gridState.cursorColumn = 0        // the first column
///     table.moveColumnCursor(by: 1)           // →
public struct GridState: Hashable, Sendable {
    /// The index in `TableView.gridColumns` of the column under the cursor.
    public var cursorColumn: Int
    /// How many unfrozen columns are scrolled off to the left.
    public var horizontalOffset: Int

    /// The cursor on column `cursorColumn`, nothing scrolled.
    public init(cursorColumn: Int = 0, horizontalOffset: Int = 0) {
        self.cursorColumn = cursorColumn
        self.horizontalOffset = horizontalOffset
    }
}
