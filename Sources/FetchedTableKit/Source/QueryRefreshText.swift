import Foundation
import SQLiteStore

extension QuerySource {
    /// When a query's result was last refreshed and from which change, as the browser's status
    /// line and `watch` say it: "refreshed 22:41:07 after a change to orders: 1 updated", or
    /// "refreshed 22:41:07: no change" for a run nothing notified (a poll, or asked for). One
    /// sentence for every engine's source (a SQLite file's and a server's).
    ///
    ///     QuerySource.refreshedText(refresh)   // "refreshed 22:41:07 after a change to orders: 1 inserted"
    package static func refreshedText(_ refresh: QueryRefresh, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: refresh.date)
        let time = [parts.hour, parts.minute, parts.second].map { String(format: "%02d", $0 ?? 0) }
            .joined(separator: ":")
        let cause = refresh.tables.isEmpty ? "" : " after a change to " + refresh.tables.joined(separator: ", ")
        return "refreshed \(time)\(cause): \(refresh.change)"
    }
}
