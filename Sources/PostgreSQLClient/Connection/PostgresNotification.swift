/// A `NOTIFY` that reached a connection listening on its channel.
public struct PostgresNotification: Hashable, Sendable {
    /// The channel it was sent on.
    public let channel: String
    /// The payload (empty when none was given).
    public let payload: String
    /// The process ID of the backend that sent it.
    public let senderPID: Int32
}
