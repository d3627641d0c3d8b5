import FetchedResultsScripts
import FetchedResultsUI
import SQLiteStore

/// The detail screen of one bank, an ``ObjectDetailScreen``: name, city, state, cert, acquiring
/// institution, closing date written out ("Friday, 26 April 2024"), updated date and fund,
/// "‹ Banks" to go back. It reads the bank each time it draws, so a change made meanwhile by
/// another process shows at once, and a bank deleted meanwhile says so.
///
///     loop.push(BankDetail.screen(for: controller.object(at: indexPath)))
enum BankDetail {
    /// The keys shown, top to bottom, and their labels.
    static let rows: [(key: String, label: String)] = [
        (FailedBankInfo.Columns.name.stringValue, "Name"), (FailedBankInfo.Columns.city.stringValue, "City"),
        (FailedBankInfo.Columns.state.stringValue, "State"), (FailedBankInfo.details(.cert), "Cert"),
        (FailedBankInfo.details(.acquiringInstitution), "Acquiring institution"),
        (FailedBankInfo.details(.closeDate), "Closing date"), (FailedBankInfo.details(.updatedDate), "Updated"),
        (FailedBankInfo.details(.fund), "Fund"),
    ]

    /// The screen of `bank` (a `FailedBankInfo`).
    static func screen(for bank: ManagedObject) -> ObjectDetailScreen {
        ObjectDetailScreen(
            object: bank,
            keys: rows.map(\.key),
            labels: Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0.label) }),
            titleKey: FailedBankInfo.Columns.name.stringValue,
            backTitle: "Banks",
            noun: "bank",
            valueText: valueText
        )
    }

    /// A value as the screen shows it: dates written out, the rest as ``DisplayText`` writes it.
    static func valueText(_ bank: ManagedObject, _ keyPath: String) -> String {
        let value = bank.value(forKeyPath: keyPath)
        guard keyPath.hasSuffix("Date"), let raw = value.string else { return DisplayText.of(value) }
        return LongDate.text(fromStoreDate: raw) ?? raw
    }
}
