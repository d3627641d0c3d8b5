import BaseDirectories
import Foundation
import Glibc

/// What this machine last saw of each stash it unlocked, kept outside the stash file so that
/// the file put back whole from an older copy of itself (a backup, a sync conflict, a copy an
/// attacker saved) is noticed: `$XDG_STATE_HOME/mystash/seen.json` (mode 0600, its folder
/// 0700), one record per stash.
///
/// A record holds the stash's file id — every salt it has had, with the key-derivation limits
/// stored beside it (a salt is authenticated: changed, it derives another key; `passwd` makes a
/// new one, which joins the record) — and the last manifest generation seen with that
/// generation's manifest MAC. Unlocking compares: a lower generation, or the same generation
/// with another MAC, is a rollback (`SeenStashes.Rollback`); limits other than the ones stored
/// beside the same salt are a header changed behind the app's back (a new salt comes with every
/// change of limits). Only values checked under the key are recorded, and a recorded
/// generation is never lowered unless the person accepts the rollback.
///
/// It does not protect a stash on a machine that never unlocked it, against a copy made before
/// this machine first saw it, nor against someone who can also write this file (the same user
/// can: it detects a file swapped by sync, backup tools or another account with write access
/// to the stash only).
///
///     let seen = SeenStashes(environment: ProcessInfo.processInfo.environment)
///     if let rollback = try seen.rollback(salt: header.salt, generation: 4, manifestMAC: mac) { … }
///     try seen.remember(salt: header.salt, parameters: header.parameters, generation: 5, manifestMAC: mac, path: path)
package struct SeenStashes: Sendable {
    /// The state file.
    package let path: String

    /// The records in `path`.
    package init(path: String) {
        self.path = path
    }

    /// `$XDG_STATE_HOME/mystash/seen.json` (`~/.local/state/mystash/seen.json` when unset).
    package init(environment: [String: String]) {
        self.init(path: XDGBaseDirectories(environment: environment).state("mystash", "seen.json"))
    }

    /// The most records kept (the ones seen longest ago go first).
    static let limit = 256

    /// One stash as last seen here.
    struct Record: Codable, Equatable {
        /// One salt the stash has had, and the limits stored beside it.
        struct Salt: Codable, Equatable {
            var salt: String
            var opsLimit: UInt64
            var memLimit: UInt64
            var algorithm: Int32
        }
        var salts: [Salt]
        var generation: Int64
        var manifestMAC: String
        /// When it was last seen (ISO 8601) and where.
        var seen: String
        var path: String
    }

    /// What the stash file is against what was last seen here.
    package struct Rollback: Equatable, Sendable, CustomStringConvertible {
        /// The stash's path as it was last seen.
        package var path: String
        /// The generation last seen here, and when.
        package var seenGeneration: Int64
        package var seenAt: String
        /// The generation of the file now.
        package var foundGeneration: Int64

        package var description: String {
            if foundGeneration < seenGeneration {
                return "the stash is at generation \(foundGeneration), but generation \(seenGeneration) was seen on"
                    + " this machine (\(seenAt)): it looks put back from an older copy, and what was saved since is"
                    + " not in it"
            }
            return "the stash is at generation \(foundGeneration), as when last seen on this machine (\(seenAt)),"
                + " but its contents differ: another copy of it was changed, or it was put back from an older"
                + " copy and changed since"
        }
    }

    // MARK: - Checks

    /// The limits stored beside `salt` when it was last seen, if any record has it.
    func parameters(forSalt salt: [UInt8]) -> KDFParameters? {
        let hex = SeenStashes.hex(salt)
        for record in read() {
            if let found = record.salts.first(where: { $0.salt == hex }) {
                return KDFParameters(opsLimit: found.opsLimit, memLimit: found.memLimit, algorithm: found.algorithm)
            }
        }
        return nil
    }

    /// The rollback of a stash (its salt) now at `generation` with `manifestMAC`: nil when it is
    /// at a generation above the last seen, or at the same one with the same MAC, or unknown here.
    package func rollback(salt: [UInt8], generation: Int64, manifestMAC: [UInt8]) -> Rollback? {
        let records = read()
        guard let found = record(withSalt: salt, in: records).map({ records[$0] }) else { return nil }
        let sameAsSeen = found.generation == generation && found.manifestMAC == SeenStashes.hex(manifestMAC)
        guard generation < found.generation || (generation == found.generation && !sameAsSeen) else { return nil }
        return Rollback(
            path: found.path,
            seenGeneration: found.generation,
            seenAt: found.seen,
            foundGeneration: generation
        )
    }

    // MARK: - Recording

    /// Records the stash (`salt`, and `formerSalt` when its passphrase was just changed) as seen
    /// at `generation` with `manifestMAC`, at `path`. A lower generation than the recorded one, or
    /// another MAC at the same one, is recorded only with `acceptingRollback`. Under an exclusive
    /// lock; the file is written whole and renamed over the old one (mode 0600).
    package func remember(
        salt: [UInt8],
        parameters: KDFParameters,
        formerSalt: [UInt8]? = nil,
        generation: Int64,
        manifestMAC: [UInt8],
        path stashPath: String,
        acceptingRollback: Bool = false
    ) throws {
        try withLock {
            var records = read()
            let entry = Record.Salt(
                salt: SeenStashes.hex(salt),
                opsLimit: parameters.opsLimit,
                memLimit: parameters.memLimit,
                algorithm: parameters.algorithm
            )
            let now = ISO8601DateFormatter().string(from: Date())
            let absolute =
                stashPath.hasPrefix("/") ? stashPath : FileManager.default.currentDirectoryPath + "/" + stashPath
            let index =
                record(withSalt: salt, in: records) ?? formerSalt.flatMap { record(withSalt: $0, in: records) }
            guard let index else {
                records.append(
                    Record(
                        salts: [entry],
                        generation: generation,
                        manifestMAC: SeenStashes.hex(manifestMAC),
                        seen: now,
                        path: absolute
                    )
                )
                try write(records)
                return
            }
            var found = records[index]
            if !found.salts.contains(where: { $0.salt == entry.salt }) { found.salts.append(entry) }
            if generation > found.generation || acceptingRollback {
                found.generation = generation
                found.manifestMAC = SeenStashes.hex(manifestMAC)
            }
            found.seen = now
            found.path = absolute
            records[index] = found
            try write(records)
        }
    }

    // MARK: - The file

    private func record(withSalt salt: [UInt8], in records: [Record]) -> Int? {
        let hex = SeenStashes.hex(salt)
        return records.firstIndex { $0.salts.contains { $0.salt == hex } }
    }

    /// The records in the file; none when it is missing or unreadable (nothing to compare with).
    private func read() -> [Record] {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        let data = FileHandle(fileDescriptor: fd, closeOnDealloc: true).readDataToEndOfFile()
        return (try? JSONDecoder().decode([Record].self, from: data)) ?? []
    }

    /// Writes `records` (the newest `limit`) to a new file beside the old one, then renames it over.
    private func write(_ records: [Record]) throws {
        let kept = records.sorted { $0.seen > $1.seen }.prefix(SeenStashes.limit)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(Array(kept))
        let temporary = path + ".new"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SeenStashes.failure(temporary) }
        let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced, rename(temporary, path) == 0 else {
            let error = SeenStashes.failure(path)
            unlink(temporary)
            throw error
        }
    }

    /// Runs `body` holding an exclusive lock on `seen.json.lock` (made with the folder, 0700, when missing).
    private func withLock(_ body: () throws -> Void) throws {
        try SeenStashes.makeFolder((path as NSString).deletingLastPathComponent)
        let fd = open(path + ".lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SeenStashes.failure(path + ".lock") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw SeenStashes.failure(path + ".lock") }
        }
        try body()
    }

    /// Creates `folder` and its missing parents with mode 0700.
    private static func makeFolder(_ folder: String) throws {
        var info = stat()
        if stat(folder, &info) == 0 { return }
        let parent = (folder as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != folder { try makeFolder(parent) }
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { throw failure(folder) }
    }

    /// The failure to make or write `file`, with `errno`'s reason.
    private static func failure(_ file: String) -> StashError {
        .cannotCreate(path: file, reason: String(cString: strerror(errno)))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}
