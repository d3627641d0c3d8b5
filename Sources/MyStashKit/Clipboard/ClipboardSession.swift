/// One copied secret on the clipboard and its countdown: what the app's
/// status line shows (`Copied the password of “Bank” — cleared in 45 s`),
/// and the clearing when the time is up.
///
///     var session = ClipboardSession(clipboard: clipboard, seconds: 45)
///     session.copy(password, description: "the password of “Bank”", at: now)
///     session.statusText(at: now + 3)   // "Copied the password of “Bank” — cleared in 42 s"
///     session.tick(at: now + 45)         // clears; returns true
///     session.lastClearing?.message      // "Clipboard cleared"
package final class ClipboardSession {
    package let clipboard: Clipboard
    /// How long a copied secret stays (`--clip-seconds`).
    package let seconds: Double
    private var pending: (text: String, description: String, deadline: Double)?
    /// What the last clearing achieved (nil before any).
    package private(set) var lastClearing: ClipboardClearing?

    package init(clipboard: Clipboard, seconds: Double = 45) {
        self.clipboard = clipboard
        self.seconds = seconds
    }

    /// Whether a copied secret waits to be cleared.
    package var isPending: Bool { pending != nil }

    /// Copies `text` and starts the countdown (a previous secret is replaced).
    package func copy(_ text: String, description: String, at now: Double) {
        clipboard.copy(text)
        pending = (text, description, now + seconds)
    }

    /// The status line's text while a secret is on the clipboard.
    package func statusText(at now: Double) -> String? {
        guard let pending else { return nil }
        let left = max(0, Int((pending.deadline - now).rounded(.up)))
        return "Copied \(pending.description) — cleared in \(left) s"
    }

    /// Clears the clipboard when the time is up; true when it did.
    @discardableResult
    package func tick(at now: Double) -> Bool {
        guard let pending, now >= pending.deadline else { return false }
        lastClearing = clipboard.clear(ifStillHolding: pending.text)
        self.pending = nil
        return true
    }

    /// Clears now (quitting, locking).
    package func clearNow() {
        guard let pending else { return }
        lastClearing = clipboard.clear(ifStillHolding: pending.text)
        self.pending = nil
    }
}
