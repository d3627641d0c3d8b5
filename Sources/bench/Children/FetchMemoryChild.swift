import CLIKit
import FailedBanksKit
import FetchedResults
import SQLiteStore

/// `bench --child fetch-rss --db PATH`: opens the store, creates the Date
/// tab's controller, reads `VmRSS`, runs `performFetch`, reads `VmRSS`
/// again, and prints one line:
/// `fetch-rss before_kb=… after_kb=… objects=… sections=…`.
///
/// A process of its own, so the difference is the controller's and nothing else's.
enum FetchMemoryChild {
    static let spec = CommandSpec(
        name: "bench --child fetch-rss",
        summary: "Resident memory added by one fetched controller.",
        usage: "--db PATH",
        options: [OptionSpec("--db", value: "PATH", help: "the failedbanks store")]
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            guard let path = parsed.value("--db") else {
                throw CommandLineError.usage("bench --child fetch-rss: --db PATH is required")
            }
            let store = try FailedBankStore.open(path: path)
            let context = ObjectContext(store: store)
            return try measure(BankFetch.controller(context: context), label: "fetch-rss")
        }
    }

    /// Reads `VmRSS`, runs `controller`'s `performFetch`, reads it again and prints
    /// `label before_kb=… after_kb=… objects=… sections=…` (the children's one line).
    static func measure(_ controller: FetchedResultsController, label: String) throws -> Int32 {
        guard let before = ProcessMemory.residentKilobytes() else {
            printError("cannot read /proc/self/status")
            return ExitStatus.software
        }
        try controller.performFetch()
        guard let after = ProcessMemory.residentKilobytes() else { return ExitStatus.software }
        print(
            "\(label) before_kb=\(before) after_kb=\(after) objects=\(controller.numberOfObjects) sections=\(controller.numberOfSections)"
        )
        withExtendedLifetime(controller) {}
        return ExitStatus.ok
    }

    /// `key=value` fields of the printed line, as numbers.
    static func parse(_ line: String) -> [String: Double] {
        var fields: [String: Double] = [:]
        for part in line.split(separator: " ") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2, let value = Double(pair[1]) { fields[String(pair[0])] = value }
        }
        return fields
    }
}
