import CSVImport
import Foundation

/// Writes synthetic FDIC Failed Bank Lists in the FDIC's current format, from a seed.
///
/// The output looks like the list the FDIC publishes today: the header
/// `Bank Name ,City ,State ,Cert ,Acquiring Institution ,Closing Date ,Fund`
/// (each name but the last followed by a no-break space), CRLF line ends,
/// dates like `26-Apr-24`, newest bank first, names with commas in quotes,
/// a few non-ASCII names ("Banco Español de Crédito", "Caisse Populaire
/// Sainte-Thérèse") and the en dash of "First–Citizens"; certs are unique,
/// closing dates spread over 2000–2025. The file is UTF-8 (the FDIC's own
/// file is Windows-1252; the reader accepts both). Same seed, same bytes.
///
/// It serves benchmarks (a million rows) and tests only: no person browses
/// invented banks (`Data/banklist.csv` is the FDIC's real list).
///
///     let generator = BankListGenerator(seed: 2024)
///     try generator.write(rows: 500, to: "Data/banklist.csv")
///     for bank in generator.banks(count: 3) { print(bank.name, bank.cert) }
public struct BankListGenerator: Sendable {
    /// One generated bank (one CSV row).
    public struct Bank: Sendable, Equatable {
        /// The bank's name, sometimes with a comma (", N.A.") or non-ASCII letters.
        public var name: String
        /// The city of the bank's head office.
        public var city: String
        /// Two-letter state code.
        public var state: String
        /// FDIC certificate number, unique within one generated list.
        public var cert: Int
        /// The acquirer, or "No Acquirer".
        public var acquiringInstitution: String
        /// The closing date (2000–2025, newest first in the list).
        package var closingDate: CalendarDay
        /// The FDIC fund number (counts down the list).
        public var fund: Int

        /// The row's fields in ``BankListGenerator/header`` order, dates as `26-Apr-24`.
        public var fields: [String] {
            [
                name, city, state, String(cert), acquiringInstitution,
                BankListGenerator.fdicDateText(closingDate), String(fund),
            ]
        }
    }

    /// The header row of the FDIC's current file (each name but "Fund" ends in U+00A0).
    public static let header: [String] = [
        "Bank Name\u{a0}", "City\u{a0}", "State\u{a0}", "Cert\u{a0}",
        "Acquiring Institution\u{a0}", "Closing Date\u{a0}", "Fund",
    ]

    /// The seed everything is derived from.
    public let seed: UInt64
    /// The first and last closing day of the spread.
    package let firstDay = CalendarDay(year: 2000, month: 1, day: 7)!
    /// The last closing day of the spread.
    package let lastDay = CalendarDay(year: 2025, month: 12, day: 19)!

    /// A generator whose every list is determined by `seed`.
    public init(seed: UInt64) { self.seed = seed }

    /// `26-Apr-24`: day without padding, English month abbreviation, two-digit year.
    package static func fdicDateText(_ day: CalendarDay) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let yy = day.year % 100
        return "\(day.day)-\(months[day.month - 1])-\(yy < 10 ? "0" : "")\(yy)"
    }

    /// The banks of a `count`-row list, newest closing first (generated lazily).
    public func banks(count: Int) -> some Sequence<Bank> {
        var rng = SplitMix64(seed: seed)
        // Certs: a scrambling bijection on k bits (odd multiply, add, xor-shift, odd multiply),
        // so certs are unique without a set and do not run in an arithmetic progression.
        var bits = 16
        while 1 << bits < count * 4 { bits += 1 }
        let mask = (1 << bits) - 1
        let a = Int(rng.next() & UInt64(mask)) | 1
        let b = Int(rng.next() & UInt64(mask))
        let c = Int(rng.next() & UInt64(mask)) | 1
        let shift = bits / 2 + 1
        func cert(_ i: Int) -> Int {
            var x = (a &* i &+ b) & mask
            x ^= x >> shift
            x = (x &* c) & mask
            return 1 + x
        }
        let firstNumber = firstDay.dayNumber
        let span = lastDay.dayNumber - firstNumber + 1
        let fundBase = 4_600
        return (0..<count).lazy.map { i -> Bank in
            // Slot i of `count` equal slots, newest first; a random day inside the slot.
            let slotStart = span * (count - 1 - i) / count
            let slotEnd = max(slotStart + 1, span * (count - i) / count)
            let day = CalendarDay(dayNumber: firstNumber + Int.random(in: slotStart..<slotEnd, using: &rng))
            let (city, state) = Self.places[Int.random(in: 0..<Self.places.count, using: &rng)]
            return Bank(
                name: Self.bankName(using: &rng, city: city),
                city: city,
                state: state,
                cert: cert(i),
                acquiringInstitution: Self.acquirer(using: &rng),
                closingDate: day,
                fund: fundBase + count - 1 - i
            )
        }
    }

    /// Writes a `rows`-row list (header included) to `path` (`"-"` for standard output).
    public func write(rows: Int, to path: String) throws {
        let writer = try CSVWriter(path: path, lineEnding: "\r\n")
        try write(rows: rows, to: writer)
        try writer.flush()
    }

    /// Writes a `rows`-row list (header included) to `writer`.
    public func write(rows: Int, to writer: CSVWriter) throws {
        try writer.write(Self.header)
        for bank in banks(count: rows) { try writer.write(bank.fields) }
    }

    // MARK: Vocabulary

    private static func bankName(using rng: inout SplitMix64, city: String) -> String {
        let roll = Int.random(in: 0..<1000, using: &rng)
        if roll < 8 { return unusualNames[Int.random(in: 0..<unusualNames.count, using: &rng)] }
        let first = firstWords[Int.random(in: 0..<firstWords.count, using: &rng)]
        let kind = kinds[Int.random(in: 0..<kinds.count, using: &rng)]
        var name: String
        switch Int.random(in: 0..<10, using: &rng) {
        case 0...2: name = "\(first) \(kind)"
        case 3...4: name = "\(kind) of \(city)"
        case 5: name = "The \(first) \(kind) of \(city)"
        default:
            let middle = second[Int.random(in: 0..<second.count, using: &rng)]
            name =
                kind.hasPrefix(middle) || kind.contains(" \(middle)")
                ? "\(first) \(kind)" : "\(first) \(middle) \(kind)"
        }
        if Int.random(in: 0..<100, using: &rng) < 22 {
            name += suffixes[Int.random(in: 0..<suffixes.count, using: &rng)]
        }
        return name
    }

    private static func acquirer(using rng: inout SplitMix64) -> String {
        let roll = Int.random(in: 0..<100, using: &rng)
        if roll < 9 { return "No Acquirer" }
        if roll < 12 { return "First–Citizens Bank & Trust Company" }
        let first = firstWords[Int.random(in: 0..<firstWords.count, using: &rng)]
        let kind = kinds[Int.random(in: 0..<kinds.count, using: &rng)]
        var name = "\(first) \(kind)"
        if roll < 30 { name += suffixes[Int.random(in: 0..<suffixes.count, using: &rng)] }
        return name
    }

    private static let firstWords = [
        "First", "Citizens", "Community", "Farmers", "Peoples", "Security", "Heritage", "Pacific",
        "Home", "United", "Valley", "Pioneer", "Liberty", "Capitol", "Frontier", "Horizon", "Summit",
        "Riverside", "Lakeside", "Mountain", "Prairie", "Coastal", "Golden", "Southern", "Northern",
        "Western", "Eastern", "American", "National", "Metro", "Sterling", "Patriot", "Cornerstone",
        "Mutual", "Integrity", "Allied", "Premier", "Guaranty", "Harbor", "Evergreen",
    ]
    private static let second = [
        "State", "Federal", "Savings", "Commerce", "Trust", "Merchants", "Mercantile", "Union", "Exchange", "Capital",
    ]
    private static let kinds = [
        "Bank", "State Bank", "National Bank", "Savings Bank", "Bank & Trust", "Bank and Trust Company",
        "Federal Savings Bank", "Community Bank", "Savings and Loan Association", "Trust Company",
    ]
    private static let suffixes = [", National Association", ", N.A.", ", fsb", ", Inc.", ", SSB"]
    private static let unusualNames = [
        "Banco Español de Crédito", "Caisse Populaire Sainte-Thérèse", "Première Banque Acadienne",
        "Banco Popular de Bayamón", "Citizens Bank of Española", "Peoples Bank \"The Hometown Bank\"",
        "Ka‘ū Federal Savings", "Bank of Coeur d’Alene",
    ]
    private static let places: [(String, String)] = [
        ("Phoenix", "AZ"), ("Santa Clara", "CA"), ("San Francisco", "CA"), ("Los Angeles", "CA"),
        ("Denver", "CO"), ("Atlanta", "GA"), ("Alpharetta", "GA"), ("Chicago", "IL"), ("Naperville", "IL"),
        ("Sac City", "IA"), ("Elkhart", "KS"), ("Almena", "KS"), ("New Orleans", "LA"), ("Boston", "MA"),
        ("Detroit", "MI"), ("Minneapolis", "MN"), ("Kansas City", "MO"), ("Reno", "NV"), ("Newark", "NJ"),
        ("New York", "NY"), ("Charlotte", "NC"), ("Columbus", "OH"), ("Lindsay", "OK"), ("Portland", "OR"),
        ("Philadelphia", "PA"), ("Española", "NM"), ("San Juan", "PR"), ("Bayamón", "PR"),
        ("Nashville", "TN"), ("Santa Anna", "TX"), ("Houston", "TX"), ("Salt Lake City", "UT"),
        ("Seattle", "WA"), ("Milwaukee", "WI"), ("Cheyenne", "WY"), ("Honolulu", "HI"),
        ("Coeur d’Alene", "ID"), ("Pawleys Island", "SC"), ("Key West", "FL"), ("Miami", "FL"),
    ]
}
