/// A multi-line text field (a note's body).
///
/// Enter inserts a line break; ↑/↓ move between lines keeping the column;
/// PgUp/PgDn move by a screenful; Backspace at the start of a line joins it
/// to the previous one, Delete (or Ctrl-K) at the end joins the next. Within a
/// line the keys are those of `TextField`. ↑ on the first line and ↓ on the
/// last are `.ignored`, so a `Form` moves the focus there; Tab is left to the
/// container too. Lines longer than the area scroll horizontally together.
///
///     let body = TextArea(text: "Buy milk\nCall the library")
///     _ = body.handle(.down)
///     _ = body.handle(.end)
///     _ = body.handle(.enter)
///     body.text                          // "Buy milk\nCall the library\n"
///     body.cursor                        // (line: 2, column: 0)
public final class TextArea: FormControl {
    private var lines: [[Character]]
    private var line = 0
    private var column = 0
    private var goalCell: Int?
    private var verticalScroll = 0
    private var horizontalScroll = 0
    private var lastHeight = 1

    /// Only the focused area draws the cursor. Default true.
    public var isFocused = true
    /// Rows the area wants in a form.
    public var preferredHeight: Int
    /// Shown dim while the text is empty.
    public var placeholder: String
    /// Drawn over the area's cells.
    public var fieldAttributes: CellAttributes = []
    /// Called after an edit with the new text (once per burst of input, such as a paste: see `InputBurst`).
    public var onChange: ((String) -> Void)?

    /// An area holding `text`, the cursor at its end.
    public init(text: String = "", placeholder: String = "", preferredHeight: Int = 5) {
        self.lines = []
        self.placeholder = placeholder
        self.preferredHeight = preferredHeight
        self.text = text
    }

    /// The text, lines joined by "\n". Setting it puts the cursor at the end.
    public var text: String {
        get { lines.map { String($0) }.joined(separator: "\n") }
        set {
            lines = newValue.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
            if lines.isEmpty { lines = [[]] }
            line = lines.count - 1
            column = lines[line].count
            goalCell = nil
        }
    }

    public var value: String {
        get { text }
        set { text = newValue }
    }

    /// The insertion point: line index and character index within the line.
    public var cursor: (line: Int, column: Int) { (line, column) }

    /// Lines in the text (at least 1).
    public var lineCount: Int { lines.count }

    public func handle(_ event: InputEvent) -> EventResult {
        switch event {
        case .enter:
            let tail = Array(lines[line][column...])
            lines[line].removeSubrange(column...)
            lines.insert(tail, at: line + 1)
            line += 1
            column = 0
            return edited()
        case .up:
            guard line > 0 else { return .ignored }
            moveVertically(to: line - 1)
            return .handled
        case .down:
            guard line < lines.count - 1 else { return .ignored }
            moveVertically(to: line + 1)
            return .handled
        case .pageUp:
            moveVertically(to: max(0, line - max(1, lastHeight - 1)))
            return .handled
        case .pageDown:
            moveVertically(to: min(lines.count - 1, line + max(1, lastHeight - 1)))
            return .handled
        case .backspace where column == 0 && line > 0:
            column = lines[line - 1].count
            lines[line - 1] += lines[line]
            lines.remove(at: line)
            line -= 1
            return edited()
        case .delete where column == lines[line].count && line < lines.count - 1,
            .control("k") where column == lines[line].count && line < lines.count - 1:
            lines[line] += lines[line + 1]
            lines.remove(at: line + 1)
            return edited()
        case .tab, .backTab, .escape:
            return .ignored
        default:
            var editor = LineEditor()
            editor.characters = lines[line]
            lines[line] = []  // the editor's copy is then the only one: edits in place, not O(line) per key
            editor.cursor = column
            let outcome = editor.handle(event)
            lines[line] = editor.characters
            column = editor.cursor
            switch outcome {
            case .ignored: return .ignored
            case .moved:
                goalCell = nil
                return .handled
            case .edited: return edited()
            }
        }
    }

    private func edited() -> EventResult {
        goalCell = nil
        if onChange != nil {
            InputBurst.coalesce(self) { [weak self] in
                guard let self else { return }
                self.onChange?(self.text)
            }
        }
        return .handled
    }

    private func cells(_ characters: ArraySlice<Character>) -> Int {
        characters.reduce(0) { $0 + DisplayWidth.of($1) }
    }

    /// Moves to `target` line at the column nearest the remembered goal cell.
    private func moveVertically(to target: Int) {
        let goal = goalCell ?? cells(lines[line][..<column])
        line = target
        var cell = 0
        var index = 0
        while index < lines[line].count {
            let w = DisplayWidth.of(lines[line][index])
            if cell + w > goal { break }
            cell += w
            index += 1
        }
        column = index
        goalCell = goal
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        lastHeight = frame.height
        for row in 0..<frame.height {
            canvas.fill(" ", x: frame.x, y: frame.y + row, width: frame.width, attributes: fieldAttributes)
        }
        if line < verticalScroll { verticalScroll = line }
        if line >= verticalScroll + frame.height { verticalScroll = line - frame.height + 1 }
        verticalScroll = max(0, min(verticalScroll, lines.count - frame.height))
        if lines.count == 1 && lines[0].isEmpty && !placeholder.isEmpty {
            canvas.put(
                placeholder,
                x: frame.x,
                y: frame.y,
                attributes: fieldAttributes.union(.dim),
                maxWidth: frame.width
            )
        }
        // The cursor's line decides the horizontal scroll; the others follow it.
        var cursorLine = LineEditor()
        cursorLine.characters = lines[line]
        cursorLine.cursor = column
        var scroll = horizontalScroll
        let cursorX = cursorLine.render(
            into: &canvas,
            x: frame.x,
            y: frame.y + line - verticalScroll,
            width: frame.width,
            scroll: &scroll,
            attributes: fieldAttributes
        )
        horizontalScroll = scroll
        for index in verticalScroll..<min(lines.count, verticalScroll + frame.height) where index != line {
            var other = LineEditor()
            other.characters = lines[index]
            other.cursor = 0
            var fixed = scroll
            other.render(
                into: &canvas,
                x: frame.x,
                y: frame.y + index - verticalScroll,
                width: frame.width,
                scroll: &fixed,
                attributes: fieldAttributes,
                followCursor: false
            )
        }
        if isFocused { canvas.cursor = (cursorX, frame.y + line - verticalScroll) }
    }
}
