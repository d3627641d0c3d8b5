import CSodium
import SQLiteStore

/// What a stash holds, entry by entry: each note's and password entry's
/// identity (`uid`), name, revision and a hash of each of its sealed
/// columns, kept in `vault_info.manifest` and authenticated, with a
/// generation counter, under the vault's manifest subkey.
///
/// Every write through a context of the stash (the store's save hook: saves,
/// undos, redos) checks the stored manifest against the rows before it writes,
/// and writes the new one in the same transaction; unlocking checks it too. So
/// an entry deleted, added, renamed, put back twice or with a field rolled back
/// from an old backup with `sqlite3` is found, and `differences(from:)` says
/// what changed, in words. The rows' encoding (`encodedRows(from:)`) is
/// compared with the stored bytes first; the entry-by-entry comparison runs
/// only when they differ.
///
///     let stored = try StashManifest(decoding: bytes)
///     let found = try StashManifest.read(from: stash.store.database)
///     found.differences(from: stored)   // ["the password entry “Bank” was deleted"]
struct StashManifest: Equatable {
    /// One entry as the manifest knows it.
    struct Entry: Equatable {
        var kind: StashKind
        var uid: String
        var name: String
        var revision: Int64
        /// A hash of each sealed column, in `kind.sealedFields` order.
        var hashes: [[UInt8]]

        /// Its line of `encoded`: kind, uid, revision, the hashes in hex, the name.
        func appendLine(to bytes: inout [UInt8]) {
            bytes += Array("\(kind.rawValue) \(uid.utf8.count):".utf8) + Array(uid.utf8)
            bytes += Array(" \(revision) ".utf8)
            for (index, hash) in hashes.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                for byte in hash {
                    bytes.append(StashManifest.hexDigits[Int(byte >> 4)])
                    bytes.append(StashManifest.hexDigits[Int(byte & 15)])
                }
            }
            bytes += Array(" \(name.utf8.count):".utf8) + Array(name.utf8) + [10]
        }
    }

    /// The entries, by kind and uid.
    var entries: [String: Entry]

    /// The length of each column's hash (BLAKE2b-128: a second preimage is out of reach).
    static let hashLength = 16

    private static func key(_ kind: StashKind, _ uid: String) -> String { "\(kind.rawValue) \(uid)" }

    /// The manifest of the rows as they are in `database` now.
    ///
    /// Throws `StashError.changedBehindTheAppsBack` when two rows of a kind share a uid (an older
    /// copy of an entry put back beside it, its unique index dropped): no manifest may cover both.
    static func read(from database: Database) throws -> StashManifest {
        var entries: [String: Entry] = [:]
        var duplicates: [String: (name: String, kind: StashKind, count: Int)] = [:]
        for kind in StashKind.allCases {
            let columns = kind.sealedFields.map { snakeCase($0.key) }
            let sql =
                "SELECT uid, \(kind.nameKey), revision, \(columns.joined(separator: ", ")) FROM \(kind.table) ORDER BY id"
            for row in try database.query(sql) {
                let uid = row[0].string ?? ""
                let entry = Entry(
                    kind: kind,
                    uid: uid,
                    name: row[1].string ?? "",
                    revision: row[2].int64 ?? -1,
                    hashes: row[3...].map(hash)
                )
                if entries[key(kind, uid)] != nil {
                    duplicates[key(kind, uid), default: (entry.name, kind, 1)].count += 1
                }
                entries[key(kind, uid)] = entry
            }
        }
        guard duplicates.isEmpty else {
            throw StashError.changedBehindTheAppsBack(
                duplicates.values.sorted { ($0.kind.rawValue, $0.name) < ($1.kind.rawValue, $1.name) }.map {
                    "the \($0.kind.entryWord) “\($0.name)” is in the stash \($0.count) times (one uid, several rows:"
                        + " an older copy put back beside it?)"
                }
            )
        }
        return StashManifest(entries: entries)
    }

    /// How many entries of `kind` the manifest lists.
    func count(of kind: StashKind) -> Int {
        entries.values.filter { $0.kind == kind }.count
    }

    /// The encoding (`encoded`) of the rows as they are in `database`, made straight from the rows
    /// in the manifest's order (kind, then uid), with the number of rows of each kind: what
    /// unlocking and every save compare with the stored manifest, byte for byte, before anything
    /// slower. Two rows of one uid give two lines, which no stored manifest holds.
    static func encodedRows(from database: Database) throws -> (bytes: [UInt8], rows: [StashKind: Int]) {
        var bytes = Array("mystash manifest v3\n".utf8)
        var rows: [StashKind: Int] = [:]
        // "notes" < "passwords", and uids compare as bytes: the order `encoded` sorts its keys in.
        for kind in StashKind.allCases.sorted(by: { $0.rawValue < $1.rawValue }) {
            let columns = kind.sealedFields.map { snakeCase($0.key) }
            var count = 0
            try database.forEachRow(
                "SELECT uid, \(kind.nameKey), revision, \(columns.joined(separator: ", ")) FROM \(kind.table)"
                    + " ORDER BY uid COLLATE BINARY"
            ) { row in
                count += 1
                let entry = Entry(
                    kind: kind,
                    uid: row.value(at: 0).string ?? "",
                    name: row.value(at: 1).string ?? "",
                    revision: row.value(at: 2).int64 ?? -1,
                    hashes: (0..<Int32(columns.count)).map { hash(row.value(at: 3 + $0)) }
                )
                entry.appendLine(to: &bytes)
            }
            rows[kind] = count
        }
        return (bytes, rows)
    }

    /// A hash of a column's value, its type included (a plaintext planted where a ciphertext was differs).
    static func hash(_ value: StoreValue) -> [UInt8] {
        var bytes: [UInt8]
        switch value {
        case .null: bytes = Array("n".utf8)
        case .blob(let blob): bytes = Array("b".utf8) + blob
        case .text(let text): bytes = Array("t".utf8) + Array(text.utf8)
        case .integer(let number): bytes = Array("i\(number)".utf8)
        case .real(let number): bytes = Array("r\(number)".utf8)
        }
        var out = [UInt8](repeating: 0, count: hashLength)
        _ = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { m in
                crypto_generichash(o.baseAddress!, o.count, m.baseAddress, UInt64(m.count), nil, 0)
            }
        }
        return out
    }

    // MARK: - Encoding

    /// `mystash manifest v3\n`, then one line per entry, sorted: kind, uid,
    /// revision, the hashes in hex, the name; uid and name length-prefixed.
    var encoded: [UInt8] {
        var bytes = Array("mystash manifest v3\n".utf8)
        bytes.reserveCapacity(entries.count * 160)
        for key in entries.keys.sorted() { entries[key]!.appendLine(to: &bytes) }
        return bytes
    }

    /// `0`…`9`, `a`…`f` as bytes.
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The hashes of a manifest line, `hex,hex,…` (a digit that is not hex reads as 0, as it always did).
    private static func hashes(_ text: ArraySlice<UInt8>) -> [[UInt8]] {
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return 0
            }
        }
        return text.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true).map { part in
            var out: [UInt8] = []
            out.reserveCapacity(part.count / 2)
            var index = part.startIndex
            while index + 1 < part.endIndex {
                out.append(nibble(part[index]) << 4 | nibble(part[index + 1]))
                index += 2
            }
            return out
        }
    }

    /// Decodes `encoded`; throws `StashError.manifestMismatch` for bytes this program did not write.
    init(decoding bytes: [UInt8]) throws {
        let malformed = StashError.changedBehindTheAppsBack(["the manifest of the entries is malformed"])
        var reader = ManifestReader(bytes: bytes)
        guard reader.line() == "mystash manifest v3" else { throw malformed }
        var entries: [String: Entry] = [:]
        while !reader.isAtEnd {
            guard let kind = StashKind(rawValue: reader.word() ?? ""), let uid = reader.prefixed(),
                let revision = Int64(reader.word() ?? ""), let hashText = reader.wordBytes(),
                let name = reader.prefixed(), reader.newline()
            else { throw malformed }
            entries[StashManifest.key(kind, uid)] = Entry(
                kind: kind,
                uid: uid,
                name: name,
                revision: revision,
                hashes: StashManifest.hashes(hashText)
            )
        }
        self.entries = entries
    }

    init(entries: [String: Entry]) { self.entries = entries }

    // MARK: - Differences

    /// `keys` ordered by their entries' kind, then name, then uid: the order findings are told in.
    private func byName(_ keys: [String]) -> [String] {
        keys.map { (key: $0, entry: entries[$0]!) }.sorted { a, b in
            (a.entry.kind.rawValue, a.entry.name, a.entry.uid) < (b.entry.kind.rawValue, b.entry.name, b.entry.uid)
        }.map(\.key)
    }

    /// What changed from `stored` to these rows, one sentence each, in a stable order (by kind, then name);
    /// empty when nothing did. Only the entries that changed are sorted: an unchanged stash of
    /// 100,000 entries costs one lookup each.
    func differences(from stored: StashManifest) -> [String] {
        var found: [String] = []
        var changedKeys: [String] = []
        for (key, old) in stored.entries where entries[key] != old { changedKeys.append(key) }
        for key in stored.byName(changedKeys) {
            let old = stored.entries[key]!
            guard let new = entries[key] else {
                found.append("the \(old.kind.entryWord) “\(old.name)” was deleted")
                continue
            }
            if new.name != old.name {
                found.append("the \(old.kind.entryWord) “\(old.name)” was renamed to “\(new.name)”")
            }
            let changed = zip(old.kind.sealedFields, zip(old.hashes, new.hashes)).filter { $1.0 != $1.1 }.map {
                $0.0.label
            }
            if !changed.isEmpty {
                found.append(
                    "the \(old.kind.entryWord) “\(new.name)” has a different \(changed.joined(separator: ", "))"
                        + " than it was saved with (rolled back or replaced?)"
                )
            }
            if new.revision != old.revision {
                found.append(
                    "the \(old.kind.entryWord) “\(new.name)” is at revision \(new.revision), not \(old.revision)"
                )
            }
        }
        for key in byName(entries.keys.filter { stored.entries[$0] == nil }) {
            let new = entries[key]!
            found.append("a \(new.kind.entryWord) “\(new.name)” was added")
        }
        return found
    }
}

/// Reads the manifest's text format: words, length-prefixed strings, lines.
private struct ManifestReader {
    let bytes: [UInt8]
    var index = 0

    var isAtEnd: Bool { index >= bytes.count }

    mutating func line() -> String? {
        guard let end = bytes[index...].firstIndex(of: 10) else { return nil }
        defer { index = end + 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    /// Up to the next space (consumed), as bytes.
    mutating func wordBytes() -> ArraySlice<UInt8>? {
        guard let end = bytes[index...].firstIndex(of: 32) else { return nil }
        defer { index = end + 1 }
        return bytes[index..<end]
    }

    /// Up to the next space (consumed).
    mutating func word() -> String? {
        guard let end = bytes[index...].firstIndex(of: 32) else { return nil }
        defer { index = end + 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    /// `N:` and N bytes, then a space or the end of the line (left for `newline()`).
    mutating func prefixed() -> String? {
        guard let colon = bytes[index...].firstIndex(of: 58),
            let count = Int(String(decoding: bytes[index..<colon], as: UTF8.self)),
            count >= 0, colon + 1 + count <= bytes.count
        else { return nil }
        let text = String(decoding: bytes[(colon + 1)..<(colon + 1 + count)], as: UTF8.self)
        index = colon + 1 + count
        if index < bytes.count, bytes[index] == 32 { index += 1 }
        return text
    }

    mutating func newline() -> Bool {
        guard index < bytes.count, bytes[index] == 10 else { return false }
        index += 1
        return true
    }
}

extension StashKind {
    /// The table of the list's entries.
    var table: String { self == .notes ? "note" : "password" }
    /// How a sentence names one of its entries ("note", "password entry").
    var entryWord: String { self == .notes ? "note" : "password entry" }
    /// `entryWord` in the plural.
    var entriesWord: String { self == .notes ? "notes" : "password entries" }
}
