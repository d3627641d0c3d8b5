import FetchedResultsScripts
import SQLiteStore

/// What `failedbanks update` did, and its last line:
///
///     update: 3 new, 1 changed, 571 unchanged — newest: Held Bank (Eastport, ME), closed 14 November 2025
package struct UpdateSummary: Sendable, Equatable {
    /// The newest bank in the store after the update.
    package struct Bank: Sendable, Equatable {
        package var name, city, state, closeDate: String
    }

    /// The list's address.
    package var url: String
    /// Bytes downloaded.
    package var bytes: Int
    /// Banks new to the store, changed (same cert, some value differs), unchanged.
    package var new: Int
    package var changed: Int
    package var unchanged: Int
    package var newest: Bank?
    /// The address that answered, when the server redirected there (nil without a redirect).
    package var redirectedTo: String?

    package init(url: String, bytes: Int, new: Int, changed: Int, unchanged: Int, newest: Bank? = nil) {
        (self.url, self.bytes, self.new, self.changed, self.unchanged, self.newest) = (
            url, bytes, new, changed, unchanged, newest
        )
    }

    /// `update: N new, C changed, U unchanged — newest: NAME (CITY, ST), closed 14 November 2025`,
    /// the bank's name, city and state (text from the downloaded list) with their control characters
    /// escaped (``DisplayText/escapingControls(_:)``), so that none reaches the terminal.
    package var summaryLine: String {
        var line = "update: \(new) new, \(changed) changed, \(unchanged) unchanged"
        if let newest {
            let name = DisplayText.escapingControls(newest.name)
            let place = [newest.city, newest.state].filter { !$0.isEmpty }.map(DisplayText.escapingControls)
                .joined(separator: ", ")
            let closed = DisplayText.escapingControls(UpdateSummary.dayMonthYear(newest.closeDate))
            line += " — newest: \(name)\(place.isEmpty ? "" : " (\(place))"), closed \(closed)"
        }
        return line
    }

    /// "14 November 2025" for "2025-11-14" (the text itself when it is not a date).
    static func dayMonthYear(_ storeDate: String) -> String {
        guard let (year, month, day) = LongDate.components(storeDate) else { return storeDate }
        return "\(day) \(LongDate.months[month - 1]) \(year)"
    }

    /// `update: redirected to URL` (escaped), when the server redirected; nil otherwise.
    package var redirectLine: String? {
        redirectedTo.map { "update: downloaded from \(DisplayText.escapingControls($0)) (redirected)" }
    }

    /// The bank with the latest closing date (by name among those of that day).
    static func newestBank(in db: Database) throws -> Bank? {
        let rows = try db.query(
            """
            SELECT i.name, i.city, i.state, d.close_date
            FROM failed_bank_info AS i JOIN failed_bank_details AS d ON d.info_id = i.id
            ORDER BY d.close_date DESC, i.name COLLATE NOCASE, i.id LIMIT 1
            """
        )
        guard let row = rows.first else { return nil }
        return Bank(
            name: row[0].string ?? "",
            city: row[1].string ?? "",
            state: row[2].string ?? "",
            closeDate: row[3].string ?? ""
        )
    }
}
