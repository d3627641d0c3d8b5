import CLIKit

/// The options several `failedbanks` commands take, each written once.
enum BankCommandOptions {
    /// `--db PATH`: the store every command opens.
    static let database = OptionSpec(
        "--db",
        value: "PATH",
        help: "the store (default: $FAILEDBANKS_DB, else $XDG_DATA_HOME/failedbanks/failedbanks.sqlite)"
    )

    /// `--sort ORDER` of `list` and `watch`: the browser tab whose order and sections they print.
    static let sort = OptionSpec(
        "--sort",
        value: "ORDER",
        help: "date (newest first, by year; the default), name (by initial) or state",
        completion: .values(BankSortTab.allCases.map(\.rawValue))
    )
}
