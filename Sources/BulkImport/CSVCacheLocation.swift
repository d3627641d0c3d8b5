import BaseDirectories
import CSVImport
import Foundation
import SQLiteStore

/// Where the cache database of one CSV or JSON file lives, and whether it is up to date.
///
/// The folder is the app's cache folder, `defaultDirectory(for:environment:)`:
/// `$XDG_CACHE_HOME/<application>/` (`~/.cache/<application>/` when the variable is
/// unset or not an absolute path), made on first use.
/// A file has one database, named after the file and a hash of its absolute path
/// (`events-3f2a9c0d1e4b5a67-v4.sqlite`; with `-x` and a hash of the `variant` before
/// `-v4` when the loader's options are not the default ones). The database says which
/// version of the file it holds (kept inside it: ``CSVTableLoader`` writes it): the file's size,
/// modification time, inode and a hash of its content's ends (`contentCheck`: the first and
/// last 64 KiB and the size). So the database is reused while all of these are unchanged — a
/// file replaced by another of the same size and time (`mv`, `cp -p`, `touch -r`, a coarse
/// file-system clock) has another inode or other bytes. A file that only grew (a log) still
/// begins with the bytes loaded — the database keeps their length and their own content check —
/// and its database is completed in place with the rows appended. Any other change builds
/// the database anew into a temporary file beside it, renamed over it when complete (atomic:
/// a reader sees the old database or the new one, never half of one).
///
///     let location = try CSVCacheLocation(source: "events.csv", directory: CSVCacheLocation.defaultDirectory(for: "books"))
///     location.databasePath   // "/home/ada/.cache/books/events-3f2a9c0d1e4b5a67-v4.sqlite"
///     location.isBuilt        // false until a CSVTableLoader has loaded this version of the file
public struct CSVCacheLocation: Sendable, Hashable {
    /// The CSV file's absolute path (symbolic links resolved).
    package let sourcePath: String
    /// The cache folder.
    public private(set) var directory: String
    /// The source's size in bytes when the location was made.
    package let sourceSize: Int64
    /// The source's modification time (nanoseconds since 1970) when the location was made.
    package let sourceModified: Int64
    /// The source's inode when the location was made.
    package let sourceInode: UInt64
    /// A hash of the source's first and last ``contentCheckBytes`` bytes and its size, when the
    /// location was made: a file rewritten in place with the same size and time still differs here
    /// unless the change is all in its middle.
    package let contentCheck: UInt64

    /// How many bytes of each end of the source ``contentCheck`` reads.
    package static let contentCheckBytes = 64 * 1024

    /// What else tells this file's caches apart (a loader's options, as ``CSVTableLoader`` words them): part
    /// of ``databasePath`` when not empty.
    package let variant: String

    /// Bumped when the loader's database format (or the name's form) changes, so that old caches are rebuilt
    /// (3: missing-value tokens NULL in columns of numbers and dates; fields decoded one by one; 4: one
    /// database a file, the version it holds kept inside it, JSON files).
    static let formatVersion = 4

    /// The location of `source`'s cache in `directory` (by default `defaultDirectory(for:environment:)`),
    /// for the loader's options that `variant` names (see `variant`).
    /// Throws `CSVError.cannotOpen` when the source cannot be examined.
    public init(source: String, directory: String? = nil, variant: String = "") throws {
        self.variant = variant
        var fd: Int32
        repeat { fd = open(source, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw CSVError.cannotOpen(path: source, code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw CSVError.cannotOpen(path: source, code: errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw CSVError.cannotOpen(path: source, code: EISDIR) }
        sourcePath = CSVCacheLocation.absolute(source)
        self.directory = directory ?? CSVCacheLocation.defaultDirectory()
        sourceSize = Int64(info.st_size)
        sourceModified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        sourceInode = UInt64(info.st_ino)
        // Only a regular file's ends can be read without consuming it.
        contentCheck =
            (info.st_mode & S_IFMT) == S_IFREG
            ? try CSVCacheLocation.contentCheck(fd: fd, size: sourceSize, path: source) : 0
    }

    /// ``contentCheck(fd:size:path:)`` of the file at `path` as if it were `size` bytes long (its
    /// first `size` bytes: the part a cache loaded of a file that grew since).
    static func contentCheck(path: String, size: Int64) throws -> UInt64 {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw CSVError.cannotOpen(path: path, code: errno) }
        defer { close(fd) }
        return try contentCheck(fd: fd, size: size, path: path)
    }

    /// Whether the file at `path`'s byte before offset `size` is a line break (a CR or LF: the
    /// last record read had its line end). False for an empty file.
    static func endsWithLineBreak(path: String, size: Int64) -> Bool {
        guard size > 0 else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var byte: UInt8 = 0
        guard pread(fd, &byte, 1, off_t(size - 1)) == 1 else { return false }
        return byte == 0x0A || byte == 0x0D
    }

    /// FNV-1a of the first and last ``contentCheckBytes`` bytes of the open file `fd` (all of it when
    /// smaller) and of its size.
    static func contentCheck(fd: Int32, size: Int64, path: String) throws -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: UnsafeRawBufferPointer) {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        let chunk = Int64(contentCheckBytes)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: contentCheckBytes, alignment: 16)
        defer { buffer.deallocate() }
        var ranges: [(start: Int64, length: Int64)] = [(start: 0, length: min(size, 2 * chunk))]
        if size > 2 * chunk { ranges = [(start: 0, length: chunk), (start: size - chunk, length: chunk)] }
        for (start, length) in ranges {
            var done: Int64 = 0
            while done < length {
                let wanted = Int(min(length - done, chunk))
                let n = pread(fd, buffer.baseAddress, wanted, off_t(start + done))
                if n < 0 && errno == EINTR { continue }
                if n < 0 { throw CSVError.readFailed(path: path, code: errno) }
                if n == 0 { break }  // shorter than it said (being truncated): hashed as it is
                mix(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                done += Int64(n)
            }
        }
        withUnsafeBytes(of: size.littleEndian) { mix($0) }
        return hash
    }

    /// The folder of the caches when the app names none: `$XDG_CACHE_HOME/csv-tables`.
    package static let defaultApplication = "csv-tables"

    /// The cache folder of `application` (by default ``defaultApplication``): `$XDG_CACHE_HOME/<application>`,
    /// or `$HOME/.cache/<application>` (`XDGBaseDirectories`).
    ///
    ///     CSVCacheLocation.defaultDirectory(for: "books")   // "/home/ada/.cache/books"
    package static func defaultDirectory(
        for application: String = defaultApplication,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        XDGBaseDirectories(environment: environment).cache(application)
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

    /// The source's database (for the loader's options that `variant` names).
    public var databasePath: String {
        directory + "/" + namePrefix + (variant.isEmpty ? "" : "x" + CSVCacheLocation.hashText(variant) + "-")
            + "v\(CSVCacheLocation.formatVersion).sqlite"
    }

    /// True when the source's database holds this version of the source.
    package var isBuilt: Bool { storedState()?.describes(self) ?? false }

    /// What the database says it holds (nil: no database, or not one the loader made).
    func storedState() -> CSVCacheState? {
        guard FileManager.default.fileExists(atPath: databasePath) else { return nil }
        var options = Database.Options()
        options.readOnly = true
        options.create = false
        options.walMode = false
        guard let db = try? Database(path: databasePath, options: options) else { return nil }
        return (try? CSVCacheState.read(from: db)) ?? nil
    }

    /// True when the source's size, modification time, inode and content check are still the ones
    /// this location was made for.
    package var sourceIsUnchanged: Bool {
        guard let now = try? CSVCacheLocation(source: sourcePath, directory: directory, variant: variant) else {
            return false
        }
        return now.sourceSize == sourceSize && now.sourceModified == sourceModified
            && now.sourceInode == sourceInode && now.contentCheck == contentCheck
    }

    /// Makes the cache folder (and its parents) when missing, readable by the user only, tightens an
    /// existing one to `0700`, and checks that it can be written.
    ///
    /// - Throws: `CSVError.writeFailed` naming the folder (or the parent that could not be made) and
    ///   the system's reason: `EACCES` for a folder that cannot be written, `ENOTDIR` for a file in its
    ///   place, `ELOOP` for a symbolic link (never followed), `EPERM` for another user's folder.
    package func makeDirectory() throws {
        try CSVCacheLocation.makeDirectory(directory)
    }

    /// ``BaseDirectories/PrivateFiles/makeFolder(_:)``, then a check that `path` can be written.
    static func makeDirectory(_ path: String) throws {
        do { try PrivateFiles.makeFolder(path) } catch {
            throw CSVError.writeFailed(path: error.path, code: error.code)
        }
        guard access(path, W_OK | X_OK) == 0 else { throw CSVError.writeFailed(path: path, code: errno) }
    }

    /// Whether the source's database (if any) may be read as this user's own: tightened to `0600`
    /// with its companions, and not a link nor another user's.
    var isPrivate: Bool { (try? PrivateFiles.tighten(database: databasePath)) != nil }

    /// The folder used when the cache folder of `application` cannot be written:
    /// `$TMPDIR/<application>-cache-UID` (this user's own, mode 0700; refused when another user
    /// owns it or it is a link). ``CSVTableLoader`` names the application after its cache folder.
    ///
    ///     try CSVCacheLocation.fallbackDirectory(for: "books")   // "/tmp/books-cache-1000"
    package static func fallbackDirectory(for application: String = defaultApplication) throws -> String {
        let temporary =
            (ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp")
        let path = temporary + "/\(application)-cache-\(getuid())"
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw CSVError.writeFailed(path: path, code: errno) }
        var info = stat()
        guard lstat(path, &info) == 0 else { throw CSVError.writeFailed(path: path, code: errno) }
        guard (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else {
            throw CSVError.writeFailed(path: path, code: EPERM)
        }
        try makeDirectory(path)
        return path
    }

    /// This location in another cache folder.
    func moved(to directory: String) -> CSVCacheLocation {
        var copy = self
        copy.directory = directory
        return copy
    }

    /// A temporary path beside ``databasePath`` to build into (named after this process).
    func temporaryPath() -> String {
        databasePath + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Removes the source's other databases (of older formats, or other options), and the temporary
    /// files of loads whose process is gone (a load that was killed).
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
        return hex(hash)
    }

    /// 16 hexadecimal digits.
    private static func hex(_ value: UInt64) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
