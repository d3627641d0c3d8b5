/// A single-line field for passwords: every character shows as `•` until the
/// reveal toggle (Ctrl-R, when `allowsReveal`) shows the text.
///
/// Editing keys are those of `TextField`. The text lives only in memory; it
/// is never drawn unless revealed.
///
///     let password = SecretField(text: stored.password)
///     password.allowsReveal = true
///     _ = password.handle(.control("r"))   // now shown in clear
///     password.isRevealed                  // true
public final class SecretField: FormControl {
    let field: TextField

    /// Whether Ctrl-R may show the text. Default true.
    public var allowsReveal = true
    /// True while the text is shown in clear.
    public private(set) var isRevealed = false {
        didSet { field.mask = isRevealed ? nil : SecretField.maskCharacter }
    }
    static let maskCharacter: Character = "•"

    /// A masked field holding `text`.
    public init(text: String = "", placeholder: String = "") {
        field = TextField(text: text, placeholder: placeholder)
        field.mask = SecretField.maskCharacter
    }

    /// The secret in clear (it is only drawn when revealed).
    public var text: String {
        get { field.text }
        set { field.text = newValue }
    }

    public var value: String {
        get { field.text }
        set { field.text = newValue }
    }

    /// The insertion point, in characters.
    public var cursorIndex: Int {
        get { field.cursorIndex }
        set { field.cursorIndex = newValue }
    }

    public var isFocused: Bool {
        get { field.isFocused }
        set { field.isFocused = newValue }
    }

    public var preferredHeight: Int { 1 }

    /// Called after an edit (once per burst of input, such as a paste: see `InputBurst`).
    public var onChange: ((String) -> Void)? {
        get { field.onChange }
        set { field.onChange = newValue }
    }

    /// Called on Enter; when nil, Enter is left to the container.
    public var onSubmit: ((String) -> Void)? {
        get { field.onSubmit }
        set { field.onSubmit = newValue }
    }

    /// Shows or masks the text (what Ctrl-R does).
    public func toggleReveal() {
        guard allowsReveal || isRevealed else { return }
        isRevealed.toggle()
    }

    public func handle(_ event: InputEvent) -> EventResult {
        if event == .control("r") {
            toggleReveal()
            return .handled
        }
        return field.handle(event)
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        field.render(into: &canvas, frame: frame, at: time)
    }
}
