import Foundation

/// A scrolling, sectioned list in UIKit's shape, drawn into a `Canvas`.
///
/// State (selection, scroll offset, the row showing its Delete button, a
/// running animation) changes through `handle(_:)`, the selection and batch
/// update methods; `render(into:frame:at:)` reads that state and the data
/// source and writes cells, and never calls the terminal. Only visible rows are
/// asked for: section offsets are prefix sums rebuilt on `reloadData()` and
/// `endUpdates()` (O(sections)), and the top row is found by binary search, so
/// a million rows cost what ten do.
///
///     let table = TableView(rowHeight: TableCell.Style.subtitle.lineCount)
///     table.dataSource = books          // weak
///     table.delegate = screen           // weak
///     var canvas = Canvas(width: 80, height: 24)
///     table.render(into: &canvas, frame: Rect(x: 0, y: 1, width: 80, height: 22), at: clock.now)
///     if table.handle(.down) { /* redraw */ }
///     try table.performBatchUpdates({ table.deleteRows(at: [IndexPath(row: 2, section: 0)]) })
///     while table.isAnimating(at: clock.now) { /* tick at ~30 fps */ }
public final class TableView {
    /// Turns every batch animation off (the apps' `--no-animation`). Set it once
    /// at start-up, before the run loop, on the thread that drives the screen.
    nonisolated(unsafe) public static var animationsEnabled = true

    /// Supplies sections, rows and cells. Weak, as in UIKit. Setting it reloads
    /// lazily (at the next render, input or selection call).
    public weak var dataSource: TableViewDataSource? {
        didSet { needsReload = true }
    }

    /// Receives selections, confirmed deletes and accessory taps. Weak.
    public weak var delegate: TableViewDelegate?

    /// Lines per row, for every row (so that geometry never needs the cells):
    /// `TableCell.Style.subtitle.lineCount` (2) or `.value1.lineCount` (1).
    public var rowHeight: Int {
        didSet { if rowHeight != oldValue { needsReload = true } }
    }

    /// Shown, dim and centred, when the table has no rows.
    public var emptyMessage: String = "No items"

    /// Whether the index sidebar is drawn (when the data source has index titles).
    public var showsSectionIndex = true

    /// Length of batch animations in seconds (150–300 ms reads well).
    public var animationDuration: Double = 0.25

    /// Per-table switch for batch animations (see also `TableView.animationsEnabled`).
    public var animatesUpdates = true

    /// The selected row. The table keeps one selected while it has rows.
    public internal(set) var selection: IndexPath?

    /// First content line shown at the top of the frame. Settable; clamped
    /// to the content when drawn.
    public var scrollOffset: Int = 0

    /// The row whose inline Delete button is showing, if any.
    public internal(set) var editingIndexPath: IndexPath?

    /// The index title typed after `f`, while that jump is in progress.
    public internal(set) var indexSearchText: String?

    /// The columns of the grid layout: one line per row, the cells' `values` in
    /// aligned columns under a header row of their names, with a column cursor
    /// and sideways scrolling (frozen columns stay on the left). Nil, the
    /// default, draws the cells as a list. Sections, sticky headers, the index,
    /// the selection and animated batches work the same in both; use a
    /// `rowHeight` of 1 with a grid (only a row's first line holds its values).
    ///
    ///     table.rowHeight = 1
    ///     table.gridColumns = [GridColumn("name", isFrozen: true), GridColumn("cert", alignment: .trailing)]
    ///
    /// Widths are measured in display cells from the values drawn since the
    /// columns were set (the rows on screen, then every row scrolled past: a column
    /// never narrows while scrolling); changing only frozen, width or alignment
    /// keeps them; other names measure again.
    public var gridColumns: [GridColumn]? {
        didSet { gridColumnsDidChange(from: oldValue) }
    }

    /// The grid's column cursor and sideways scroll (unused without ``gridColumns``).
    public var gridState = GridState()

    /// The error of the last batch that was applied outside `beginUpdates`/`endUpdates`
    /// (single `insertRows` etc. calls), or of the last failed `endUpdates`; nil after
    /// a batch that succeeded.
    public internal(set) var lastUpdateError: TableViewError?

    var layout: TableLayout
    var needsReload = true
    var animation: TableAnimation?
    var updateDepth = 0
    var pendingBatch = TableUpdateBatch()
    /// The frame of the last render; nil until the first one.
    var lastFrame: Rect?
    var pendingScrollToSelection = false
    /// Cells of the rows currently on screen, by their current index path (the
    /// only way to draw a deleted row while it fades out).
    var cellCache: [(indexPath: IndexPath, cell: TableCell)] = []
    var selectedIdentity: AnyHashable?
    var indexSearchMatched = true
    /// The index title the `f` jump matched last.
    var indexSearchMatch: Int?
    /// The grid columns' measured widths, in cells (see ``gridColumns``).
    var gridWidths: [Int] = []
    /// Where each grid column shown was drawn in the last frame (reused: no allocation per frame).
    var gridPlacements: [GridPlacement] = []
    /// The `│` after the frozen columns in the last frame, if drawn.
    var gridSeparatorX: Int?
    /// The header row's line in the last frame (the frame's first line), in a grid.
    var gridHeaderY: Int?

    /// Creates an empty table; set `dataSource` to fill it.
    ///
    ///     let table = TableView(rowHeight: 1)   // one-line `.value1` cells
    public init(rowHeight: Int = TableCell.Style.subtitle.lineCount) {
        self.rowHeight = max(1, rowHeight)
        self.layout = TableLayout(rowHeight: max(1, rowHeight))
    }

    // MARK: Counts (as last loaded)

    /// Number of sections as of the last reload or batch.
    public var numberOfSections: Int {
        reloadIfNeeded()
        return layout.numberOfSections
    }

    /// Rows in `section` as of the last reload or batch (0 when out of range).
    public func numberOfRows(inSection section: Int) -> Int {
        reloadIfNeeded()
        return section >= 0 && section < layout.numberOfSections ? layout.rowCounts[section] : 0
    }

    /// Rows in all sections.
    public var totalNumberOfRows: Int {
        reloadIfNeeded()
        return layout.totalRows
    }

    /// The rows at least partly visible in the last rendered frame's geometry.
    public var indexPathsForVisibleRows: [IndexPath] {
        reloadIfNeeded()
        var result: [IndexPath] = []
        layout.forEachEntry(from: clampedOffset(scrollOffset), height: viewportHeight) { entry, _ in
            if case .row(let ip) = entry { result.append(ip) }
        }
        return result
    }

    // MARK: Loading

    /// Asks the data source again for everything, keeping the selection on the
    /// same object when the data source gives identities (`rowIdentity(at:)`),
    /// else on the same index path (clamped), and keeping the selected row at
    /// the same height on screen. Cancels a running animation and the Delete button.
    ///
    ///     books.years = loadYears()          // the data source's new data
    ///     table.reloadData()
    public func reloadData() {
        needsReload = false
        animation = nil
        pendingBatch = TableUpdateBatch()  // inside beginUpdates: the batch so far is moot
        cellCache.removeAll(keepingCapacity: true)
        editingIndexPath = nil
        guard let dataSource else {
            layout = TableLayout(rowHeight: rowHeight)
            selection = nil
            selectedIdentity = nil
            scrollOffset = 0
            return
        }
        let oldSelection = selection
        let oldScreenY = oldSelection.flatMap { layout.contains($0) ? layout.rowTop($0) - scrollOffset : nil }
        let oldSearchCenter = oldSelection.flatMap { layout.contains($0) ? layout.flatIndex(of: $0) : nil }
        layout = TableLayout(dataSource: dataSource, rowHeight: rowHeight)

        var newSelection: IndexPath?
        if let identity = selectedIdentity {
            if let ip = dataSource.indexPath(forRowIdentity: identity), layout.contains(ip) {
                newSelection = ip
            } else if let center = oldSearchCenter
                ?? oldSelection.flatMap({ layout.clamp($0) }).map({ layout.flatIndex(of: $0) })
            {
                newSelection = searchIdentity(identity, around: center, in: dataSource)
            }
        }
        if newSelection == nil, let oldSelection { newSelection = layout.clamp(oldSelection) }
        if newSelection == nil { newSelection = layout.firstIndexPath }
        selection = newSelection
        selectedIdentity = newSelection.flatMap { dataSource.rowIdentity(at: $0) }
        if let newSelection, let oldScreenY {
            scrollOffset = layout.rowTop(newSelection) - oldScreenY
        }
        scrollOffset = clampedOffset(scrollOffset)
        if let newSelection {
            if lastFrame == nil {
                pendingScrollToSelection = true
            } else {
                scrollToVisible(newSelection, margin: .none)
            }
        }
    }

    /// Looks for `identity` within a few rows of flat index `center` (a reload
    /// without `indexPath(forRowIdentity:)`: cheap, and right for small changes).
    private func searchIdentity(
        _ identity: AnyHashable,
        around center: Int,
        in dataSource: TableViewDataSource
    ) -> IndexPath? {
        let radius = 32
        for distance in 0...radius {
            for candidate in distance == 0 ? [center] : [center - distance, center + distance] {
                if let ip = layout.indexPath(atFlatIndex: candidate), dataSource.rowIdentity(at: ip) == identity {
                    return ip
                }
            }
        }
        return nil
    }

    func reloadIfNeeded() {
        if needsReload { reloadData() }
    }

    // MARK: Selection and scrolling

    /// Selects `indexPath` (clamped to an existing row; nil deselects) and
    /// scrolls it into view with the usual margin. Does not call the delegate.
    ///
    ///     table.selectRow(at: IndexPath(row: 0, section: 3))
    public func selectRow(at indexPath: IndexPath?) {
        reloadIfNeeded()
        guard let indexPath, let target = layout.clamp(indexPath) else {
            setSelection(nil)
            return
        }
        setSelection(target)
        if lastFrame == nil { pendingScrollToSelection = true } else { scrollToVisible(target, margin: .both) }
    }

    /// Scrolls so that `section`'s header is at the top (as far as the content
    /// allows) and selects its first row (or the next row after an empty section).
    public func scrollToSection(_ section: Int) {
        reloadIfNeeded()
        guard layout.numberOfSections > 0 else { return }
        let s = max(0, min(section, layout.numberOfSections - 1))
        let previous = selection
        setSelection(layout.firstRow(inOrAfter: s))
        setScrollOffset(layout.sectionTops[s])
        if let selection { scrollToVisible(selection, margin: .none) }
        if selection != previous { delegate?.selectionDidChange(to: selection) }
    }

    /// Whether a batch animation is still running (or about to start) at `time`:
    /// the run loop then ticks at ~30 fps instead of waiting for input.
    public func isAnimating(at time: Double) -> Bool {
        animation?.isRunning(at: time) ?? false
    }

    /// Ends a running animation at once (its final state is already the table's state).
    public func finishAnimations() {
        animation = nil
    }

    func setSelection(_ indexPath: IndexPath?) {
        selection = indexPath
        selectedIdentity = indexPath.flatMap { dataSource?.rowIdentity(at: $0) }
    }

    /// Changes the scroll offset; a real scroll ends a running animation (whose
    /// items were laid out for the old offset), so input is never held back by one.
    func setScrollOffset(_ offset: Int) {
        let clamped = clampedOffset(offset)
        if clamped != scrollOffset { animation = nil }
        scrollOffset = clamped
    }

    var viewportHeight: Int { max(1, lastFrame?.height ?? 24) }
    var stickyHeight: Int { layout.hasHeaders ? 1 : 0 }

    func clampedOffset(_ offset: Int) -> Int {
        max(0, min(offset, layout.contentHeight - viewportHeight))
    }

    enum ScrollMargin { case none, above, below, both }

    /// Scrolls the least amount that shows `indexPath` whole below the sticky
    /// header, with a margin of two rows on the requested side(s) (less in a
    /// small frame).
    func scrollToVisible(_ indexPath: IndexPath, margin: ScrollMargin) {
        guard layout.contains(indexPath) else { return }
        let height = viewportHeight
        let top = layout.rowTop(indexPath)
        let bottom = top + layout.rowHeight
        let margin0 = min(2 * layout.rowHeight, max(0, (height - stickyHeight - layout.rowHeight) / 2))
        let above = (margin == .above || margin == .both) ? margin0 : 0
        let below = (margin == .below || margin == .both) ? margin0 : 0
        var offset = scrollOffset
        if top - above - stickyHeight < offset { offset = top - above - stickyHeight }
        if bottom + below > offset + height { offset = bottom + below - height }
        setScrollOffset(offset)
    }
}
