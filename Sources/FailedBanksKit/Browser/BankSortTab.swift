import FetchedResults
import SQLiteStore

/// The browser's three tabs, each an order and a sectioning of the banks.
///
/// - `date`: `details.closeDate` newest first, then name case-insensitively,
///   then id; one section per year (`details.closeYear`), the years in the index.
/// - `name`: name case-insensitively, then id; sections by uppercased first
///   letter, `#` for anything else (`nameInitial`).
/// - `state`: state, then name case-insensitively, then id; one section per state.
///
/// The controller appends the object ID as the last tie-breaker itself.
///
///     BankSortTab(argument: "name")   // .name
///     let controller = BankSortTab.date.listTab(storePath: nil).makeController(context: context, filter: nil)
///     try controller.performFetch()
package enum BankSortTab: String, CaseIterable, Sendable {
    case date, name, state

    /// Parses `--sort`'s value.
    package init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    /// The tab bar label.
    package var title: String {
        switch self {
        case .date: return "Date"
        case .name: return "Name"
        case .state: return "State"
        }
    }

    /// The tab's position in the tab bar.
    package var index: Int { BankSortTab.allCases.firstIndex(of: self)! }

    /// The key path whose value names each section.
    package var sectionNameKeyPath: String {
        switch self {
        case .date: return FailedBankInfo.details + "." + FailedBankDetails.closeYear
        case .name: return BrowserModel.nameInitial
        case .state: return FailedBankInfo.Columns.state.stringValue
        }
    }

    /// The sort descriptors (the controller appends the id).
    package var sortDescriptors: [FetchSort] {
        let byName = FetchSort(FailedBankInfo.Columns.name, comparison: .caseInsensitive)
        switch self {
        case .date: return [FetchSort(FailedBankInfo.details(.closeDate), ascending: false), byName]
        case .name: return [byName]
        case .state: return [FetchSort(FailedBankInfo.Columns.state), byName]
        }
    }

    /// The fetch request of this tab, optionally narrowed by `filter`.
    package func fetchRequest(filter: FetchPredicate?) -> FetchRequest {
        var request = FetchRequest(entity: FailedBankModel.info, predicate: filter, sortDescriptors: sortDescriptors)
        request.fetchBatchSize = 40
        return request
    }

    /// One results cache per tab and store file, so two stores do not evict each other's.
    func cacheName(forStoreAt path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a of the path
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "failedbanks-\(rawValue)-\(String(hash, radix: 16))"
    }
}
