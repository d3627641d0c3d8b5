import CLIKit
import Foundation
import PostgreSQLReplica

/// `fetchedtable cache [--clear] [--cache-limit SIZE]`: the local copies of server tables in
/// `$XDG_CACHE_HOME/fetchedtable/postgres/` — each with its table, size, last use and whether a
/// running session uses it — and their total; `--clear` removes every copy no session uses,
/// `--cache-limit` removes the least recently used until the rest fit.
///
///     CacheCommand.run(["--clear"])   // "removed 3 copies (412 MB); 1 in use kept"
package enum CacheCommand {
    static let spec = CommandSpec(
        name: "fetchedtable cache",
        summary: "List the local copies of PostgreSQL tables, or remove them.",
        usage: "[--clear] [--cache-limit SIZE]",
        options: [
            OptionSpec("--clear", value: nil, help: "remove every copy no running session uses"),
            TableOptions.cacheLimitOption,
        ],
        minPositionals: 0,
        maxPositionals: 0,
        epilogue: """
            A session keeps its own copy of each table it opens while it runs; the next session of a tracked
            table takes it over, another copies the table again. Copies of running sessions are never removed.
            The browser, list and watch keep the copies within --cache-limit (1G by default).
            """
    )

    /// Runs the subcommand with `arguments` (after `cache`); returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        run(arguments, output: { print($0) }, errorOutput: { writeStandardError($0 + "\n") })
    }

    /// The same with the lines going to closures, for tests.
    static func run(
        _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        output: (String) -> Void,
        errorOutput: (String) -> Void
    ) -> Int32 {
        FetchedTableCommand.run(spec: spec, arguments: arguments, help: output, errorOutput: errorOutput) { parsed in
            let directory = PostgresCopy.cacheDirectory(environment: environment)
            let cache = ReplicaCache(directory: directory)
            let limit = try parsed.value("--cache-limit").map { text throws(OptionError) in
                try CacheLimit(parsing: text)
            }
            if parsed.flag("--clear") || limit != nil {
                let before = cache.entries()
                let removed = limit.map { cache.prune(toFit: $0.bytes) } ?? cache.remove(before)
                let bytes = removed.reduce(Int64(0)) { $0 + $1.bytes }
                let inUse = before.filter(\.isInUse).count
                output(
                    "removed \(removed.count) cop\(removed.count == 1 ? "y" : "ies") (\(CacheLimit.text(bytes)))"
                        + (inUse > 0 ? "; \(inUse) in use kept" : "")
                )
                return ExitStatus.ok
            }
            let entries = cache.entries().reversed()
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            let width = entries.map(\.table.count).max() ?? 0
            for entry in entries {
                let size = CacheLimit.text(entry.bytes)
                let use = entry.isInUse ? "  in use (process \(entry.processID))" : ""
                output(
                    entry.table.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                        + String(repeating: " ", count: max(0, 8 - size.count)) + size + "  "
                        + formatter.string(from: entry.lastUsed) + use
                )
            }
            let total = entries.reduce(Int64(0)) { $0 + $1.bytes }
            output(
                "\(entries.count) cop\(entries.count == 1 ? "y" : "ies"), \(CacheLimit.text(total)), in \(directory)"
            )
            return ExitStatus.ok
        }
    }
}
