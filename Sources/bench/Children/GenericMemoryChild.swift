import CLIKit
import SQLiteStore

/// `bench --child generic-rss --db PATH`: opens the events database as a
/// foreign, read-only store, creates the `generic` group's controller
/// (``EventsFetch``), reads `VmRSS`, runs `performFetch`, reads `VmRSS` again,
/// and prints one line:
/// `generic-rss before_kb=… after_kb=… objects=… sections=…`.
///
/// A process of its own, so the difference is the controller's and nothing
/// else's (SQLite's page cache, bounded at its default 2 MB, is part of it).
enum GenericMemoryChild {
    static let spec = CommandSpec(
        name: "bench --child generic-rss",
        summary: "Resident memory added by one fetched controller over the events table.",
        usage: "--db PATH",
        options: [OptionSpec("--db", value: "PATH", help: "the events database")]
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            guard let path = parsed.value("--db") else {
                throw CommandLineError.usage("bench --child generic-rss: --db PATH is required")
            }
            let opened = try EventsFetch.open(path, readOnly: true)
            let controller = EventsFetch.controller(opened, context: ObjectContext(store: opened.store))
            return try FetchMemoryChild.measure(controller, label: "generic-rss")
        }
    }
}
