/// The browser's three tabs, each an order and a sectioning of the banks.
///
/// - `date`: `details.closeDate` newest first, then name case-insensitively,
///   then id; one section per year.
/// - `name`: name case-insensitively, then id; sections by uppercased first
///   letter, `#` for anything else.
/// - `state`: state, then name case-insensitively, then id; one section per state.
///
///     BankSortTab(argument: "name")   // .name
///     BankSortTab.date.title          // "Date"
public enum BankSortTab: String, CaseIterable, Sendable {
    case date, name, state

    /// Parses `--sort`'s value.
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    /// The tab bar label.
    public var title: String {
        switch self {
        case .date: return "Date"
        case .name: return "Name"
        case .state: return "State"
        }
    }
}
