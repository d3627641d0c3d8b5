import Foundation
import TestSupport

/// The browser's question after a delete that met another program's change ("“…” was changed
/// by another program — Delete it as it is now / Keep it"), answered as a person would. The
/// soak's random deletes open it; it is modal, and none of the soak's random keys closes it, so
/// every key after it goes to it until it is answered.
enum SoakConflictDialog {
    /// What the browser did with its questions while the test settled it.
    struct Answers {
        /// Questions answered "Delete it as it is now".
        var deletedNow = 0
        /// Questions answered "Keep it" (Esc); a question asked again after "Delete it as it is now"
        /// (another program changed the bank again) is kept as well, and not counted.
        var kept = 0
    }

    /// The help overlay's foot line: the help is open.
    static let helpFooter = "Press any key to close"

    /// Whether `screen` shows the question.
    static func isShown(in screen: String) -> Bool {
        screen.contains("Delete it as it is now") && screen.contains("Keep it")
    }

    /// Answers the browser's questions until every key sent before has been handled and no
    /// question is open; the first one `deletingNow` ("Delete it as it is now"), any after it
    /// "Keep it".
    ///
    /// The proof is `?`: the list opens the help, a question swallows the key. The help shown
    /// means every earlier key was handled and none left a question open (failedbanks opens one
    /// only on a key: its saves wait for locks instead of retrying later). A question shown is
    /// answered; it may be one already answered whose answer is not handled yet, so every answer
    /// after the first is Esc, which the list ignores and the help closes on. Returns when the
    /// help has closed.
    static func settle(_ tmux: TmuxSession, deletingNow: Bool, into answers: inout Answers) throws {
        var first = true
        for _ in 0..<20 {
            tmux.send("?")
            let screen = try tmux.waitUntil("the help, or the conflict question", timeout: 60) {
                isShown(in: $0) || $0.contains(helpFooter)
            }
            if !isShown(in: screen) {
                tmux.press("Escape")
                try tmux.waitUntil("the help to close", timeout: 60) { !$0.contains(helpFooter) }
                return
            }
            if first && deletingNow {
                // Nothing of the test's closes a question but its answers: this Enter is the question's.
                tmux.send("g", "Enter")
                answers.deletedNow += 1
            } else {
                tmux.press("Escape")
                if first { answers.kept += 1 }
            }
            first = false
        }
        throw EndToEndError("the browser still asks after 20 answers:\n\(tmux.capture())")
    }
}
