/// A centred box asking for one line of text: a name, or a passphrase with
/// masked input.
///
/// Editing keys are those of `TextField`. Enter calls `onSubmit`; it returns
/// true to close the dialog (`.dismiss`) or false to keep it open, usually
/// after setting `errorMessage` ("Wrong passphrase"). Esc calls `onCancel`
/// and closes.
///
///     let unlock = PromptDialog(title: "mystash", message: "Master passphrase:", isSecure: true)
///     unlock.onSubmit = { passphrase in
///         guard let vault = try? Vault(passphrase: passphrase) else {
///             unlock.errorMessage = "Wrong passphrase"; return false
///         }
///         loop.setRoot(StashScreen(vault: vault)); return true
///     }
///     unlock.onCancel = { loop.quit() }
///     loop.push(unlock)
public final class PromptDialog: View {
    /// In the top edge of the box.
    public var title: String?
    /// The question above the field.
    public var message: String
    /// Shown under the field in the destructive colour; cleared by the next edit.
    public var errorMessage: String?
    /// Whether the answer is masked with •.
    public let isSecure: Bool
    /// Enter: receives the text; return true to close, false to stay open.
    public var onSubmit: ((String) -> Bool)?
    /// Esc: the dialog closes after this.
    public var onCancel: (() -> Void)?
    let field: TextField
    private let secret: SecretField?

    /// A prompt, optionally pre-filled with `text`.
    public init(
        title: String? = nil,
        message: String,
        text: String = "",
        placeholder: String = "",
        isSecure: Bool = false
    ) {
        self.title = title
        self.message = message
        self.isSecure = isSecure
        if isSecure {
            let secret = SecretField(text: text, placeholder: placeholder)
            secret.allowsReveal = false
            self.secret = secret
            self.field = secret.field
        } else {
            self.secret = nil
            self.field = TextField(text: text, placeholder: placeholder)
        }
    }

    /// The text typed so far.
    public var text: String {
        get { field.text }
        set { field.text = newValue }
    }

    /// Let Ctrl-R show a secure answer in clear (default false).
    public var allowsReveal: Bool {
        get { secret?.allowsReveal ?? false }
        set { secret?.allowsReveal = newValue }
    }

    public var isOpaque: Bool { false }

    public func handle(_ event: InputEvent) -> EventResult {
        switch event {
        case .enter:
            let close = onSubmit?(field.text) ?? true
            return close ? .dismiss : .handled
        case .escape:
            onCancel?()
            return .dismiss
        default:
            let before = field.text
            _ = secret?.handle(event) ?? field.handle(event)
            if field.text != before { errorMessage = nil }
            return .handled  // modal
        }
    }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        let boxWidth = min(frame.width, max(40, min(60, DisplayWidth.of(message) + 4)))
        let inner = max(1, boxWidth - 4)
        let lines = TextWrap.lines(message, width: inner)
        let box = frame.centered(width: boxWidth, height: lines.count + 7)
        guard box.width >= 4, box.height >= 3 else { return }
        Box.draw(into: &canvas, frame: box, title: title)
        let inside = Box.content(of: box)
        var y = inside.y + 1
        for line in lines where y < inside.maxY {
            canvas.put(line, x: inside.x, y: y, maxWidth: inside.width)
            y += 1
        }
        if y < inside.maxY {
            let fieldFrame = Rect(x: inside.x, y: y, width: inside.width, height: 1)
            if let secret {
                secret.render(into: &canvas, frame: fieldFrame, at: time)
            } else {
                field.render(into: &canvas, frame: fieldFrame, at: time)
            }
        }
        if let errorMessage, y + 1 < inside.maxY {
            canvas.put(errorMessage, x: inside.x, y: y + 1, attributes: [.bold, .destructive], maxWidth: inside.width)
        }
        canvas.put("Enter OK · Esc cancel", x: inside.x, y: inside.maxY - 1, attributes: .dim, maxWidth: inside.width)
    }
}
