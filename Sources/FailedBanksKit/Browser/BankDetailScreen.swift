import SQLiteStore
import TerminalUI

/// The detail screen of one bank: name, city, state, cert, acquiring
/// institution, closing date written out ("Friday, 26 April 2024"), updated
/// date and fund. Esc, ← or Backspace go back.
///
/// It reads the bank each time it draws, so a change made meanwhile by
/// another process (which refreshes the object) shows at once, and a bank
/// deleted meanwhile says so.
///
///     loop.push(BankDetailScreen(bank: controller.object(at: indexPath)))
package final class BankDetailScreen: View {
    /// The bank shown.
    package let bank: ManagedObject
    let navigationBar = NavigationBar(title: "", backTitle: "Banks")
    let detailView = DetailView(rows: [])
    let statusLine = StatusLine(hints: "Esc/← back   ↑/↓ scroll   q quit")

    /// A detail screen for `bank` (a `FailedBankInfo`).
    package init(bank: ManagedObject) {
        self.bank = bank
    }

    /// The label/value rows shown for `bank`.
    package static func rows(for bank: ManagedObject) -> [DetailView.Row] {
        func text(_ keyPath: String) -> String {
            switch bank.value(forKeyPath: keyPath) {
            case .null: return "—"
            case .text(let s): return s.isEmpty ? "—" : s
            case .integer(let i): return String(i)
            case .real(let d): return String(d)
            case .blob(let b): return "\(b.count) bytes"
            }
        }
        func date(_ keyPath: String) -> String {
            guard let raw = bank.value(forKeyPath: keyPath).string else { return "—" }
            return LongDate.text(fromStoreDate: raw) ?? raw
        }
        return [
            .init(label: "Name", value: text("name")),
            .init(label: "City", value: text("city")),
            .init(label: "State", value: text("state")),
            .init(label: "Cert", value: text("details.cert")),
            .init(label: "Acquiring institution", value: text("details.acquiringInstitution")),
            .init(label: "Closing date", value: date("details.closeDate")),
            .init(label: "Updated", value: date("details.updatedDate")),
            .init(label: "Fund", value: text("details.fund")),
        ]
    }

    /// Navigation bar with the bank's name and "‹ Banks", the rows, a key hint.
    package func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        if bank.isDeleted {
            navigationBar.title = "Deleted"
            detailView.rows = [.init(label: "", value: "This bank was deleted (by you or by another program).")]
        } else {
            navigationBar.title = bank.string("name") ?? "Bank"
            let rows = BankDetailScreen.rows(for: bank)
            if rows != detailView.rows { detailView.rows = rows }
        }
        navigationBar.render(into: &canvas, frame: frame.row(0), at: time)
        detailView.render(into: &canvas, frame: frame.inset(top: 2, left: 1, bottom: 1, right: 1), at: time)
        statusLine.render(into: &canvas, frame: frame.row(frame.height - 1), at: time)
    }

    /// Esc, ←, Backspace or `h` go back; ↑/↓ and paging scroll long values.
    package func handle(_ event: InputEvent) -> EventResult {
        switch event {
        case .escape, .left, .backspace, .character("h"):
            return .dismiss
        default:
            return detailView.handle(event)
        }
    }
}
