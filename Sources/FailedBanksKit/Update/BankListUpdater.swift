import BulkImport
import FetchedResultsScripts
import Foundation
import SQLiteStore

/// Brings a store up to date with the FDIC's current list: downloads it
/// (conditionally, with the validators of the last successful update), checks
/// that the body is a complete bank list, imports it by upsert through
/// ``BankImporter`` (all-or-nothing, cert as the key), and keeps the new
/// validators in the store's metadata, in the same transaction.
///
/// Every failure throws (``UpdateError`` for the network and the body,
/// ``BankImportError/store(path:_:)`` for the store) and leaves the store as it was.
///
///     let updater = BankListUpdater(store: store)
///     switch try updater.run(url: BankListSource.fdicURL, timeout: 30) {
///     case .current: print("update: the list is current")
///     case .updated(let summary): print(summary.summaryLine)
///     }
package final class BankListUpdater {
    /// What an update did.
    package enum Result: Sendable {
        /// The server answered 304 Not Modified: nothing changed (`redirectedTo`: the address that
        /// answered, when the server redirected there).
        case current(url: String, redirectedTo: String?)
        /// The list was downloaded and imported.
        case updated(UpdateSummary)
    }

    /// What the update is doing, for a progress bar or a status line.
    package enum Phase: Sendable, Equatable {
        case downloading(BankListDownloader.Progress)
        case importing
    }

    /// The metadata keys of the last successful update.
    enum Key {
        static let url = "failedbanks.update.url"
        static let etag = "failedbanks.update.etag"
        static let lastModified = "failedbanks.update.lastModified"
    }

    package let store: Store
    /// The body size cap (see ``BankListDownloader/Request/maximumBytes``).
    package var maximumBytes = 32 << 20

    package init(store: Store) { self.store = store }

    /// The validators kept from the last successful update from `url` (nil after one from another URL, or none).
    package func storedValidators(for url: URL) throws -> HTTPValidators? {
        guard try store.metadata(forKey: Key.url) == url.absoluteString else { return nil }
        let validators = HTTPValidators(
            etag: try store.metadata(forKey: Key.etag),
            lastModified: try store.metadata(forKey: Key.lastModified)
        )
        return validators.isEmpty ? nil : validators
    }

    /// Downloads `url` within `timeout` seconds and imports it; see the type's summary.
    /// `progress` may be called on another thread.
    package func run(url: URL, timeout: Double, progress: (@Sendable (Phase) -> Void)? = nil) throws -> Result {
        let validators: HTTPValidators?
        do { validators = try storedValidators(for: url) } catch {
            throw BankImportError.store(path: url.absoluteString, error)
        }
        let request = BankListDownloader.Request(
            url: url,
            validators: validators,
            timeout: timeout,
            maximumBytes: maximumBytes
        )
        let outcome = try BankListDownloader().download(request) { progress?(.downloading($0)) }
        let body: BankListDownloader.Body
        switch outcome {
        case .notModified(let redirectedTo):
            return .current(url: url.absoluteString, redirectedTo: redirectedTo?.absoluteString)
        case .downloaded(let downloaded):
            body = downloaded
        }
        let name = url.absoluteString
        try BankListUpdater.checkLooksLikeAList(body, url: name)

        progress?(.importing)
        let imported: ImportSummary
        do {
            // The banks and the validators they came with are one transaction: either both are
            // written or neither (new banks under the old validators would make the next update
            // a conditional GET answered "not modified" by a server that has them).
            imported = try store.database.transaction {
                var options = BankImporter.Options()
                options.allowJournalSwitch = false  // the journal mode cannot change inside a transaction
                // Parsed from memory: the download is never written to a file.
                let summary = try BankImporter(store: store).importCSV(
                    bytes: [UInt8](body.data),
                    displayName: name,
                    options: options
                )
                try store.setMetadata([
                    Key.url: name, Key.etag: body.validators.etag, Key.lastModified: body.validators.lastModified,
                ])
                return summary
            }
        } catch let error as BankImportError {
            throw BankListUpdater.translate(error, url: name)
        } catch {
            throw BankImportError.store(path: name, error)
        }
        var summary = UpdateSummary(
            url: name,
            bytes: body.data.count,
            new: imported.added,
            changed: imported.updated,
            unchanged: imported.unchanged
        )
        summary.newest = try? UpdateSummary.newestBank(in: store.database)
        if body.wasRedirected { summary.redirectedTo = body.finalURL.absoluteString }
        return .updated(summary)
    }

    /// An HTML page (an error page served with 200, a moved download) and a SQLite database are refused
    /// before the importer sees them: the FDIC serves CSV, and a database from the network is never opened.
    static func checkLooksLikeAList(_ body: BankListDownloader.Body, url: String) throws {
        if body.data.starts(with: BankListUpdater.sqliteMagic) {
            throw UpdateError.notABankList(
                url: url,
                reason: "a SQLite database, not CSV; update reads only the FDIC's CSV list "
                    + "(failedbanks import FILE reads an old app's store from disk)"
            )
        }
        let start = body.data.prefix(512).drop {
            $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF
        }
        let isHTML = (body.contentType?.lowercased().contains("html") ?? false) || start.first == UInt8(ascii: "<")
        guard isHTML else { return }
        var reason = "an HTML page"
        let text = String(decoding: body.data.prefix(4096), as: UTF8.self)
        if let open = text.range(of: "<title>", options: .caseInsensitive),
            let close = text.range(of: "</title>", options: .caseInsensitive, range: open.upperBound..<text.endIndex)
        {
            let title = text[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
            if !title.isEmpty { reason += " titled \"\(DisplayText.escapingControls(String(title.prefix(80))))\"" }
        }
        throw UpdateError.notABankList(url: url, reason: reason)
    }

    /// The 16 bytes every SQLite database starts with (`SQLite format 3` and a NUL).
    static let sqliteMagic = Array("SQLite format 3\u{0}".utf8)

    /// The importer's refusals of a body in the words of ``UpdateError``; store failures pass through.
    static func translate(_ error: BankImportError, url: String) -> Error {
        switch error {
        case .emptyFile:
            return UpdateError.notABankList(url: url, reason: "the body is empty")
        case .headerOnly:
            return UpdateError.notABankList(url: url, reason: "a header row but no banks")
        case .missingColumns(_, let names, _):
            return UpdateError.notABankList(
                url: url,
                reason: "no FDIC header: missing " + names.map { "\"\($0)\"" }.joined(separator: ", ")
            )
        case .unterminatedQuote(_, let line):
            return UpdateError.notABankList(url: url, reason: "a quoted field on line \(line) is not closed")
        case .recordTooLong(_, let line):
            return UpdateError.notABankList(url: url, reason: "record too long on line \(line)")
        case .unreadable(_, let csvError):
            return UpdateError.notABankList(url: url, reason: "\(csvError)")
        case .badRows(_, let issues, let total):
            return UpdateError.badRows(url: url, issues: issues, total: total)
        case .notABankStore:
            return UpdateError.notABankList(url: url, reason: "a SQLite database without bank tables")
        case .unreadableStore(_, let storeError):
            return UpdateError.notABankList(url: url, reason: "a SQLite database that cannot be read: \(storeError)")
        case .store:
            return error
        }
    }
}
