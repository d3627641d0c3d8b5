/// A field a `Form` can hold: it edits a string value, knows whether it has
/// the focus (then it shows the cursor), and says how many rows it wants.
///
/// `TextField`, `SecretField` and `TextArea` conform.
///
///     let control: any FormControl = TextField(text: "Dune Messiah")
///     control.isFocused = true
///     _ = control.handle(.character("!"))
///     control.value   // "Dune Messiah!"
public protocol FormControl: View {
    /// The text being edited.
    var value: String { get set }
    /// Only the focused control draws the cursor.
    var isFocused: Bool { get set }
    /// Rows the control would like (1 for single-line fields).
    var preferredHeight: Int { get }
}
