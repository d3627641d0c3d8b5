import FetchedResults
import FetchedResultsUI
import SQLiteStore
import TerminalUI

/// The failedbanks list as a ``ListScreenConfiguration``: the three sort tabs
/// (``BankSortTab``), the bank cell and headers, the detail screen, `c` (the
/// chart) and `U` (update), the help's wording. Everything else is the generic
/// list screen's.
///
///     let configuration = BankListConfiguration.make(options: options, storePath: store.path)
///     let list = try ListScreen(context: context, configuration: configuration, loop: loop)
enum BankListConfiguration {
    /// The configuration for a store at `storePath` (nil: no results caches, e.g. for the help);
    /// `showChart` and `startUpdate` are what `c` and `U` do.
    static func make(
        options: BrowserOptions,
        storePath: String?,
        readOnlyReason: String? = nil,
        cacheDirectory: String? = nil,
        showChart: @escaping (ListScreen) -> Void = { _ in },
        startUpdate: @escaping (ListScreen) -> Void = { _ in }
    ) -> ListScreenConfiguration {
        var configuration = ListScreenConfiguration(
            title: "Failed Banks",
            tabs: BankSortTab.allCases.map { $0.listTab(storePath: storePath) }
        )
        configuration.initialTab = options.sort.index
        configuration.animated = options.animated
        configuration.readOnlyReason = readOnlyReason
        configuration.cacheDirectory = cacheDirectory
        configuration.detailScreen = { bank, _ in BankDetail.screen(for: bank) }
        configuration.detailDescription = "show the bank's details"
        configuration.indexTitleDescription = "a year, a letter, a state"
        // One line: with c and U the help fills the 21 lines of an 80×24 overlay.
        configuration.filterExample = ["state == \"CA\""]
        configuration.filterMaximumLength = BankBrowser.filterMaximumLength
        var chart = ListKeyBinding(
            .character("c"),
            keys: "c",
            description: "chart: failures by year (Enter shows the year)",
            action: showChart
        )
        chart.helpPlacement = .section("Screen")
        var update = ListKeyBinding(
            .character("U"),
            keys: "U",
            description: "update from the FDIC",
            action: startUpdate
        )
        update.helpPlacement = .sharingLine(with: "u")
        var grid = ListKeyBinding(.character("v"), keys: "v", description: "grid of every column") { screen in
            screen.showsGrid.toggle()
        }
        grid.helpPlacement = .sharingLine(with: "c")
        configuration.keyBindings = [chart, update, grid]
        return configuration
    }
}

extension BankSortTab {
    /// This tab as a list screen tab: its order and sections, whole section names
    /// in the index ("2025", "CA", "A"), the bank cell, `/` by name.
    func listTab(storePath: String?) -> ListTab {
        var tab = ListTab(
            title: title,
            entity: FailedBankModel.info,
            sortDescriptors: sortDescriptors,
            sectionNameKeyPath: sectionNameKeyPath,
            cell: BankBrowser.cell(for:)
        )
        tab.sectionIndexTitleProvider = { name in name.isEmpty ? nil : name }
        tab.cacheName = storePath.map(cacheName(forStoreAt:))
        tab.fetchBatchSize = fetchRequest(filter: nil).fetchBatchSize
        tab.searchKeyPaths = [FailedBankInfo.Columns.name.stringValue]
        tab.searchDescription = "by name"
        tab.noun = ("bank", "banks")
        tab.headerTitle = BankBrowser.header(for:)
        tab.provisionalHeaderTitle = BankBrowser.provisionalHeader(forSectionNamed:)
        tab.objectName = { bank in bank.string(FailedBankInfo.Columns.name.stringValue) ?? "the bank" }
        tab.grid = BankSortTab.grid
        tab.startsAsGrid = false
        return tab
    }

    /// Every column of a bank, `v` away from its cell: the cert, the acquiring institution and
    /// the fund are shown nowhere else but the detail screen.
    static var grid: ListGrid {
        var name = ListColumn("Bank", keyPath: FailedBankInfo.Columns.name.stringValue, type: .text)
        name.isFrozen = true
        name.maximumWidth = 28
        var acquirer = ListColumn("Acquired by", keyPath: FailedBankInfo.details(.acquiringInstitution), type: .text)
        acquirer.maximumWidth = 28
        return ListGrid(columns: [
            name,
            ListColumn("City", keyPath: FailedBankInfo.Columns.city.stringValue, type: .text),
            ListColumn("St", keyPath: FailedBankInfo.Columns.state.stringValue, type: .text),
            ListColumn("Closed", keyPath: FailedBankInfo.details(.closeDate), type: .date),
            ListColumn("Cert", keyPath: FailedBankInfo.details(.cert), type: .integer),
            acquirer,
            ListColumn("Fund", keyPath: FailedBankInfo.details(.fund), type: .integer),
            ListColumn("Updated", keyPath: FailedBankInfo.details(.updatedDate), type: .date),
        ])
    }
}
