import CLIKit
import TerminalUI

/// What a locked app shows: the unlock prompt and nothing else (no names).
///
/// The key was wiped when it was pushed; the right passphrase unlocks the
/// stash again and `onUnlock` removes this view, so the person returns to
/// where they were. A wrong one says so and asks again.
///
///     let lock = LockView(stash: stash)
///     lock.onUnlock = { loop.remove(lock) }
///     loop.push(lock)
final class LockView: View {
    let stash: Stash
    let field = SecretField(placeholder: "")
    var onUnlock: (() -> Void)?
    private(set) var problem: String?

    init(stash: Stash) {
        self.stash = stash
        field.allowsReveal = false
    }

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        let middle = frame.y + frame.height / 2
        let left = frame.x + 2
        canvas.put("MyStash is locked", x: left, y: middle - 2, attributes: .bold, maxWidth: frame.width - 4)
        let label = "Master passphrase: "
        canvas.put(label, x: left, y: middle, maxWidth: frame.width - 4)
        let start = left + label.count
        field.render(
            into: &canvas,
            frame: Rect(x: start, y: middle, width: max(1, min(40, frame.maxX - start - 2)), height: 1),
            at: time
        )
        if let problem { canvas.put(problem, x: left, y: middle + 2, attributes: .bold, maxWidth: frame.width - 4) }
    }

    func handle(_ event: InputEvent) -> EventResult {
        if event == .enter {
            // Straight from the field's characters into guarded memory, then the field wiped:
            // no `String` of the passphrase is made, none is left in the heap.
            let typed = field.withUTF8 { SecureBytes(copying: $0) }
            field.wipe()
            defer { typed.wipe() }
            do {
                try stash.unlock(passphrase: typed)
                problem = nil
                onUnlock?()
            } catch VaultError.wrongPassphrase {
                problem = "Wrong passphrase"
            } catch {
                problem = "Cannot unlock: \(ErrorReason.text(of: error))"
            }
            return .handled
        }
        _ = field.handle(event)
        return .handled  // nothing reaches the views beneath while locked
    }
}
