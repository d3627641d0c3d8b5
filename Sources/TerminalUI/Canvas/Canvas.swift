/// Text attributes of one cell, independent of any terminal library.
///
/// The in-memory screen keeps them for golden tests; the ncurses backend maps
/// them to `A_BOLD`, `A_DIM`, `A_REVERSE`, … and colour pairs.
///
///     var attrs: CellAttributes = [.bold, .reverse]
public struct CellAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Bold text.
    public static let bold = CellAttributes(rawValue: 1 << 0)
    /// Dim text (detail lines, hints).
    public static let dim = CellAttributes(rawValue: 1 << 1)
    /// Reverse video (the selection).
    public static let reverse = CellAttributes(rawValue: 1 << 2)
    /// Underlined text.
    public static let underline = CellAttributes(rawValue: 1 << 3)
    /// Accent colour (headers, index sidebar); ignored under `NO_COLOR`.
    public static let accent = CellAttributes(rawValue: 1 << 4)
    /// Destructive colour (the inline Delete button); ignored under `NO_COLOR`.
    public static let destructive = CellAttributes(rawValue: 1 << 5)
}

/// One character cell of a `Canvas`.
///
/// `text` is one whole grapheme cluster as `CellText` shows it (a letter with
/// its accents, an emoji ZWJ sequence, a control's placeholder). A wide one
/// (CJK, emoji, a flag) occupies its cell and marks the next one as a
/// continuation (`isContinuation == true`, empty text) so nothing can be
/// drawn into its right half.
public struct Cell: Hashable, Sendable {
    /// The character shown (one grapheme; empty for a continuation cell).
    public var text: String
    /// How it is drawn.
    public var attributes: CellAttributes
    /// True for the right half of a wide character.
    public var isContinuation: Bool

    /// A cell; the default is a plain space.
    public init(text: String = " ", attributes: CellAttributes = [], isContinuation: Bool = false) {
        self.text = text
        self.attributes = attributes
        self.isContinuation = isContinuation
    }

    /// A plain space.
    public static let blank = Cell()
}

/// A grid of cells that widgets render into; the screen backends copy it out.
///
/// Rendering is a function of state: views write here and never call the
/// terminal, so a golden test is `render` plus `canvas.text`.
///
///     var canvas = Canvas(width: 80, height: 24)
///     canvas.put("Books", x: 0, y: 0, attributes: .bold)
///     print(canvas.text)
public struct Canvas: Sendable {
    /// Columns.
    public private(set) var width: Int
    /// Lines.
    public private(set) var height: Int
    /// The cells, row by row (`y * width + x`).
    public private(set) var cells: [Cell]
    /// Where the terminal cursor should be left (for text fields), if anywhere.
    public var cursor: (x: Int, y: Int)?

    /// A blank canvas of `width`×`height` cells.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// Blanks every cell (the `erase` of a frame; never a terminal `clear`).
    public mutating func erase() {
        for i in cells.indices { cells[i] = .blank }
        cursor = nil
    }

    /// Resizes the grid, blanking it.
    public mutating func resize(width: Int, height: Int) {
        self = Canvas(width: width, height: height)
    }

    /// The cell at column `x`, line `y` (both in range).
    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Writes `string` starting at column `x` of row `y`, clipped to `maxWidth`
    /// cells (and the canvas edge), truncating with `…` when it does not fit.
    /// Returns the number of cells written.
    ///
    /// Each cell holds one whole grapheme cluster as `CellText` shows it: an
    /// emoji ZWJ sequence or a letter with its accents is never split, not
    /// even by the truncation (a wide character that would be cut by the limit
    /// is not drawn), and control characters appear as visible placeholders.
    @discardableResult
    public mutating func put(
        _ string: String,
        x: Int,
        y: Int,
        attributes: CellAttributes = [],
        maxWidth: Int? = nil,
        truncate: Bool = true
    ) -> Int {
        guard y >= 0, y < height, x < width else { return 0 }
        let limit = min(maxWidth ?? (width - x), width - x)
        guard limit > 0 else { return 0 }
        let total = DisplayWidth.of(string)
        let needsEllipsis = truncate && total > limit
        let budget = needsEllipsis ? limit - 1 : limit
        var column = x
        for character in string {
            let (text, w) = CellText.visible(character)
            if w == 0 { continue }  // an invisible format character: no cell
            if column - x + w > budget { break }
            if column >= 0 {
                self[column, y] = Cell(text: text, attributes: attributes)
                if w == 2 { self[column + 1, y] = Cell(text: "", attributes: attributes, isContinuation: true) }
            } else if column + w > 0 {
                // The right half of a wide character cut by the left edge: a blank.
                self[0, y] = Cell(text: " ", attributes: attributes)
            }
            column += w
        }
        if needsEllipsis && column < width {
            self[column, y] = Cell(text: "…", attributes: attributes)
            column += 1
        }
        return column - x
    }

    /// Fills `width` cells of row `y` from column `x` with `character`
    /// (a one-cell character; a control character fills with its placeholder).
    public mutating func fill(
        _ character: Character = " ",
        x: Int,
        y: Int,
        width count: Int,
        attributes: CellAttributes = []
    ) {
        guard y >= 0, y < height else { return }
        let start = max(0, x)
        let end = min(width, x + count)
        guard start < end else { return }
        let shown = CellText.visible(character)
        let text = shown.width == 1 ? shown.text : " "
        for column in start..<end { self[column, y] = Cell(text: text, attributes: attributes) }
    }

    /// Adds attributes to `count` cells of row `y` (e.g. reverse video for a selection).
    public mutating func addAttributes(_ attributes: CellAttributes, x: Int, y: Int, width count: Int) {
        guard y >= 0, y < height else { return }
        let start = max(0, x)
        let end = min(width, x + count)
        guard start < end else { return }
        for column in start..<end { self[column, y].attributes.formUnion(attributes) }
    }

    /// The visible text, one line per row, trailing spaces trimmed: what golden files hold.
    public var text: String {
        var lines: [String] = []
        lines.reserveCapacity(height)
        for y in 0..<height {
            var line = ""
            for x in 0..<width {
                let cell = self[x, y]
                if !cell.isContinuation { line += cell.text }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// A rectangle of canvas cells: where a view draws (its frame).
///
/// Added for the table view (`render(into:frame:at:)`); widgets share it.
///
///     let frame = Rect(x: 0, y: 1, width: canvas.width, height: canvas.height - 2)
///     if frame.contains(x: 3, y: 4) { … }
public struct Rect: Hashable, Sendable {
    /// The left-most column.
    public var x: Int
    /// The top line.
    public var y: Int
    /// Columns (never negative).
    public var width: Int
    /// Lines (never negative).
    public var height: Int

    /// A rectangle; a negative size becomes 0.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// One past the right-most column.
    public var maxX: Int { x + width }
    /// One past the bottom row.
    public var maxY: Int { y + height }
    /// True when it has no cells.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether the cell at (`px`, `py`) is inside.
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }

    /// The part of this rectangle that is also inside `other`.
    public func intersection(_ other: Rect) -> Rect {
        let nx = max(x, other.x)
        let ny = max(y, other.y)
        return Rect(x: nx, y: ny, width: min(maxX, other.maxX) - nx, height: min(maxY, other.maxY) - ny)
    }
}

extension Canvas {
    /// The whole canvas as a rectangle.
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }
}
