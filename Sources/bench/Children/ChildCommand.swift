import CLIKit
import FailedBanksKit
import FetchedTableKit

/// The child processes `bench` starts by re-running itself, for the
/// measurements that need a process of their own (resident memory, a
/// terminal):
///
/// - `bench --child failedbanks ARGS…`: exactly `failedbanks ARGS…` (the
///   same `FailedBanksCommand`), used when no up-to-date `failedbanks`
///   executable sits beside `bench`;
/// - `bench --child fetchedtable ARGS…`: exactly `fetchedtable ARGS…`, likewise;
/// - `bench --child fetch-rss --db PATH`: see ``FetchMemoryChild``;
/// - `bench --child generic-rss --db PATH`: see ``GenericMemoryChild``;
/// - `bench --child scroll-tty`: see ``ScrollTerminalChild``.
enum ChildCommand {
    static func run(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else {
            printError("--child needs a name: failedbanks, fetchedtable, fetch-rss, generic-rss or scroll-tty")
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "failedbanks":
            ProgramName.current = "failedbanks"
            return FailedBanksCommand.main(rest)
        case "fetch-rss":
            return FetchMemoryChild.run(rest)
        case "generic-rss":
            return GenericMemoryChild.run(rest)
        case "fetchedtable":
            ProgramName.current = "fetchedtable"
            return FetchedTableCommand.main(rest)
        case "scroll-tty":
            return ScrollTerminalChild.run(rest)
        default:
            printError("unknown child '\(name)'")
            return ExitStatus.usage
        }
    }
}
