/// A single-line text field with the usual editing keys.
///
/// Keys: characters insert at the cursor; Backspace and Delete; ←/→;
/// Home/End or Ctrl-A/Ctrl-E; Ctrl-U deletes to the start, Ctrl-K to the end,
/// Ctrl-W the word before the cursor. Text wider than the field scrolls
/// horizontally to keep the cursor in view; wide characters (CJK, emoji) take
/// two cells and are never split. Enter calls `onSubmit` when one is set
/// (otherwise Enter is left to the container, e.g. a `Form` moves on).
///
/// It draws on the first row of its frame, underlined so the field's extent
/// shows, and puts the terminal cursor at the insertion point when focused.
///
///     let field = TextField(text: "", placeholder: "Book name")
///     field.onChange = { text in query = text }
///     _ = field.handle(.character("S"))
///     field.render(into: &canvas, frame: Rect(x: 10, y: 3, width: 30, height: 1), at: now)
///     field.text          // "S"
///     field.cursorIndex   // 1
public final class TextField: FormControl {
    var editor: LineEditor
    /// First visible cell (horizontal scroll), kept by `render`.
    public private(set) var scrollOffset = 0

    /// Shown dim while the text is empty.
    public var placeholder: String
    /// Only the focused field draws the cursor. Default true.
    public var isFocused = true
    /// Longest text accepted, in characters (nil: unlimited).
    public var maximumLength: Int?
    /// Drawn over the field's cells (default underline, so the field's width shows).
    public var fieldAttributes: CellAttributes = .underline
    /// Called after an edit with the new text: at once, or — while the run loop
    /// delivers a burst of input, such as a paste — once at the end of the burst.
    public var onChange: ((String) -> Void)?
    /// Called on Enter with the text; when nil, Enter is `.ignored`.
    public var onSubmit: ((String) -> Void)?
    /// When set, every character is drawn as this one (for secrets).
    var mask: Character?

    /// A field holding `text`, the cursor at its end.
    public init(text: String = "", placeholder: String = "") {
        self.editor = LineEditor(text)
        self.placeholder = placeholder
    }

    /// The text. Setting it puts the cursor at the end (and does not call `onChange`).
    public var text: String {
        get { editor.text }
        set { editor = LineEditor(newValue) }
    }

    /// Overwrites the text where it is stored and empties the field (for secrets: setting `text`
    /// releases the old storage as it was). Does not call `onChange`.
    public func wipe() {
        editor.wipe()
        scrollOffset = 0
    }

    /// Keeps room for `count` characters, so that typing does not move a secret's first
    /// characters to a bigger buffer and leave them behind in the old one.
    func reserveCapacity(_ count: Int) {
        editor.characters.reserveCapacity(count)
    }

    /// The insertion point, in characters from the start (0...text.count).
    public var cursorIndex: Int {
        get { editor.cursor }
        set { editor.cursor = max(0, min(editor.characters.count, newValue)) }
    }

    public var value: String {
        get { text }
        set { text = newValue }
    }

    public var preferredHeight: Int { 1 }

    public func handle(_ event: InputEvent) -> EventResult {
        if event == .enter {
            guard let onSubmit else { return .ignored }
            onSubmit(text)
            return .handled
        }
        // Refused before editing: keeping a copy to restore would make every key
        // copy the whole text (quadratic for a paste).
        if case .character(let character) = event, let maximumLength,
            editor.characters.count >= maximumLength, !editor.joinsCluster(before: character)
        {
            return .handled
        }
        switch editor.handle(event) {
        case .ignored:
            return .ignored
        case .moved:
            return .handled
        case .edited:
            textDidChange()
            return .handled
        }
    }

    /// `onChange` with the text, once per burst of input (see `InputBurst`).
    private func textDidChange() {
        guard onChange != nil else { return }
        InputBurst.coalesce(self) { [weak self] in
            guard let self else { return }
            self.onChange?(self.text)
        }
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        let y = frame.y
        canvas.fill(" ", x: frame.x, y: y, width: frame.width, attributes: fieldAttributes)
        if editor.characters.isEmpty && !placeholder.isEmpty {
            canvas.put(placeholder, x: frame.x, y: y, attributes: fieldAttributes.union(.dim), maxWidth: frame.width)
        }
        var scroll = scrollOffset
        let cursorX = editor.render(
            into: &canvas,
            x: frame.x,
            y: y,
            width: frame.width,
            scroll: &scroll,
            mask: mask,
            attributes: fieldAttributes
        )
        scrollOffset = scroll
        if isFocused { canvas.cursor = (cursorX, y) }
    }
}
