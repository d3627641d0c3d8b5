import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient

/// The thread that keeps a replica current: its own server connection and
/// its own connection to the replica file.
///
/// Tracking, it listens on the history's channel and, on each notification
/// (and every few seconds regardless), reads the history after the last
/// position it applied and re-reads the rows of the keys it names. Not
/// tracking, it compares the table's change counters about once a second
/// (and, for a small table, the server's write position) and refetches the
/// table when they moved — a view's or a partitioned table's are those of its
/// tables or partitions; a view followed with `track` also listens to its tables'
/// histories (``Catalog/sourceTables(of:on:)``), and a notification of one refetches it
/// at once. A broken connection is reported, retried with
/// backoff (0.25 s doubling to 5 s), and followed by a catch-up: the history
/// after the position (nothing lost), or a refetch.
///
/// The history is trusted only while it is the one read last: every read checks the
/// feed's installation in the same snapshot (``ChangeFeedPosition/installation``). Its
/// triggers made again (changes made in between are in no history) mean a refetch; the
/// history gone (`untrack`, dropped or disabled triggers) means a refetch, then polling,
/// reported as ``ReplicaStatus/untracked(reason:)`` — the follower installs the history
/// only before it has seen it in place, so it never undoes an `untrack`.
///
/// Rows that can change without a write (a view over a foreign table or calling `now()`:
/// `Catalog.unfollowableSources(of:on:)`) are copied again every so often instead, and
/// each copy reported as ``ReplicaStatus/notLive(reason:checkedAt:)``.
///
/// A server that stops answering without closing the connection (stopped,
/// frozen, a cable pulled) is found by the cheap statements of each round —
/// the heartbeat, the change counters — which may take `contactTimeout` at
/// most: then the connection is dropped and `.reconnecting` reported, within
/// about two seconds, while the long statements (a refetch) keep the replica's
/// whole timeout.
final class ReplicaFollower: @unchecked Sendable {
    /// A replica this small is refetched whenever the server's write position moves
    /// (the change counters can lag by up to 10 s).
    static let smallTable = 20_000
    /// How long a wait for a notification (or a poll's sleep) lasts at most.
    static let tick = 0.25
    /// Seconds a heartbeat or change signal may take before the server counts as out of reach.
    static let contactTimeout = 2.0
    /// Seconds between two checks that the table still has the replica's columns (a rename or an
    /// added column raises no history and, before a statement fails, no error).
    static let shapeCheckInterval = 5.0

    private let replica: LoadedReplica
    private let track: Bool
    private let connect: @Sendable () throws -> PostgresConnection
    private let timeout: Double
    private let status: @Sendable (ReplicaStatus) -> Void
    private let applied: (@Sendable (ReplicaBatch) -> Void)?
    private let condition = NSCondition()
    private var stopped = false
    private var finished = false

    init(
        replica: LoadedReplica,
        track: Bool,
        connect: @escaping @Sendable () throws -> PostgresConnection,
        timeout: Double,
        status: @escaping @Sendable (ReplicaStatus) -> Void,
        applied: (@Sendable (ReplicaBatch) -> Void)?
    ) {
        self.replica = replica
        self.track = track && (replica.shape.feed != nil || replica.shape.description.kind == .view)
        self.connect = connect
        self.timeout = timeout
        self.status = status
        self.applied = applied
    }

    func start() {
        let thread = Thread { [self] in
            run()
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "replica follower"
        thread.start()
    }

    /// Asks the thread to end, and with `waiting` waits until it has.
    func stop(waiting: Bool = true) {
        condition.lock()
        stopped = true
        condition.broadcast()
        while waiting && !finished { condition.wait() }
        condition.unlock()
    }

    private var isStopped: Bool { condition.withLock { stopped } }

    /// Sleeps up to `seconds`, less when stopped; false when stopped.
    private func pause(_ seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let until = Date(timeIntervalSinceNow: seconds)
        while !stopped && condition.wait(until: until) {}
        return !stopped
    }

    // MARK: The loop

    /// The least time between two copies of a table that cannot be followed.
    static let refreshInterval = 5.0

    private struct State {
        var connection: PostgresConnection?
        var position: ChangeFeedPosition
        var counters: ChangeCounters
        var writePosition = ""
        var needsRefetch: Bool
        /// Following the history (else polling or refreshing).
        var tracking: Bool
        /// The history may be installed: not yet seen in place (afterwards it is never made again).
        var mayInstall = true
        /// What keeps the rows from being followed (nil: not asked yet on this connection).
        var unfollowable: [String]?
        var lastContact = Date()
        var failing = false
        var lastError = ""
        var backoff = 0.25
        var lastRead = Date.distantPast
        var lastPrune = Date.distantPast
        var lastShapeCheck = Date()
        var needsShapeCheck = false
        var lastRefresh = Date()
        var lastPoll = Date.distantPast
        /// A tracked view: the labels of its tables' histories, whose notifications wake a refetch.
        var wakeLabels: Set<String> = []
        var refreshDuration = 0.0
    }

    private func run() {
        let store: ReplicaStore
        do {
            store = try ReplicaStore(path: replica.table.path, shape: replica.shape, tracking: replica.tracking)
        } catch {
            status(.reconnecting(since: Date(), lastError: "cannot open the replica: \(error)"))
            return
        }
        let sync = ReplicaSync(store: store)
        var state = State(
            position: replica.position,
            counters: replica.counters,
            needsRefetch: track && replica.shape.feed != nil && !replica.wasTracked,
            tracking: track
        )
        while !isStopped {
            do {
                try step(&state, sync: sync)
                state.lastContact = Date()
                state.backoff = 0.25
                if state.failing {
                    state.failing = false
                    status(currentStatus(state))
                }
            } catch let change as ReplicaShapeChange {
                // Copying again is the owner's to do, with the new columns: this replica is of the old ones.
                status(.tableChanged(reason: change.reason))
                break
            } catch {
                state.connection = nil
                // A statement the server refused may name a column that is no longer there.
                if ((error as? PostgresError)?.sqlState ?? "").hasPrefix("42") { state.needsShapeCheck = true }
                state.unfollowable = nil
                // After a reconnect: the history at once (notifications sent meanwhile are lost), or a refetch.
                state.lastRead = .distantPast
                if !followsHistory(state) { state.needsRefetch = true }
                let message = (error as? PostgresError)?.description ?? "\(error)"
                if !state.failing || message != state.lastError {
                    state.failing = true
                    state.lastError = message
                    status(.after(error, lastContact: state.lastContact, table: replica.shape.source))
                }
                if !pause(state.backoff) { break }
                state.backoff = min(state.backoff * 2, 5)
            }
        }
    }

    /// One round: connect if needed, wait for a signal, apply what changed.
    private func step(_ state: inout State, sync: ReplicaSync) throws {
        if state.connection == nil {
            let connection = try connect()
            try connectFeed(&state, connection: connection)
            if !followsHistory(state) {
                state.unfollowable = try Catalog.unfollowableSources(of: replica.shape.source, on: connection)
            }
            state.connection = connection
            if !state.failing { status(currentStatus(state)) }
        }
        guard let connection = state.connection else { return }
        if state.needsShapeCheck || Date().timeIntervalSince(state.lastShapeCheck) > ReplicaFollower.shapeCheckInterval
        {
            state.needsShapeCheck = false
            state.lastShapeCheck = Date()
            if let change = try quickly(on: connection, { try replica.shape.change(on: $0) }) { throw change }
        }
        if state.unfollowable == nil && !followsHistory(state) {
            state.unfollowable = try Catalog.unfollowableSources(of: replica.shape.source, on: connection)
        }
        if state.needsRefetch {
            let (batch, position) = try sync.refetch(on: connection)
            state.position = position
            state.counters = try Catalog.changeCounters(of: replica.shape.source, on: connection)
            state.needsRefetch = false
            report(batch)
        }
        if followsHistory(state), let feed = replica.shape.feed {
            try followHistory(feed, &state, connection: connection, sync: sync)
        } else if let reason = notLiveReason(state) {
            try refresh(&state, reason: reason, connection: connection, sync: sync)
        } else {
            try poll(&state, connection: connection, sync: sync)
        }
    }

    /// Tracking, on a new connection: the history installed if it never was in place (then
    /// the table copied again: what was written before it is in no history), and listened
    /// to; found gone after it was in place, tracking ends.
    private func connectFeed(_ state: inout State, connection: PostgresConnection) throws {
        guard state.tracking else { return }
        guard let feed = replica.shape.feed else { return try listenToTables(&state, connection: connection) }
        let found = try feed.installation(on: connection)
        if !found.isInstalled {
            guard state.mayInstall else {
                stopTracking(&state, incomplete: found.isIncomplete)
                return
            }
            try feed.install(on: connection)
            state.needsRefetch = true
        }
        state.mayInstall = false
        try connection.listen(feed.configuration.channel)
    }

    /// Whether the rows are read from the table's own history (else polled, or copied again).
    private func followsHistory(_ state: State) -> Bool { state.tracking && replica.shape.feed != nil }

    /// A tracked view, on a new connection: a notification of one of its tables' histories
    /// (`--track` on the view installs them) wakes a refetch at once, where the change
    /// counters can take up to ten seconds to move. Tables without a history are polled.
    private func listenToTables(_ state: inout State, connection: PostgresConnection) throws {
        let tables = try Catalog.sourceTables(of: replica.shape.source, on: connection)
        let feeds = tables.map { ChangeFeed(table: $0, keyColumns: [], configuration: replica.shape.changeFeed) }
        state.wakeLabels = Set(try feeds.filter { try $0.isInstalled(on: connection) }.map(\.tableLabel))
        if !state.wakeLabels.isEmpty { try connection.listen(replica.shape.changeFeed.channel) }
    }

    /// The history is gone, or `incomplete` (some triggers left: a partition attached since,
    /// a trigger dropped or disabled): the table is copied again and followed by polling from now on.
    private func stopTracking(_ state: inout State, incomplete: Bool) {
        state.tracking = false
        state.needsRefetch = true
        state.unfollowable = nil
        if let feed = replica.shape.feed { _ = try? state.connection?.unlisten(feed.configuration.channel) }
        let why =
            incomplete
            ? "the change history misses a partition or trigger (--track again)"
            : "the change history was removed (untrack)"
        status(.untracked(reason: "\(why): polling \(replica.shape.source) from now on"))
    }

    /// `.live`, or `.notLive` since the last copy when the rows cannot be followed.
    private func currentStatus(_ state: State) -> ReplicaStatus {
        guard let reason = notLiveReason(state) else { return .live }
        return .notLive(reason: reason, checkedAt: state.lastRefresh)
    }

    /// Why the rows cannot be followed, when they cannot.
    private func notLiveReason(_ state: State) -> String? {
        guard let unfollowable = state.unfollowable, !unfollowable.isEmpty else { return nil }
        return "it reads " + unfollowable.joined(separator: ", ")
    }

    private func followHistory(
        _ feed: ChangeFeed,
        _ state: inout State,
        connection: PostgresConnection,
        sync: ReplicaSync
    ) throws {
        let woken = try connection.waitForNotifications(timeout: ReplicaFollower.tick)
        // A notification says "read"; without one, read every few seconds anyway (cheap: an index probe).
        guard !woken.isEmpty || Date().timeIntervalSince(state.lastRead) > 5 else {
            _ = try connection.query("SELECT 1", timeout: contactTimeout)  // a frozen server shows within it
            return
        }
        state.lastRead = Date()
        let batch = try feed.read(after: state.position, on: connection)
        if batch.position.installation.isEmpty {
            stopTracking(&state, incomplete: (try? feed.installation(on: connection).isIncomplete) ?? false)
            return
        }
        if batch.needsRefetch {
            // Truncated, behind the retention, or the history made again: what it misses is read from the table.
            let (refetched, position) = try sync.refetch(on: connection)
            state.position = position
            report(refetched)
            return
        }
        if !batch.changes.isEmpty {
            report(try sync.refresh(keys: batch.changes.map(\.key), on: connection, position: batch.position))
        }
        state.position = batch.position
        if Date().timeIntervalSince(state.lastPrune) > 3600 {
            state.lastPrune = Date()
            _ = try? feed.prune(on: connection)
        }
    }

    private func poll(_ state: inout State, connection: PostgresConnection, sync: ReplicaSync) throws {
        var woken = false
        if state.wakeLabels.isEmpty {
            guard pause(1) else { return }
        } else {
            let notifications = try connection.waitForNotifications(timeout: ReplicaFollower.tick)
            woken = notifications.contains { state.wakeLabels.contains($0.payload) }
            guard woken || Date().timeIntervalSince(state.lastPoll) >= 1 else { return }
        }
        state.lastPoll = Date()
        let counters = try quickly(on: connection) { try Catalog.changeCounters(of: replica.shape.source, on: $0) }
        var moved = woken || counters != state.counters
        if !moved && replica.table.rowCount <= ReplicaFollower.smallTable {
            let position = try quickly(on: connection) { try Catalog.writePosition(on: $0) }
            moved = !state.writePosition.isEmpty && position != state.writePosition
            state.writePosition = position
        }
        guard moved else { return }
        state.counters = counters
        let (batch, _) = try sync.refetch(on: connection)
        state.writePosition = try Catalog.writePosition(on: connection)
        report(batch)
    }

    /// Rows no counter follows: copied again (a refetch and diff) every ``refreshInterval``
    /// seconds at least, and ten times as long as the last copy took (so that it costs the
    /// server a tenth of its time at most), with a heartbeat each second in between.
    private func refresh(
        _ state: inout State,
        reason: String,
        connection: PostgresConnection,
        sync: ReplicaSync
    ) throws {
        let interval = max(ReplicaFollower.refreshInterval, 10 * state.refreshDuration)
        let wait = interval - Date().timeIntervalSince(state.lastRefresh)
        if wait > 0 {
            guard pause(min(wait, 1)) else { return }
            _ = try connection.query("SELECT 1", timeout: contactTimeout)
            return
        }
        let started = Date()
        let (batch, position) = try sync.refetch(on: connection)
        state.position = position
        state.lastRefresh = Date()
        state.refreshDuration = state.lastRefresh.timeIntervalSince(started)
        report(batch)
        status(.notLive(reason: reason, checkedAt: state.lastRefresh))
    }

    /// The timeout of the cheap statements: the replica's, at most `contactTimeout`.
    private var contactTimeout: Double { min(timeout, ReplicaFollower.contactTimeout) }

    /// Runs the cheap statements of `body` with `contactTimeout` as the statement timeout.
    private func quickly<T>(on connection: PostgresConnection, _ body: (PostgresConnection) throws -> T) throws -> T {
        let saved = connection.statementTimeout
        connection.statementTimeout = contactTimeout
        defer { connection.statementTimeout = saved }
        return try body(connection)
    }

    private func report(_ batch: ReplicaBatch) {
        if !batch.isEmpty { applied?(batch) }
    }
}
