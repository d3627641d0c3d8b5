import CSVImport
import Foundation

/// Where the cache database of one CSV file lives, and whether it is up to date.
///
/// The folder is `$XDG_CACHE_HOME/fetchedtable/` (`~/.cache/fetchedtable/`
/// when the variable is unset or not an absolute path), made on first use.
/// A file's database is named after the file and a hash of its absolute path,
/// then the file's size and modification time:
/// `events-3f2a9c0d1e4b5a67-104857600-1764590000123456789.sqlite`. So the
/// database is reused while the file's size and mtime are unchanged, and a
/// changed file simply has a database name that does not exist yet: it is
/// built into a temporary file beside it and renamed into place (atomic: a
/// reader sees the old database or the new one, never half of one), and the
/// databases of the file's older versions are then removed. (A file changed
/// while it is being loaded leaves a database named for its old version: the
/// next load sees the new size or mtime, builds anew and removes that one.)
///
///     let location = try CSVCacheLocation(source: "events.csv")
///     location.databasePath   // "/home/ada/.cache/fetchedtable/events-…-104857600-….sqlite"
///     location.isBuilt        // false until a CSVTableLoader has loaded it
public struct CSVCacheLocation: Sendable, Hashable {
    /// The CSV file's absolute path (symbolic links resolved).
    public let sourcePath: String
    /// The cache folder.
    public let directory: String
    /// The source's size in bytes when the location was made.
    public let sourceSize: Int64
    /// The source's modification time (nanoseconds since 1970) when the location was made.
    public let sourceModified: Int64

    /// Bumped when the loader's database format changes, so that old caches are rebuilt.
    static let formatVersion = 1

    /// The location of `source`'s cache in `directory` (by default ``defaultDirectory(environment:)``).
    /// Throws `CSVError.cannotOpen` when the source cannot be examined.
    public init(source: String, directory: String? = nil) throws {
        var info = stat()
        guard stat(source, &info) == 0 else { throw CSVError.cannotOpen(path: source, code: errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw CSVError.cannotOpen(path: source, code: EISDIR) }
        sourcePath = CSVCacheLocation.absolute(source)
        self.directory = directory ?? CSVCacheLocation.defaultDirectory()
        sourceSize = Int64(info.st_size)
        sourceModified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// `$XDG_CACHE_HOME/fetchedtable`, or `$HOME/.cache/fetchedtable`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/fetchedtable" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.cache/fetchedtable"
    }

    /// The start of the name of every database of this source (any version).
    var namePrefix: String {
        let stem = (sourcePath as NSString).lastPathComponent
        let safe = String(
            stem.unicodeScalars.prefix(40).map { scalar -> Character in
                let ok =
                    (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                    || "._-".unicodeScalars.contains(scalar)
                return ok ? Character(scalar) : "_"
            }
        )
        return safe + "-" + CSVCacheLocation.hashText(sourcePath) + "-"
    }

    /// The database for this version of the source.
    public var databasePath: String {
        directory + "/" + namePrefix + "\(sourceSize)-\(sourceModified)-v\(CSVCacheLocation.formatVersion).sqlite"
    }

    /// True when the database for this version of the source exists.
    public var isBuilt: Bool { FileManager.default.fileExists(atPath: databasePath) }

    /// True when the source's size and modification time are still the ones this location was made for.
    public var sourceIsUnchanged: Bool {
        guard let now = try? CSVCacheLocation(source: sourcePath, directory: directory) else { return false }
        return now.sourceSize == sourceSize && now.sourceModified == sourceModified
    }

    /// Makes the cache folder (and its parents) when missing, readable by the user only.
    public func makeDirectory() throws {
        try FileManager.default.createDirectory(
            atPath: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
    }

    /// A temporary path beside ``databasePath`` to build into (named after this process).
    func temporaryPath() -> String {
        databasePath + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Removes the databases of the source's other versions, and the temporary files of loads whose
    /// process is gone (a load that was killed).
    func removeStaleFiles() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let current = (databasePath as NSString).lastPathComponent
        let prefix = namePrefix
        for name in names where name.hasPrefix(prefix) && name != current {
            if let range = name.range(of: ".sqlite.tmp-") {
                // `….sqlite.tmp-PID-RANDOM`: keep it while its process runs (another load in progress).
                let pid = name[range.upperBound...].split(separator: "-").first.flatMap { Int32($0) }
                if let pid, pid != getpid(), kill(pid, 0) == 0 || errno == EPERM { continue }
                if let pid, pid == getpid() { continue }
            }
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    private static func absolute(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// FNV-1a of the text, 16 hexadecimal digits (stable across runs, unlike `hashValue`).
    private static func hashText(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
