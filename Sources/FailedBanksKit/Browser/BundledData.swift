import Glibc

/// Finds the bundled `Data/banklist.csv` (the FDIC's Failed Bank List) that the first launch imports.
///
/// The executable lives in `<package>/.build/<config>/failedbanks`, so the
/// file is found by walking up from the executable's real path; an installed
/// executable (`PREFIX/bin/failedbanks`, by the Debian package or
/// `scripts/install.sh`) finds `PREFIX/share/fetchedtable-tools/banklist.csv`;
/// `$FAILEDBANKS_DATA` points elsewhere (the CSV file itself, or a directory
/// holding `banklist.csv`).
///
///     if let csv = BundledData.bankListPath() { … import it … }
package enum BundledData {
    /// The file name looked for.
    package static let fileName = "banklist.csv"
    /// The folder under `PREFIX/share` where an installed copy keeps it.
    package static let installedFolder = "fetchedtable-tools"

    /// The path of the bundled CSV, or nil when none is found.
    package static func bankListPath(
        environment: [String: String] = currentEnvironment(),
        executablePath: String? = currentExecutablePath()
    ) -> String? {
        if let override = environment["FAILEDBANKS_DATA"], !override.isEmpty {
            if isDirectory(override) {
                let candidate = joined(override, fileName)
                return isRegularFile(candidate) ? candidate : nil
            }
            return isRegularFile(override) ? override : nil
        }
        guard let executablePath else { return nil }
        var directory = parent(of: executablePath)
        let installed = joined(joined(joined(parent(of: directory), "share"), installedFolder), fileName)
        if isRegularFile(installed) { return installed }
        while !directory.isEmpty {
            let candidate = joined(joined(directory, "Data"), fileName)
            if isRegularFile(candidate) { return candidate }
            if directory == "/" { break }
            directory = parent(of: directory)
        }
        return nil
    }

    /// The process environment as a dictionary.
    package static func currentEnvironment() -> [String: String] { ProcessEnvironment.current() }

    /// The running executable's resolved path (`/proc/self/exe` on Linux).
    package static func currentExecutablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            buffer[count] = 0
            return String(cString: buffer)
        }
        guard let argument0 = CommandLine.arguments.first, argument0.contains("/") else { return nil }
        guard let resolved = realpath(argument0, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
