import TerminalUI

/// The password form's field: a masked `SecretField` with the strength
/// estimate of what is typed beside it ("fair (about 10^7 guesses)").
///
///     let field = StrengthSecretField(text: "", userWords: { [nameField.value] })
///     form = Form(fields: [Form.Field(key: "password", label: "Password", control: field)])
final class StrengthSecretField: FormControl {
    let secret: SecretField
    /// Words of the entry (its name, user ID) that make a password weak.
    var userWords: () -> [String] = { [] }

    init(text: String, placeholder: String) {
        secret = SecretField(text: text, placeholder: placeholder)
    }

    /// The estimate of the current text, nil when it is empty.
    var strength: PasswordStrength? {
        secret.text.isEmpty ? nil : PasswordStrength(estimating: secret.text, userWords: userWords())
    }

    var value: String {
        get { secret.value }
        set { secret.value = newValue }
    }

    var isFocused: Bool {
        get { secret.isFocused }
        set { secret.isFocused = newValue }
    }

    var preferredHeight: Int { 1 }

    func handle(_ event: InputEvent) -> EventResult { secret.handle(event) }

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard let strength else {
            secret.render(into: &canvas, frame: frame, at: time)
            return
        }
        let text = strength.summary
        let width = min(frame.width / 2, text.count + 1)
        secret.render(
            into: &canvas,
            frame: Rect(x: frame.x, y: frame.y, width: frame.width - width, height: frame.height),
            at: time
        )
        canvas.put(
            text,
            x: frame.maxX - width + 1,
            y: frame.y,
            attributes: strength.score <= 1 ? .bold : .dim,
            maxWidth: width - 1
        )
    }
}
