#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLIKit

/// Everything between the parsed command line and the first frame: the
/// store, the first-launch import, the terminal check.
struct BrowserLauncher {
    var options: BrowserOptions

    func run() -> Int32 {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            printError("the browser needs a terminal on stdin and stdout (use 'failedbanks list' in scripts)")
            return ExitStatus.failure
        }
        printError("the browser is not yet available")
        return ExitStatus.software
    }
}
