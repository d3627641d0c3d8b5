import CLIKit

/// Starts the full-screen app on an unlocked stash and returns the exit status.
struct StashAppLauncher {
    let stash: Stash
    var animated = true

    func run() -> Int32 {
        printError("the full-screen app is not yet available")
        return ExitStatus.software
    }
}
