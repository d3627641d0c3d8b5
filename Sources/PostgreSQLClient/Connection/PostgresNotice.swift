import CLibPQ

/// A message the server sent beside a statement's result rather than as it: a `NOTICE` or
/// `WARNING` (`RAISE NOTICE`, `DROP TRIGGER IF EXISTS`'s "does not exist, skipping"), or an
/// error that arrived while the connection was idle (`FATAL: terminating connection due to
/// administrator command`). libpq prints these on stderr unless told otherwise — over a
/// full-screen program's display — so every ``PostgresConnection`` takes them instead, keeps
/// the last few (``PostgresConnection/recentNotices``) and hands each to its
/// ``PostgresConnection/noticeHandler``.
///
///     connection.noticeHandler = { notice in log.append("\(notice)") }
///     try connection.execute("DO $$ BEGIN RAISE NOTICE 'hello'; END $$")   // log: "NOTICE: hello"
public struct PostgresNotice: Hashable, Sendable, CustomStringConvertible {
    /// `NOTICE`, `WARNING`, `INFO`, `LOG`, `DEBUG`, or `ERROR`/`FATAL` for an error that came while idle.
    public let severity: String
    /// The server's message, without its severity.
    public let message: String
    /// The SQLSTATE (`00000` for a plain notice).
    public let sqlState: String

    /// `SEVERITY: message`, on one line.
    public var description: String { "\(severity): \(message)" }

    init(result: OpaquePointer) {
        let field = { (code: Character) -> String? in
            PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
        }
        severity = field("V") ?? field("S") ?? "NOTICE"
        let text = field("M") ?? String(cString: PQresultErrorMessage(result))
        message = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        sqlState = field("C") ?? ""
    }
}

/// Where a connection's libpq handle sends its notices (its `arg`): one per connection, kept
/// alive as long as the handle.
final class NoticeSink {
    static let kept = 20
    var recent: [PostgresNotice] = []
    var handler: ((PostgresNotice) -> Void)?

    func receive(_ notice: PostgresNotice) {
        recent.append(notice)
        if recent.count > NoticeSink.kept { recent.removeFirst(recent.count - NoticeSink.kept) }
        handler?(notice)
    }

    /// Installs the sink as `handle`'s notice receiver (libpq's default prints on stderr).
    func install(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        PQsetNoticeReceiver(
            handle,
            { context, result in
                guard let context, let result else { return }
                Unmanaged<NoticeSink>.fromOpaque(context).takeUnretainedValue()
                    .receive(PostgresNotice(result: result))
            },
            context
        )
    }
}
