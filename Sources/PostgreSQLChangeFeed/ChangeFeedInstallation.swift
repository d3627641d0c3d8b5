/// What a table's change feed is on the server now (``ChangeFeed/installation(on:)``).
///
///     let found = try feed.installation(on: connection)
///     if !found.isInstalled { try feed.install(on: connection) }
///     else if !found.canRead { print("ask \(found.owner ?? "the owner") for SELECT on the history") }
public struct ChangeFeedInstallation: Hashable, Sendable {
    /// Names this installation of the table's triggers — the history table's oid and a
    /// digest of the triggers' own (on each partition too): any trigger dropped and made
    /// again, disabled, or the history made again gives another. Empty when not all of the
    /// table's triggers are in place and enabled.
    public let installation: String
    /// Whether the table's triggers are in place (``installation`` is not empty).
    public var isInstalled: Bool { !installation.isEmpty }
    /// Some of the table's triggers are there, but not all of them enabled: a partition
    /// attached after ``ChangeFeed/install(on:)`` has none, or a trigger was dropped or
    /// disabled. Changes are not all recorded until ``ChangeFeed/install(on:)`` runs again.
    public let isIncomplete: Bool
    /// Installed by an earlier version of this library, whose capture function was
    /// `SECURITY DEFINER` and callable by every role: ``ChangeFeed/install(on:)``, run by
    /// ``owner``, upgrades it in place.
    public let isOutdated: Bool
    /// The history table's owner; nil when there is no history table.
    public let owner: String?
    /// Whether the connected role may read the history (`SELECT`; row-level security then
    /// shows it the rows of the tables it may read).
    public let canRead: Bool

    /// An installation as found.
    package init(installation: String, isIncomplete: Bool = false, isOutdated: Bool, owner: String?, canRead: Bool) {
        self.installation = installation
        self.isIncomplete = isIncomplete
        self.isOutdated = isOutdated
        self.owner = owner
        self.canRead = canRead
    }
}

/// What ``ChangeFeed/install(on:)`` did.
public enum ChangeFeedInstallResult: Hashable, Sendable {
    /// The table's triggers were made (and the history, when no other table had made it).
    case installed
    /// Everything was in place already; nothing changed, and readers are not disturbed.
    case alreadyInstalled
    /// The history had been installed by an earlier version of this library (a
    /// `SECURITY DEFINER` capture function every role could call): its function was
    /// replaced, its privileges set, and the triggers of `tables` — the other tables it
    /// tracked, as quoted names — made again; then the table's own were installed.
    case upgraded(tables: [String])
}
