import CSVImport
import Foundation

/// The CSV exports of other password managers that `mystash import` reads,
/// recognised by their header.
///
///     PasswordExportFormat.detect(header: ["name", "url", "username", "password", "note"])   // .chrome
public enum PasswordExportFormat: String, CaseIterable, Sendable {
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
    public static func detect(header: [String]) -> PasswordExportFormat? {
        let names = header.map(CSVHeaderMap.normalize)
        let set = Set(names)
        if set.isSuperset(of: ["type", "name", "login_username", "login_password"]) { return .bitwarden }
        if set.isSuperset(of: ["group", "title", "username", "password"]) { return .keepassxc }
        if names.first == "name", set.isSuperset(of: ["url", "username", "password"]) { return .chrome }
        if set.isSuperset(of: ["url", "username", "password"]), !set.contains("name") { return .firefox }
        return nil
    }

    /// Bitwarden's header, which `mystash export` writes.
    public static let bitwardenHeader = [
        "folder", "favorite", "type", "name", "notes", "fields", "reprompt",
        "login_uri", "login_username", "login_password", "login_totp",
    ]
}

/// One thing read from an export file.
///
///     case .password(let entry) = item
public enum ImportedItem: Equatable, Sendable {
    case password(PasswordEntry)
    case note(title: String, body: String)
}

/// Turns an export file's records into stash items.
///
///     let file = try PasswordExportReader(path: "bitwarden.csv")
///     let items = try file.items()   // [ImportedItem], and file.skipped
public struct PasswordExportReader {
    /// The format found (or asked for).
    public let format: PasswordExportFormat
    private let header: [String]
    private let records: [CSVRecord]
    /// Rows that hold nothing to import (no name, no secret), with their lines.
    public private(set) var skippedLines: [Int] = []

    /// Reads `path` (UTF-8 CSV with a header); `format` nil detects it from the header.
    public init(path: String, format: PasswordExportFormat? = nil) throws {
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

    /// The items of the file, in order (rows with nothing to import go to `skippedLines`).
    public mutating func items() -> [ImportedItem] {
        var items: [ImportedItem] = []
        skippedLines = []
        let index = Dictionary(
            header.enumerated().map { ($0.element, $0.offset) },
            uniquingKeysWith: { first, _ in first }
        )
        for record in records {
            func field(_ name: String) -> String {
                guard let i = index[name], i < record.count else { return "" }
                return record[i]
            }
            func optional(_ name: String) -> String? { field(name).isEmpty ? nil : field(name) }
            let item: ImportedItem?
            switch format {
            case .bitwarden:
                if field("type") == "note" {
                    item = field("name").isEmpty ? nil : .note(title: field("name"), body: field("notes"))
                } else {
                    item = .password(
                        PasswordEntry(
                            name: field("name"),
                            userID: field("login_username"),
                            password: field("login_password"),
                            url: optional("login_uri"),
                            notes: optional("notes"),
                            totp: optional("login_totp")
                        )
                    )
                }
            case .keepassxc:
                item = .password(
                    PasswordEntry(
                        name: field("title"),
                        userID: field("username"),
                        password: field("password"),
                        url: optional("url"),
                        notes: optional("notes"),
                        totp: optional("totp")
                    )
                )
            case .chrome:
                item = .password(
                    PasswordEntry(
                        name: field("name").isEmpty ? PasswordExportReader.host(of: field("url")) : field("name"),
                        userID: field("username"),
                        password: field("password"),
                        url: optional("url"),
                        notes: optional("note")
                    )
                )
            case .firefox:
                item = .password(
                    PasswordEntry(
                        name: PasswordExportReader.host(of: field("url")),
                        userID: field("username"),
                        password: field("password"),
                        url: optional("url")
                    )
                )
            }
            if let item, PasswordExportReader.isWorthImporting(item) {
                items.append(item)
            } else {
                skippedLines.append(record.line)
            }
        }
        return items
    }

    private static func isWorthImporting(_ item: ImportedItem) -> Bool {
        switch item {
        case .note(let title, _): return !title.trimmingCharacters(in: .whitespaces).isEmpty
        case .password(let entry):
            return !entry.name.trimmingCharacters(in: .whitespaces).isEmpty
                && !(entry.password.isEmpty && entry.userID.isEmpty && (entry.totp ?? "").isEmpty)
        }
    }

    /// The host of a URL ("https://accounts.example.com/login" → "accounts.example.com"), or the text itself.
    static func host(of url: String) -> String {
        URLComponents(string: url)?.host.flatMap { $0.isEmpty ? nil : $0 } ?? url
    }
}

/// Why an export file cannot be imported.
///
///     catch ImportError.unknownHeader(let path) { print("\(path):1: not an export I know") }
public enum ImportError: Error, Equatable, CustomStringConvertible {
    case empty(path: String)
    case unknownHeader(path: String)

    public var description: String {
        switch self {
        case .empty(let path): return "\(path):1: the file is empty"
        case .unknownHeader(let path):
            return "\(path):1: unrecognised header (expected a CSV export of Bitwarden, KeePassXC, Chrome or Firefox)"
        }
    }
}
