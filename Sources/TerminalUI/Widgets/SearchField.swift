/// The `/` search line at the bottom of a screen.
///
/// The app activates it on `/`; while active it takes every key (it is modal).
/// Each edit calls `onChange` with the text (incremental search); Enter calls
/// `onCommit` and closes, keeping the match (then `n`/`N`, handled by the app,
/// go to the next/previous match); Esc, or Backspace on an empty field, calls
/// `onCancel` and closes with the text cleared. Closing returns `.dismiss`,
/// so the field can be pushed on the run loop as an overlay, or embedded in a
/// screen that forwards keys while `isActive`.
///
///     let search = SearchField()
///     search.onChange = { text in matches = books.indexPaths(matching: text) }   // the app's search
///     search.onCommit = { text in lastSearch = text }
///     // on "/":
///     search.activate()
///     loop.push(search)
///     // the app updates the count it shows on the right:
///     search.trailingText = "3 of 17"
public final class SearchField: EntryBar {
    /// An inactive field; `prompt` is drawn before the text.
    public override init(prompt: String = "/") { super.init(prompt: prompt) }

    /// Opens the field with `text` (e.g. the previous search), the cursor at its end and no trailing text.
    public override func activate(text: String = "") {
        super.activate(text: text)
        trailingText = nil
    }
}
