import BaseDirectories
import Foundation

/// The queries run from the browser's `:` line, oldest first, kept in
/// `$XDG_STATE_HOME/fetchedtable/query-history` (`~/.local/state` when unset): one JSON
/// string a line (a query may span lines), in a file only its user may read (`0600`, its
/// folder `0700`: a query may name private data). A query run again right after itself is
/// kept once; the oldest go beyond ``limit``.
///
///     var history = QueryHistory(path: QueryHistory.standardPath())
///     history.record("SELECT count(*) FROM student")
///     history.entries.last   // "SELECT count(*) FROM student"
struct QueryHistory {
    /// The file.
    let path: String
    /// The queries, oldest first.
    private(set) var entries: [String] = []
    /// The most queries kept.
    var limit = 500

    /// The history kept at `path` (read now; a missing or unreadable file is an empty history).
    init(path: String) {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else { return }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        entries = lines.compactMap { line in
            try? JSONDecoder().decode(String.self, from: Data(line.utf8))
        }
    }

    /// `$XDG_STATE_HOME/fetchedtable/query-history`.
    static func standardPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        XDGBaseDirectories(environment: environment).state("fetchedtable", "query-history")
    }

    /// Adds `query` (after the same one: not again), drops the oldest beyond ``limit``, and
    /// writes the file; why it could not be written, if it could not (the history in memory is kept).
    @discardableResult
    mutating func record(_ query: String) -> String? {
        let query = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty, entries.last != query else { return nil }
        entries.append(query)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
        return save()
    }

    /// Writes every entry to a private temporary file renamed over the file.
    private func save() -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = path + ".new"
        do {
            try PrivateFiles.makeFolder(folder)
            unlink(temporary)
            try PrivateFiles.createFile(temporary)
            let lines = try entries.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
            let text = lines.joined(separator: "\n") + "\n"
            guard let handle = FileHandle(forWritingAtPath: temporary) else {
                return "\(temporary): cannot be written"
            }
            defer { try? handle.close() }
            try handle.write(contentsOf: Data(text.utf8))
            guard rename(temporary, path) == 0 else { return "\(path): \(String(cString: strerror(errno)))" }
            return nil
        } catch {
            unlink(temporary)
            return "\(error)"
        }
    }
}
