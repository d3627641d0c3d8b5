import Foundation

/// What a live query's status line says of its result: when it was last brought up to date,
/// and from which change — the same words whatever the database.
///
///     QueryRefreshText.text(at: date, cause: .commit(tables: ["orders"]))
///     // "refreshed 12:03:41 after a commit to orders"
///     QueryRefreshText.text(at: date, cause: .firstRun)   // "run 12:03:41"
public enum QueryRefreshText {
    /// Why the query ran.
    public enum Cause: Equatable, Sendable {
        /// Its first run.
        case firstRun
        /// Another connection committed to these tables (SQLite's `data_version` and the tables' history).
        case commit(tables: [String])
        /// A change to these tables was announced (a PostgreSQL change feed's notification).
        case change(tables: [String])
        /// A poll found it due (no change is announced for its tables).
        case poll
        /// It was asked for.
        case asked
    }

    /// "refreshed 12:03:41 after a commit to orders, customers", "run 12:03:41" (a first run),
    /// "refreshed 12:03:41 by a poll", "refreshed 12:03:41 as asked"; the time in `timeZone`.
    public static func text(at date: Date, cause: Cause, timeZone: TimeZone = .current) -> String {
        let time = clockTime(date, timeZone: timeZone)
        switch cause {
        case .firstRun: return "run \(time)"
        case .commit(let tables) where !tables.isEmpty:
            return "refreshed \(time) after a commit to \(tables.joined(separator: ", "))"
        case .change(let tables) where !tables.isEmpty:
            return "refreshed \(time) after a change to \(tables.joined(separator: ", "))"
        case .poll: return "refreshed \(time) by a poll"
        case .commit, .change, .asked: return "refreshed \(time) as asked"
        }
    }

    /// "12:03:41".
    static func clockTime(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        return "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }
}
