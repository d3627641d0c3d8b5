import Foundation

/// The vertical geometry of a table: section tops and row counts as prefix sums.
///
/// Built from the data source in O(sections) (counts and header titles only);
/// every question about a line or a row is a binary search over sections, so
/// the cost of a frame does not depend on the number of rows.
struct TableLayout {
    /// What occupies a content line.
    enum Entry: Hashable {
        case header(Int)
        case row(IndexPath)
    }

    private(set) var rowHeight: Int
    private(set) var rowCounts: [Int] = []
    private(set) var headerTitles: [String?] = []
    /// `sectionTops[s]` is the first content line of section `s` (its header, if
    /// it has one); the last element is the content height.
    private(set) var sectionTops: [Int] = [0]
    /// `rowStarts[s]` is the flat index of the first row of section `s`; the last
    /// element is the number of rows.
    private(set) var rowStarts: [Int] = [0]
    private(set) var indexTitles: [String] = []
    private(set) var hasHeaders = false
    /// Widest index title, in cells.
    private(set) var indexTitleWidth = 0

    init(rowHeight: Int) {
        self.rowHeight = max(1, rowHeight)
    }

    init(dataSource: TableViewDataSource, rowHeight: Int) {
        self.rowHeight = max(1, rowHeight)
        let count = max(0, dataSource.numberOfSections)
        rowCounts.reserveCapacity(count)
        headerTitles.reserveCapacity(count)
        sectionTops.reserveCapacity(count + 1)
        rowStarts.reserveCapacity(count + 1)
        var line = 0
        var rows = 0
        for section in 0..<count {
            let n = max(0, dataSource.numberOfRows(inSection: section))
            let title = dataSource.titleForHeader(inSection: section)
            rowCounts.append(n)
            headerTitles.append(title)
            if title != nil { hasHeaders = true }
            line += (title == nil ? 0 : 1) + n * self.rowHeight
            rows += n
            sectionTops.append(line)
            rowStarts.append(rows)
        }
        indexTitles = dataSource.sectionIndexTitles()
        indexTitleWidth = indexTitles.reduce(0) { max($0, DisplayWidth.of($1)) }
    }

    var numberOfSections: Int { rowCounts.count }
    var contentHeight: Int { sectionTops[sectionTops.count - 1] }
    var totalRows: Int { rowStarts[rowStarts.count - 1] }

    func headerHeight(_ section: Int) -> Int { headerTitles[section] == nil ? 0 : 1 }

    func height(of entry: Entry) -> Int {
        switch entry {
        case .header: return 1
        case .row: return rowHeight
        }
    }

    func top(of entry: Entry) -> Int {
        switch entry {
        case .header(let s): return sectionTops[s]
        case .row(let ip): return rowTop(ip)
        }
    }

    func rowTop(_ indexPath: IndexPath) -> Int {
        sectionTops[indexPath.section] + headerHeight(indexPath.section) + indexPath.row * rowHeight
    }

    func contains(_ indexPath: IndexPath) -> Bool {
        indexPath.count == 2 && indexPath.section >= 0 && indexPath.section < rowCounts.count
            && indexPath.row >= 0 && indexPath.row < rowCounts[indexPath.section]
    }

    /// The largest `i` with `array[i] <= value` (`array` non-decreasing, `array[0] <= value`).
    private static func lastIndex(in array: [Int], notAbove value: Int) -> Int {
        var low = 0
        var high = array.count  // first index with array[i] > value is in low...high
        while low < high {
            let mid = (low + high) / 2
            if array[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low - 1
    }

    /// The section that holds content line `line`, or nil outside the content.
    func section(atLine line: Int) -> Int? {
        guard line >= 0, line < contentHeight else { return nil }
        return Self.lastIndex(in: sectionTops, notAbove: line)
    }

    /// The header or row that covers content line `line`, and its first line.
    func entry(atLine line: Int) -> (entry: Entry, top: Int)? {
        guard let s = section(atLine: line) else { return nil }
        let local = line - sectionTops[s]
        let header = headerHeight(s)
        if local < header { return (.header(s), sectionTops[s]) }
        let row = (local - header) / rowHeight
        return (.row(IndexPath(row: row, section: s)), sectionTops[s] + header + row * rowHeight)
    }

    /// The row covering `line`, or for a header line the section's first row
    /// (or the next row after it when the section is empty).
    func indexPath(nearLine line: Int) -> IndexPath? {
        guard totalRows > 0 else { return nil }
        let clamped = max(0, min(line, contentHeight - 1))
        guard let (entry, _) = entry(atLine: clamped) else { return nil }
        switch entry {
        case .row(let ip): return ip
        case .header(let s): return indexPath(atFlatIndex: min(rowStarts[s], totalRows - 1))
        }
    }

    func flatIndex(of indexPath: IndexPath) -> Int {
        rowStarts[indexPath.section] + indexPath.row
    }

    func indexPath(atFlatIndex index: Int) -> IndexPath? {
        guard index >= 0, index < totalRows else { return nil }
        let s = Self.lastIndex(in: rowStarts, notAbove: index)
        return IndexPath(row: index - rowStarts[s], section: s)
    }

    var firstIndexPath: IndexPath? { indexPath(atFlatIndex: 0) }
    var lastIndexPath: IndexPath? { indexPath(atFlatIndex: totalRows - 1) }

    /// The first row of `section`, or of the next non-empty section after it,
    /// or the last row before it.
    func firstRow(inOrAfter section: Int) -> IndexPath? {
        guard totalRows > 0, !rowCounts.isEmpty else { return nil }
        let s = max(0, min(section, numberOfSections - 1))
        return indexPath(atFlatIndex: min(rowStarts[s], totalRows - 1))
    }

    /// `indexPath` if it exists, else the nearest row that does (same section
    /// clamped, then following sections, then preceding ones).
    func clamp(_ indexPath: IndexPath) -> IndexPath? {
        guard totalRows > 0 else { return nil }
        if contains(indexPath) { return indexPath }
        let s = max(0, min(indexPath.section, numberOfSections - 1))
        if rowCounts[s] > 0 { return IndexPath(row: max(0, min(indexPath.row, rowCounts[s] - 1)), section: s) }
        return firstRow(inOrAfter: s)
    }
}

extension TableLayout {
    /// Calls `body` for each header and row that intersects the content lines
    /// `offset ..< offset + height`, top to bottom, with its first content line.
    func forEachEntry(from offset: Int, height: Int, _ body: (Entry, Int) -> Void) {
        var line = max(0, offset)
        let end = offset + height
        while line < end, let (entry, top) = entry(atLine: line) {
            body(entry, top)
            line = top + self.height(of: entry)
        }
    }
}
