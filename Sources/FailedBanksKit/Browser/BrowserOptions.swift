/// What the command line asked of the browser.
///
///     var options = BrowserOptions()
///     options.sort = .name
///     options.animated = false
public struct BrowserOptions: Sendable, Equatable {
    /// `--db`; nil: `$FAILEDBANKS_DB`, then the XDG default.
    public var databasePath: String?
    /// The tab shown first (`--sort`).
    public var sort: BankSortTab = .date
    /// False with `--no-animation`.
    public var animated = true
    /// Where `U` downloads the list from; nil: `$FAILEDBANKS_URL`, then the FDIC's CSV download.
    public var updateURL: String?
    /// Whether charts may draw eighth blocks (false when `NO_COLOR` is set).
    public var usesBlocks = (ProcessEnvironment.current()["NO_COLOR"] ?? "").isEmpty

    public init() {}
}
