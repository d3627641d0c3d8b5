import CSVImport
import Foundation

/// The CSV exports of other password managers that `mystash import` reads,
/// recognised by their header.
///
///     PasswordExportFormat.detect(header: ["name", "url", "username", "password", "note"])   // .chrome
package enum PasswordExportFormat: String, CaseIterable, Sendable {
    /// `folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp`
    /// (`type` `note` rows are secure notes). Also what `mystash export` writes.
    case bitwarden
    /// `"Group","Title","Username","Password","URL","Notes","TOTP",…`
    case keepassxc
    /// Chrome/Chromium: `name,url,username,password,note`.
    case chrome
    /// Firefox: `"url","username","password",…` (the name is the URL's host).
    case firefox

    /// The format whose header this is, or nil.
    package static func detect(header: [String]) -> PasswordExportFormat? {
        let names = header.map(CSVHeaderMap.normalize)
        let set = Set(names)
        if set.isSuperset(of: ["type", "name", "login_username", "login_password"]) { return .bitwarden }
        if set.isSuperset(of: ["group", "title", "username", "password"]) { return .keepassxc }
        if names.first == "name", set.isSuperset(of: ["url", "username", "password"]) { return .chrome }
        if set.isSuperset(of: ["url", "username", "password"]), !set.contains("name") { return .firefox }
        return nil
    }

    /// Bitwarden's header, which `mystash export` writes.
    package static let bitwardenHeader = [
        "folder", "favorite", "type", "name", "notes", "fields", "reprompt",
        "login_uri", "login_username", "login_password", "login_totp",
    ]
}

/// One thing read from an export file.
///
///     case .password(let entry) = item
package enum ImportedItem: Equatable, Sendable {
    case password(PasswordEntry)
    case note(title: String, body: String)
}

/// A row of an export file that was not imported, and why (what `mystash import` names).
///
///     SkippedRow(line: 5, name: "", reason: "no name (and no URL to name it by)")
package struct SkippedRow: Equatable, Sendable {
    /// The row's line in the file.
    package var line: Int
    /// Its name or title ("" when it has none).
    package var name: String
    /// Why it was not imported.
    package var reason: String

    /// A row that was not imported: its line, its name ("" when none) and why.
    package init(line: Int, name: String, reason: String) {
        self.line = line
        self.name = name
        self.reason = reason
    }
}

/// Turns an export file's records into stash items.
///
/// Nothing with content is dropped without a word: a login with notes but no
/// password, user ID or TOTP secret (a KeePassXC entry "Bank recovery codes")
/// becomes a note holding its notes (and URL); a Bitwarden `card`, `identity`
/// or other item becomes a note holding its notes, its custom fields and any
/// login fields; a login's custom fields (Bitwarden's `fields`) are kept in its
/// notes. A row with content that still cannot be imported (no name) is in
/// ``skipped`` with its line and the reason; a row with nothing in it at all is
/// counted in ``emptyRows``.
///
///     let file = try PasswordExportReader(path: "bitwarden.csv")
///     let items = try file.items()   // [ImportedItem], and file.skipped
package struct PasswordExportReader {
    /// The format found (or asked for).
    package let format: PasswordExportFormat
    private let header: [String]
    private let records: [CSVRecord]
    /// Rows with content that were not imported, with their lines and the reasons.
    package private(set) var skipped: [SkippedRow] = []
    /// Rows with no field filled in (nothing to import, nothing lost).
    package private(set) var emptyRows = 0

    /// The lines of ``skipped``.
    package var skippedLines: [Int] { skipped.map(\.line) }

    /// Reads `path` (UTF-8 CSV with a header); `format` nil detects it from the header.
    package init(path: String, format: PasswordExportFormat? = nil) throws {
        let reader = try CSVReader(path: path)
        var all = try reader.readAll()
        guard !all.isEmpty else { throw ImportError.empty(path: path) }
        header = all.removeFirst().fields.map(CSVHeaderMap.normalize)
        guard let chosen = format ?? PasswordExportFormat.detect(header: header) else {
            throw ImportError.unknownHeader(path: path)
        }
        self.format = chosen
        records = all
    }

    /// The fields of one record by header name ("" when missing).
    private struct Row {
        let record: CSVRecord
        let index: [String: Int]

        /// Whether the name, URL and notes columns may hold cells `mystash export` escaped (`FormulaEscaping`).
        var unescapesFormulas = false

        func field(_ name: String) -> String {
            guard let i = index[name], i < record.count else { return "" }
            guard unescapesFormulas, ["name", "notes", "login_uri"].contains(name) else { return record[i] }
            return FormulaEscaping.unescaped(record[i])
        }

        func optional(_ name: String) -> String? { field(name).isEmpty ? nil : field(name) }
    }

    /// The items of the file, in order (rows with nothing to import go to ``skipped`` or ``emptyRows``).
    package mutating func items() -> [ImportedItem] {
        var items: [ImportedItem] = []
        skipped = []
        emptyRows = 0
        let index = Dictionary(
            header.enumerated().map { ($0.element, $0.offset) },
            uniquingKeysWith: { first, _ in first }
        )
        for record in records {
            // Bitwarden's columns are the ones `mystash export` writes: its formula escaping comes off.
            let row = Row(record: record, index: index, unescapesFormulas: format == .bitwarden)
            if record.fields.allSatisfy({ $0.isEmpty }) || isEmptyBitwardenRow(row) {
                emptyRows += 1
                continue
            }
            switch PasswordExportReader.importable(item(of: row)) {
            case .success(let item): items.append(item)
            case .failure(let refusal):
                skipped.append(SkippedRow(line: record.line, name: refusal.name, reason: refusal.reason))
            }
        }
        return items
    }

    /// A Bitwarden row whose only values are its defaults (`type`, `favorite`, `reprompt`).
    private func isEmptyBitwardenRow(_ row: Row) -> Bool {
        guard format == .bitwarden else { return false }
        let content = [
            "folder", "name", "notes", "fields", "login_uri", "login_username", "login_password", "login_totp",
        ]
        return content.allSatisfy { row.field($0).isEmpty }
    }

    /// What the row is, as the format says.
    private func item(of row: Row) -> ImportedItem {
        switch format {
        case .bitwarden:
            switch row.field("type") {
            case "note":
                return .note(
                    title: row.field("name"),
                    body: PasswordExportReader.joined([row.field("notes"), row.field("fields")])
                )
            case "login", "":
                return .password(
                    PasswordEntry(
                        name: row.field("name"),
                        userID: row.field("login_username"),
                        password: row.field("login_password"),
                        url: row.optional("login_uri"),
                        notes: PasswordExportReader.joined([row.field("notes"), row.field("fields")]).nonEmpty,
                        totp: row.optional("login_totp")
                    )
                )
            default:  // card, identity, ssh key…: a note holding every field the export has
                return .note(
                    title: row.field("name"),
                    body: PasswordExportReader.joined([
                        row.field("notes"), row.field("fields"),
                        PasswordExportReader.labelled([
                            ("URL", row.field("login_uri")), ("User ID", row.field("login_username")),
                            ("Password", row.field("login_password")), ("TOTP", row.field("login_totp")),
                        ]),
                    ])
                )
            }
        case .keepassxc:
            return .password(
                PasswordEntry(
                    name: row.field("title"),
                    userID: row.field("username"),
                    password: row.field("password"),
                    url: row.optional("url"),
                    notes: row.optional("notes"),
                    totp: row.optional("totp")
                )
            )
        case .chrome:
            return .password(
                PasswordEntry(
                    name: row.field("name").isEmpty
                        ? PasswordExportReader.host(of: row.field("url")) : row.field("name"),
                    userID: row.field("username"),
                    password: row.field("password"),
                    url: row.optional("url"),
                    notes: row.optional("note")
                )
            )
        case .firefox:
            return .password(
                PasswordEntry(
                    name: PasswordExportReader.host(of: row.field("url")),
                    userID: row.field("username"),
                    password: row.field("password"),
                    url: row.optional("url")
                )
            )
        }
    }

    /// Why a row cannot be imported: its name and the reason.
    private struct Refusal: Error {
        let name: String
        let reason: String
    }

    /// The item as it can be imported (an entry without a name named by its URL's host; a login
    /// with nothing secret but notes or a URL as a note), or why it cannot.
    private static func importable(_ item: ImportedItem) -> Result<ImportedItem, Refusal> {
        switch item {
        case .note(let title, let body):
            guard !title.trimmingCharacters(in: .whitespaces).isEmpty else {
                return .failure(Refusal(name: "", reason: "a note without a title"))
            }
            return .success(.note(title: title, body: body))
        case .password(var entry):
            if entry.name.trimmingCharacters(in: .whitespaces).isEmpty, let url = entry.url {
                entry.name = host(of: url)
            }
            guard !entry.name.trimmingCharacters(in: .whitespaces).isEmpty else {
                return .failure(Refusal(name: "", reason: "no name (and no URL to name it by)"))
            }
            guard entry.password.isEmpty && entry.userID.isEmpty && (entry.totp ?? "").isEmpty else {
                return .success(.password(entry))
            }
            let body = joined([entry.notes ?? "", labelled([("URL", entry.url ?? "")])])
            guard !body.isEmpty else {
                return .failure(
                    Refusal(name: entry.name, reason: "only a name: no password, user ID, URL, TOTP secret or notes")
                )
            }
            return .success(.note(title: entry.name, body: body))
        }
    }

    /// The non-empty parts, one after another, a blank line between them.
    private static func joined(_ parts: [String]) -> String {
        parts.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// `Label: value` lines for the values that are not empty.
    private static func labelled(_ pairs: [(String, String)]) -> String {
        pairs.filter { !$0.1.isEmpty }.map { "\($0.0): \($0.1)" }.joined(separator: "\n")
    }

    /// The host of a URL ("https://accounts.example.com/login" → "accounts.example.com"), or the text itself.
    static func host(of url: String) -> String {
        URLComponents(string: url)?.host.flatMap { $0.isEmpty ? nil : $0 } ?? url
    }
}

extension String {
    /// Nil for the empty string.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

/// Why an export file cannot be imported.
///
///     catch ImportError.unknownHeader(let path) { print("\(path):1: not an export I know") }
package enum ImportError: Error, Equatable, CustomStringConvertible {
    case empty(path: String)
    case unknownHeader(path: String)

    package var description: String {
        switch self {
        case .empty(let path): return "\(path):1: the file is empty"
        case .unknownHeader(let path):
            return "\(path):1: unrecognised header (expected a CSV export of Bitwarden, KeePassXC, Chrome or Firefox)"
        }
    }
}
