import Foundation

/// What the store holds, read with the `sqlite3` shell (independently of the
/// app), so the end-to-end tests can say what the screen must show.
struct StoreFacts {
    struct Bank: Equatable {
        var id: Int64
        var name: String
        var city: String
        var state: String
        var closeDate: String
        var year: String { String(closeDate.prefix(4)) }
        var cityState: String { "\(city), \(state)" }
    }

    /// Every bank in the browser's date order: closing date newest first, name (NOCASE), id.
    let byDate: [Bank]

    init(_ fixture: BrowserFixture) throws {
        byDate = try StoreFacts.banks(fixture, orderBy: "d.close_date DESC, i.name COLLATE NOCASE, i.id")
    }

    static func banks(_ fixture: BrowserFixture, orderBy: String) throws -> [Bank] {
        let text = try fixture.sql(
            """
            SELECT i.id, i.name, i.city, i.state, d.close_date
            FROM failed_bank_info AS i JOIN failed_bank_details AS d ON d.info_id = i.id
            ORDER BY \(orderBy);
            """,
            separator: "\u{1f}"
        )
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "\u{1f}", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 5, let id = Int64(f[0]) else { return nil }
            return Bank(id: id, name: f[1], city: f[2], state: f[3], closeDate: f[4])
        }
    }

    /// Distinct years, newest first.
    var years: [String] {
        var seen: [String] = []
        for bank in byDate where seen.last != bank.year { seen.append(bank.year) }
        return seen
    }

    func count(inYear year: String) -> Int { byDate.filter { $0.year == year }.count }

    /// The 1-based position of the first bank of `year` in date order.
    func firstPosition(ofYear year: String) -> Int {
        (byDate.firstIndex { $0.year == year } ?? 0) + 1
    }
}

extension String {
    /// The screen's lines.
    var lines: [String] { split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The first line index containing `text`.
    func lineIndex(containing text: String) -> Int? { lines.firstIndex { $0.contains(text) } }

    /// Whether the screen shows a prefix of `name` long enough to identify it
    /// (names are truncated with `…` when they do not fit).
    func showsName(_ name: String) -> Bool { contains(String(name.prefix(24))) }
}
