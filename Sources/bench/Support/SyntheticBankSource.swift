import Foundation
@_spi(Benchmark) import TerminalUI

/// A table data source of any size, shaped like the app's Date tab: one
/// section per year (2025 down to 2000, the generator's spread), subtitle
/// cells with a bank name and `City, ST`, the years as index titles.
///
/// Cells are computed from the index path, so a million rows cost no
/// memory, and the only thing that differs between a 100-row and a
/// 1,000,000-row source is the row count: what the frame benchmark compares.
///
///     let source = SyntheticBankSource(rows: 1_000_000)
///     table.dataSource = source
final class SyntheticBankSource: TableViewDataSource {
    let rows: Int
    let years: [String] = (2000...2025).reversed().map(String.init)
    private let names = [
        "First State Bank", "Citizens National Bank", "Pacific Coast Savings Bank",
        "Heritage Bank & Trust", "Banco Español de Crédito", "Valley Community Bank, N.A.",
        "Summit Federal Savings Bank", "Peoples Bank of Alpharetta", "Golden Mutual Trust Company",
    ]
    private let places = ["Santa Clara, CA", "Alpharetta, GA", "Sac City, IA", "Española, NM", "Key West, FL"]

    init(rows: Int) { self.rows = rows }

    var numberOfSections: Int { min(years.count, rows) }

    func numberOfRows(inSection section: Int) -> Int {
        let n = numberOfSections
        return rows / n + (section < rows % n ? 1 : 0)
    }

    func cell(forRowAt indexPath: IndexPath) -> TableCell {
        let k = indexPath.section &* 7919 &+ indexPath.row
        return TableCell(
            style: .subtitle,
            title: "\(names[k % names.count]) \(indexPath.row + 1)",
            detail: places[k % places.count],
            accessory: .disclosureIndicator
        )
    }

    func titleForHeader(inSection section: Int) -> String? {
        "\(years[section])  (\(numberOfRows(inSection: section)))"
    }

    func sectionIndexTitles() -> [String] { Array(years.prefix(numberOfSections)) }
}
