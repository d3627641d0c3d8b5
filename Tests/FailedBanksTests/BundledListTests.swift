import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FailedBanksKit

/// `Data/banklist.csv` is the FDIC's Failed Bank List as of 27 June 2025, in the
/// FDIC's own format: Windows-1252, CRLF, the header names ending in a no-break
/// space; no re-save damage (`†`, `FirstñCitizens`).
@Suite struct BundledListTests {
    static let path = BrowserFixture.packageRoot.appendingPathComponent("Data/banklist.csv").path

    @Test func theBundledFileIsTheFDICsFormatWithoutResaveDamage() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.path)))
        let header = Array(
            "Bank Name\u{a0},City\u{a0},State\u{a0},Cert\u{a0},Acquiring Institution\u{a0},Closing Date\u{a0},Fund\r\n"
                .unicodeScalars.map { UInt8($0.value) }
        )
        #expect(bytes.starts(with: header), "the 2024 file's header, no-break spaces as byte 0xA0, CRLF")
        #expect(!bytes.starts(with: [0xEF, 0xBB, 0xBF]), "no UTF-8 byte order mark")
        #expect(bytes.suffix(2) == [0x0D, 0x0A], "the last line ends in CRLF")
        // Every line ends in CRLF: no bare LF.
        let bareLF = zip(bytes.dropFirst(), bytes).filter { $0.0 == 0x0A && $0.1 != 0x0D }.count
        #expect(bareLF == 0)
        // Windows-1252: the en dash of First–Citizens is the single byte 0x96; no UTF-8 sequences.
        #expect(bytes.contains(0x96))
        let text = String(decoding: bytes.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        #expect(
            text.contains(
                "Silicon Valley Bank,Santa Clara,CA,24735,First?Citizens Bank & Trust Company,10-Mar-23,10539"
            )
        )
        #expect(!bytes.contains(0xE2), "no UTF-8 lead byte of † or the en dash")
        #expect(!bytes.contains(0xF1), "no ñ")
    }

    @Test func importingItGives572RealBanksNewestFirstSantaAnna() throws {
        let scratch = TemporaryDirectory("bundled")
        defer { scratch.remove() }
        let store = try FailedBankStore.open(path: scratch.path("banks.sqlite"))
        let summary = try BankImporter(store: store).importFile(Self.path)
        #expect(summary.added == 572)
        #expect(summary.skipped == 0)
        let db = store.database
        #expect(try db.scalar("SELECT count(*) FROM failed_bank_info").int64 == 572)
        let newest = try db.query(
            """
            SELECT i.name, i.city, i.state, d.close_date, d.cert, d.acquiring_institution, d.fund
            FROM failed_bank_info i JOIN failed_bank_details d ON d.info_id = i.id
            ORDER BY d.close_date DESC LIMIT 3
            """
        )
        #expect(
            newest.map { $0[0].string } == [
                "The Santa Anna National Bank", "Pulaski Savings Bank", "First National Bank of Lindsay",
            ]
        )
        #expect(newest[0].map(\.description) == StoreRowExpectation.santaAnna)
        let oldest = try db.query(
            """
            SELECT i.name, d.close_date FROM failed_bank_info i JOIN failed_bank_details d ON d.info_id = i.id
            ORDER BY d.close_date ASC, i.name LIMIT 1
            """
        )
        #expect(oldest.first?[0].string == "Bank of Honolulu")
        #expect(oldest.first?[1].string == "2000-10-13")
        let svb = try db.scalar(
            """
            SELECT d.acquiring_institution FROM failed_bank_details d WHERE d.cert = 24735
            """
        )
        #expect(svb.string == "First–Citizens Bank & Trust Company")
        #expect(
            try db.scalar("SELECT count(*) FROM failed_bank_info WHERE name GLOB '*[†ñ]*' OR city GLOB '*[†ñ]*'").int64
                == 0
        )
    }
}

/// The expected columns of The Santa Anna National Bank's row, as `StoreValue` descriptions.
enum StoreRowExpectation {
    static let santaAnna = [
        StoreValue.text("The Santa Anna National Bank"), .text("Santa Anna"), .text("TX"), .text("2025-06-27"),
        .integer(5520), .text("Coleman County State Bank"), .integer(10549),
    ].map(\.description)
}
