#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SQLiteStore

/// Where the failedbanks store lives, and opening it.
///
/// The path is `--db` when given, else `$FAILEDBANKS_DB`, else
/// `$XDG_DATA_HOME/failedbanks/failedbanks.sqlite`, else
/// `~/.local/share/failedbanks/failedbanks.sqlite`. Opening for writing
/// creates the missing directories.
///
///     let store = try FailedBankStore.open(path: nil)          // the default location
///     let readOnly = try FailedBankStore.open(path: "/tmp/b.sqlite", readOnly: true)
public enum FailedBankStore {
    /// The default store path from the environment (see the type's summary).
    public static func defaultPath(environment: [String: String] = currentEnvironment()) -> String {
        if let explicit = environment["FAILEDBANKS_DB"], !explicit.isEmpty { return explicit }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? homeFromPasswd() ?? "."
            dataHome = home + "/.local/share"
        }
        return dataHome + "/failedbanks/failedbanks.sqlite"
    }

    /// Opens (creating when writable and missing) the store at `path`, or at ``defaultPath(environment:)``.
    public static func open(path: String?, readOnly: Bool = false) throws -> Store {
        let resolved = path ?? defaultPath()
        if !readOnly { try createParentDirectories(of: resolved) }
        return try Store(path: resolved, model: FailedBankModel.model, readOnly: readOnly)
    }

    /// Errors creating the store's directory.
    public struct DirectoryError: Error, CustomStringConvertible {
        /// The directory that could not be created.
        public let path: String
        /// `errno` of the failed `mkdir`.
        public let code: Int32
        public var description: String { "cannot create directory \(path): \(String(cString: strerror(code)))" }
    }

    /// `mkdir -p` of the directory that will hold `path`.
    static func createParentDirectories(of path: String) throws {
        guard let slash = path.lastIndex(of: "/") else { return }
        let directory = String(path[..<slash])
        guard !directory.isEmpty else { return }
        var current = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw DirectoryError(path: current, code: errno)
            }
        }
    }

    /// The process environment.
    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    private static func homeFromPasswd() -> String? {
        guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }
}
