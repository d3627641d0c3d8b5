import CLIKit
import Foundation

extension Stash {
    /// The stash at `path` as every command opens it: with this machine's record of what it last
    /// saw of each stash (`SeenStashes`, under `$XDG_STATE_HOME/mystash`), so that unlocking
    /// notices a stash put back from an older copy and limits edited in its header.
    ///
    ///     let stash = try Stash.forCommand(path: path)
    static func forCommand(path: String, readOnly: Bool = false) throws -> Stash {
        let stash = try Stash(path: path, readOnly: readOnly)
        stash.seen = SeenStashes(environment: ProcessInfo.processInfo.environment)
        return stash
    }

    /// Says on stderr when this machine's record could not be written (then a rollback of the
    /// file would go unnoticed next time).
    func warnIfNotRemembered() {
        guard let seenFailure else { return }
        printError("warning: \(seenFailure): a stash put back from an older copy cannot be noticed next time")
    }

    /// What a command says when the stash was put back from an older copy: the finding, naming
    /// both generations, and how to go on.
    static func rollbackAdvice(_ rollback: SeenStashes.Rollback) -> String {
        "\(rollback); nothing was opened. If you put it back yourself, run again with --accept-rollback"
            + " (generation \(rollback.foundGeneration) then becomes the one remembered here)"
    }
}
