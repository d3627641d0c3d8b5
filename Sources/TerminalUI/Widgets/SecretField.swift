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

    /// Characters a secret field keeps room for from the start (see ``wipe()``).
    static let reservedCharacters = 256

    /// A masked field holding `text`.
    public init(text: String = "", placeholder: String = "") {
        field = TextField(text: text, placeholder: placeholder)
        field.mask = SecretField.maskCharacter
        field.reserveCapacity(max(SecretField.reservedCharacters, text.count))
    }

    /// The secret in clear (it is only drawn when revealed). Setting it overwrites the old text first.
    public var text: String {
        get { field.text }
        set { replaceText(newValue) }
    }

    public var value: String {
        get { field.text }
        set { replaceText(newValue) }
    }

    /// Overwrites the secret where it is stored and empties the field.
    ///
    /// Typed characters stay in one buffer (room for 256 characters is kept), which
    /// this overwrites; a Swift `String` read from ``text`` is a copy that cannot be wiped,
    /// so read the secret with ``withUTF8(_:)`` instead where it matters.
    ///
    ///     let passphrase = field.withUTF8 { SecureBytes(copying: $0) }
    ///     field.wipe()
    public func wipe() { field.wipe() }

    /// Calls `body` with the secret's UTF-8 bytes, in a buffer zeroed afterwards (no `String` copy is made).
    public func withUTF8<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try field.editor.withUTF8(body)
    }

    private func replaceText(_ newValue: String) {
        field.wipe()
        field.editor.insert(contentsOf: newValue)
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
