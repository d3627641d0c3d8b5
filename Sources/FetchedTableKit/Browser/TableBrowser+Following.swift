import BulkImport
import FetchedResultsUI
import Foundation
import TerminalUI

/// A CSV or JSON file's following in the browser: ``CachedFileFollower`` polled by the loop, its
/// refresh on a thread of its own, what it found handed back to the loop's thread.
final class FileFollowing {
    /// What the refresh thread hands to the loop's thread: its progress, then its result.
    final class Handover: @unchecked Sendable {
        // @unchecked Sendable: every field is read and written under `lock`.
        private let lock = NSLock()
        private var progress: ImportProgress?
        private var result: Result<CSVTable, FetchedTableError>?

        func set(_ progress: ImportProgress) { lock.withLock { self.progress = progress } }
        func set(_ result: Result<CSVTable, FetchedTableError>) { lock.withLock { self.result = result } }
        /// The latest progress (taken) and the result, once there is one.
        func take() -> (ImportProgress?, Result<CSVTable, FetchedTableError>?) {
            lock.withLock {
                defer { progress = nil }
                return (progress, result)
            }
        }
    }

    let follower: CachedFileFollower
    /// The refresh running, if one is.
    var running: Handover?

    init(follower: CachedFileFollower) {
        self.follower = follower
    }
}

extension TableBrowser {
    /// How often the file's size and time are looked at (seconds): rows appended to it show about
    /// this soon (then the list's own poll of its store, ``ListScreenConfiguration/pollInterval``).
    static let followInterval = 0.25

    /// Follows the CSV or JSON file shown: rows appended to it appear in the list as inserts
    /// (the cache's history, read by the list's poll); a file changed otherwise is read again
    /// and shown anew, the status line saying so. A ticker of the loop polls the file and picks
    /// up the refresh's result (the run loop takes no posts from other threads yet).
    func startFollowing(environment: [String: String] = ProcessInfo.processInfo.environment) {
        following = FileFollowing(
            follower: CachedFileFollower(
                path: options.file,
                missingValues: options.missingValues,
                environment: environment
            )
        )
        loop.addTicker(every: TableBrowser.followInterval) { [weak self] _ in self?.followFile() }
    }

    /// One poll: the running refresh's progress or result, else a look at the file.
    func followFile() {
        guard let following else { return }
        if let running = following.running {
            let (progress, result) = running.take()
            if let result {
                following.running = nil
                finishRefresh(result)
            } else if let progress {
                // Only a new cache reports progress: the rows appended to one are a moment's work.
                let percent = progress.fraction.map { " \(Int($0 * 100)) %" } ?? ""
                list?.statusLine.showMessage("\(fileName) changed: reading it again…\(percent)", at: loop.clock.now)
            }
            return
        }
        guard following.follower.hasChanged() else { return }
        let handover = FileFollowing.Handover()
        following.running = handover
        let follower = following.follower
        let thread = Thread {
            do throws(FetchedTableError) {
                handover.set(.success(try follower.refresh(progress: { handover.set($0) })))
            } catch {
                handover.set(.failure(error))
            }
        }
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// The file's name, as the status line names it.
    var fileName: String { (database.path as NSString).lastPathComponent }

    /// The refresh is done: rows appended come through the list's store (nothing to do here);
    /// a new cache is shown anew; a failure is said, and the list stays as it was.
    func finishRefresh(_ result: Result<CSVTable, FetchedTableError>) {
        switch result {
        case .success(let table) where !table.wasReused && database.querySource != nil:
            // `--query`'s connection reads the cache the new one was renamed over.
            list?.statusLine.showMessage(
                "\(fileName) changed (not only grew): the query reads it as it was; open it again to query it now",
                at: loop.clock.now,
                duration: 10
            )
        case .success(let table):
            if !table.wasReused { reload(from: table) }
        case .failure(let error):
            list?.statusLine.showMessage(
                "\(error.message) (\(fileName) is followed again when it changes)",
                at: loop.clock.now,
                duration: 10,
                style: .error
            )
        }
    }

    /// The file was read into a new cache: its table opened there in place of the one shown
    /// (with the command line's options), the status line saying why.
    func reload(from table: CSVTable) {
        guard let list, let opened else { return }
        let previous = database
        do {
            let fresh = try TableDatabase(
                path: database.path,
                kind: database.kind,
                databasePath: table.databasePath,
                readOnly: true
            )
            guard let reopened = fresh.tables.first else { return }
            while let top = loop.topView, top !== list { loop.pop() }
            loop.remove(list)
            database = fresh
            do {
                try open(reopened)
            } catch {
                database = previous
                self.list = list
                self.opened = opened
                loop.push(list)
                throw error
            }
        } catch {
            list.statusLine.showMessage("\(error)", at: loop.clock.now, duration: 10, style: .error)
            return
        }
        let count = TableBrowser.groupedRowCountText(table.rowCount)
        self.list?.statusLine.showMessage(
            "\(fileName) changed: read again (\(count))",
            at: loop.clock.now,
            duration: 6
        )
    }
}
