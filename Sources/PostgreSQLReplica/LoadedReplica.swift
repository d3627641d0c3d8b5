import PostgreSQLChangeFeed
import PostgreSQLClient
import SQLiteStore

/// A replica as its copy left it: the file, the shape of the table, and
/// where on the server the copy stands (its snapshot, the change counters).
struct LoadedReplica: Sendable {
    let table: ReplicaTable
    let shape: ReplicaShape
    /// The copy's transaction snapshot, under the change history's installation then: the
    /// history is read after it.
    let position: ChangeFeedPosition
    /// The table's change counters just before the copy.
    let counters: ChangeCounters
    /// Whether the change history was installed when the copy was made
    /// (if not, a tracking follower installs it and refetches once).
    var wasTracked: Bool { !position.installation.isEmpty }
    /// The names of the file's tracking table and triggers.
    let tracking: TrackingNames
}
