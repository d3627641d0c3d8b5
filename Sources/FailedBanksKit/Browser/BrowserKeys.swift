import FetchedResultsUI

/// The browser's keys, as the help overlay (`?`, F1) lists them: the list
/// screen's keys (``ListScreenKeys``) in failedbanks' words.
///
/// One table, shown to the person and checked by the tests: every key listed
/// here does what it says.
///
///     loop.helpBindings = BrowserKeys.bindings
package enum BrowserKeys {
    package static var bindings: [(keys: String, description: String)] {
        ListScreenKeys.bindings(for: BankListConfiguration.make(options: BrowserOptions(), storePath: nil))
    }
}
