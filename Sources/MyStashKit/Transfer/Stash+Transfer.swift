import CSVImport
import Foundation
import Glibc
import SQLiteStore

/// How many items an import added, updated and left unchanged.
///
///     let summary = try stash.importItems(items)   // ImportSummary(added: 3, updated: 1, unchanged: 0)
package struct ImportSummary: Equatable, Sendable {
    package var added = 0
    package var updated = 0
    /// Unchanged items (already in the stash as they are).
    package var unchanged = 0
}

extension Stash {
    /// Adds `items`, or updates the entries with the same name and user ID
    /// (notes: the same title), all in one transaction.
    ///
    /// What an item is matched against is looked up in an index of the stash made once
    /// (`ImportIndex`: every entry's name and decrypted user ID, every note's title), so an
    /// import costs time in proportion to the stash and the file, not their product.
    package func importItems(_ items: [ImportedItem]) throws -> ImportSummary {
        let vault = try currentVault()
        var summary = ImportSummary()
        do {
            let index = try ImportIndex(of: self)
            for item in items {
                switch item {
                case .password(var entry):
                    if let (object, userIDOpens) = index.password(named: entry.name, user: entry.userID) {
                        // Read now, not from the index: an earlier row of the file may have updated it.
                        let record = try object.record(as: PasswordRecord.self)
                        if userIDOpens, holds(record, entry, vault: vault) {
                            summary.unchanged += 1
                            continue
                        }
                        let current = read(record, vault: vault)
                        entry.history = current.entry.history
                        if current.unreadable.isEmpty && current.entry == entry {
                            summary.unchanged += 1
                            continue
                        }
                        if !current.unreadable.contains(.password), current.entry.password != entry.password {
                            entry.history.record(
                                current.entry.password,
                                replacedAt: StoreDate.dateTimeText(from: Date())
                            )
                        }
                        try context.update(object, with: filled(record, with: entry, vault: vault))
                        summary.updated += 1
                    } else {
                        let record = PasswordRecord(uid: Stash.newUID(), name: entry.name)
                        context.insert(try filled(record, with: entry, vault: vault))
                        summary.added += 1
                    }
                case .note(let title, let body):
                    if let note = index.note(titled: title) {
                        var record = try note.record(as: NoteRecord.self)
                        if (try? openField(.body, of: record, vault: vault)) == body {
                            summary.unchanged += 1
                            continue
                        }
                        record.revision += 1
                        record.body = try seal(body, .body, of: record, vault: vault)
                        record.modified = StoreDate.dateTimeText(from: Date())
                        try context.update(note, with: record)
                        summary.updated += 1
                    } else {
                        // Revision 0, as imports have always added notes (the attribute's default).
                        let now = StoreDate.dateTimeText(from: Date())
                        var record = NoteRecord(
                            uid: Stash.newUID(),
                            title: title,
                            body: .none,
                            created: now,
                            modified: now,
                            revision: 0
                        )
                        record.body = try seal(body, .body, of: record, vault: vault)
                        context.insert(record)
                        summary.added += 1
                    }
                }
            }
        } catch {
            context.rollback()
            throw error
        }
        try saveOrRollback()
        return summary
    }

    /// Whether `record` (its user ID known to open and to be `entry`'s) holds `entry`'s
    /// password, URL, notes and TOTP secret, and its history opens: an imported item that
    /// changes nothing. Opens those five fields only (a re-import of 100,000 unchanged entries
    /// opens no user ID twice and decodes no history).
    private func holds(_ record: PasswordRecord, _ entry: PasswordEntry, vault: Vault) -> Bool {
        func opened(_ field: SealedField) -> String? {
            try? openField(field, of: record, vault: vault)
        }
        return opened(.password) == entry.password && opened(.url) == (entry.url ?? "")
            && opened(.notes) == (entry.notes ?? "") && opened(.totp) == (entry.totp ?? "") && opened(.history) != nil
    }

    /// Every note and password entry, decrypted, as a Bitwarden CSV export
    /// (which `importItems` reads back). Plaintext: the caller writes it with care.
    /// Names, URLs and notes that begin like a spreadsheet formula get a `'` in front
    /// (`FormulaEscaping`), which the import takes off again.
    package func exportCSV() throws -> [UInt8] {
        let writer = CSVWriter(lineEnding: "\n")
        let text = FormulaEscaping.escaped
        try writer.write(PasswordExportFormat.bitwardenHeader)
        for note in try context.fetch(StashModel.note, orderBy: "title COLLATE NOCASE, id") {
            let record = try note.record(as: NoteRecord.self)
            try writer.write([
                "", "", "note", text(record.title), text(try noteBody(of: note)), "", "0", "", "", "",
                "",
            ])
        }
        for object in try context.fetch(StashModel.password, orderBy: "name COLLATE NOCASE, id") {
            let entry = try entry(for: object)
            try writer.write([
                "", "", "login", text(entry.name), text(entry.notes ?? ""), "", "0", text(entry.url ?? ""),
                entry.userID, entry.password, entry.totp ?? "",
            ])
        }
        try writer.flush()
        return writer.bytes
    }

    /// An encrypted copy of the stash at `path` through SQLite's backup API,
    /// created with mode 0600; an existing file is never overwritten. The
    /// copy opens with the same passphrase (`mystash --db PATH`).
    package func backup(to path: String) throws {
        try Stash.createPrivateFile(at: path)
        do {
            try store.database.backup(to: path)
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Creates an empty file with mode 0600; fails when something exists at `path`.
    static func createPrivateFile(at path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StashError.cannotCreate(
                path: path,
                reason: errno == EEXIST
                    ? "it exists already (not overwritten)"
                    : String(cString: strerror(errno))
            )
        }
        fchmod(fd, 0o600)
        close(fd)
    }

    /// Writes `bytes` to a new file with mode 0600 (never overwriting one), all or nothing:
    /// the file gets its name only once every byte is written and synced, so a failed
    /// write (a full disk) or a killed process leaves no partial plaintext behind. On
    /// Linux the bytes go to an unnamed file in the target's folder (`O_TMPFILE`) that
    /// `linkat` names at the end; where that cannot be done (a file system without unnamed
    /// files, or a non-root process that cannot follow its `/proc/self/fd` links once core
    /// dumps are off), to the named file, removed again when a write fails.
    static func writePrivateFile(_ bytes: [UInt8], to path: String) throws {
        func failure(_ code: Int32) -> StashError {
            .cannotCreate(
                path: path,
                reason: code == EEXIST ? "it exists already (not overwritten)" : String(cString: strerror(code))
            )
        }
        if access(path, F_OK) == 0 { throw failure(EEXIST) }
        let folder = (path as NSString).deletingLastPathComponent
        let unnamed = open(folder.isEmpty ? "." : folder, Stash.unnamedFileFlags | O_WRONLY | O_CLOEXEC, 0o600)
        if unnamed >= 0 {
            defer { close(unnamed) }
            if let code = writeAll(bytes, to: unnamed) { throw failure(code) }
            if linkat(AT_FDCWD, "/proc/self/fd/\(unnamed)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 { return }
            // A process that may not dump core (ProcessHardening) may not follow its own
            // /proc/self/fd links unless it is root: the named file then.
            if errno == EEXIST { throw failure(EEXIST) }
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(errno) }
        defer { close(fd) }
        if let code = writeAll(bytes, to: fd) {
            unlink(path)
            throw failure(code)
        }
    }

    /// `O_TMPFILE` (Linux: an unnamed file in the folder opened), which Swift does not import.
    static let unnamedFileFlags: Int32 = 0o20_000_000 | O_DIRECTORY

    /// Writes every byte to `fd` (mode 0600) and syncs it; the `errno` of a failure, nil when done.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        fchmod(fd, 0o600)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return n < 0 ? errno : EIO }
            offset += n
        }
        return fsync(fd) == 0 ? nil : errno
    }
}
