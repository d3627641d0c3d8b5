import Foundation
import SQLiteStore
import Synchronization
import TerminalUI

extension ListScreen {
    /// What the status line says while another program's lock keeps the screen's store waiting.
    public static let lockWaitMessage = "waiting for another program's write lock…"

    /// A wait for another program's lock, on a connection of its own off the loop's thread.
    final class LockWait: Sendable {
        /// Whether the wait needs the write lock (a save), or only to read (a poll).
        let forWriting: Bool
        private let stopped = Atomic<Bool>(false)

        init(forWriting: Bool) { self.forWriting = forWriting }

        /// Ends the wait at its next try (the screen went away).
        func stop() { stopped.store(true, ordering: .relaxed) }
        var isStopped: Bool { stopped.load(ordering: .relaxed) }
    }

    /// With ``ListScreenConfiguration/neverWaitsForLocks``: the store's connection gives up at
    /// once when another program holds a lock (a connection of its own waits instead).
    func applyLockPolicy() {
        guard configuration.neverWaitsForLocks else { return }
        try? store.database.execute("PRAGMA busy_timeout = 0")
    }

    /// Whether `error` is another program's lock that the screen's connection did not wait for.
    func isLockedOut(_ error: Error) -> Bool {
        configuration.neverWaitsForLocks && (error as? SQLiteError)?.isBusy == true
    }

    /// Another program holds the store locked: says so (after `prefix`, e.g. the delete waiting),
    /// and waits for the lock on a connection of its own, off the loop's thread, which posts
    /// ``lockFreed()`` when it can read (or, `forWriting`, write) the file. Meanwhile the screen
    /// does not poll.
    func waitForLock(forWriting: Bool, saying prefix: String = "") {
        statusLine.showMessage(prefix + ListScreen.lockWaitMessage, at: now, duration: 3600)
        if let lockWait, lockWait.forWriting || !forWriting { return }
        lockWait?.stop()
        let wait = LockWait(forWriting: forWriting)
        lockWait = wait
        let path = store.path
        loop.perform {
            ListScreen.waitUntilUnlocked(path: path, for: wait)
        } then: { [weak self] _ in
            guard let self, self.lockWait === wait else { return }
            self.lockFreed()
        }
    }

    /// The lock is gone (posted by the wait): the write that met it is done now (it may meet
    /// another lock, and wait again), and the store is polled.
    func lockFreed() {
        lockWait = nil
        statusLine.clearMessage()
        if let write = writeWaitingForLock {
            writeWaitingForLock = nil
            write()
        }
        if lockWait == nil { pollExternalChanges() }
    }

    /// Tries, on a connection of its own with a short busy timeout, until the file at `path`
    /// can be read (`wait.forWriting`: locked exclusively, then let go at once) — or the wait
    /// is stopped. Writes nothing: `BEGIN EXCLUSIVE` is rolled back, the journal mode is left
    /// as it is, the connection does not checkpoint.
    static func waitUntilUnlocked(path: String, for wait: LockWait) {
        var options = Database.Options()
        options.create = false
        options.walMode = false
        options.readOnly = !wait.forWriting
        options.checkpointsOnClose = false
        options.busyTimeoutMilliseconds = 100
        guard let database = try? Database(path: path, options: options) else { return }
        while !wait.isStopped {
            do {
                if wait.forWriting {
                    try database.execute("BEGIN EXCLUSIVE")
                    try database.execute("ROLLBACK")
                } else {
                    _ = try database.scalar("SELECT count(*) FROM sqlite_master")
                }
                return
            } catch let error as SQLiteError where error.isBusy {
                continue
            } catch {
                return  // not a lock: the screen tries again, and says what it is
            }
        }
    }
}
