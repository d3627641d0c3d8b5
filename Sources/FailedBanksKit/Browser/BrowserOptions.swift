/// What the command line asked of the browser.
///
///     var options = BrowserOptions()
///     options.sort = .name
///     options.animated = false
package struct BrowserOptions: Sendable, Equatable {
    /// `--db`; nil: `$FAILEDBANKS_DB`, then the XDG default.
    package var databasePath: String?
    /// The tab shown first (`--sort`).
    package var sort: BankSortTab = .date
    /// False with `--no-animation`.
    package var animated = true
    /// Where `U` downloads the list from; nil: `$FAILEDBANKS_URL`, then the FDIC's CSV download.
    package var updateURL: String?
    /// Whether charts may draw eighth blocks (false when `NO_COLOR` is set).
    package var usesBlocks = (ProcessEnvironment.current()["NO_COLOR"] ?? "").isEmpty

    package init() {}
}
