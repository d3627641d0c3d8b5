/// How an import treats bad rows and which write path it may take.
///
///     var options = ImportOptions()
///     options.skipBadRows = true      // import the good rows, list the bad ones
///     options.maxListedIssues = 5
public struct ImportOptions: Sendable {
    /// Import the good rows and report the bad ones, instead of refusing the file.
    public var skipBadRows = false
    /// How many bad rows to list (the rest are counted).
    public var maxListedIssues = 20
    /// Let the empty-store path leave WAL for the rollback journal during the load (faster; needs
    /// no other connection to have the file open, else WAL is kept).
    public var allowJournalSwitch = true
    /// The defaults: all-or-nothing, 20 listed issues, the journal switch allowed.
    public init() {}
}
