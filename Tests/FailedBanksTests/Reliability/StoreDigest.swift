import Foundation
import TestSupport

/// What a failedbanks store holds, reduced to counts and a hash, read with
/// the `sqlite3` shell (independently of the app). Two stores with the same
/// digest hold the same banks with the same ids and values.
///
/// The crash tests compute the two acceptable states once (before and after
/// a complete import) and then compare every killed trial with them.
///
///     let check = try StoreDigest.check(store)
///     #expect(check.integrity == "ok")
///     #expect(check.digest == before || check.digest == after)
struct StoreDigest: Equatable, CustomStringConvertible {
    var banks: Int
    var details: Int
    /// FNV-1a over the rows of both tables, ordered by cert (details with their bank) then by id (banks without details).
    var hash: UInt64

    var description: String { "\(banks) banks, \(details) details, hash \(String(hash, radix: 16))" }

    /// `PRAGMA integrity_check` and the digest, in one `sqlite3` run.
    static func check(_ store: String) throws -> (integrity: String, digest: StoreDigest) {
        guard let sqlite3 = BrowserFixture.sqlite3 else { throw EndToEndError("no sqlite3") }
        let marker = "--8<--"
        let sql = """
            PRAGMA integrity_check;
            SELECT '\(marker)';
            SELECT count(*) FROM failed_bank_info;
            SELECT count(*) FROM failed_bank_details;
            SELECT i.id, i.name, i.city, i.state, d.id, d.cert, d.close_date, d.updated_date, d.acquiring_institution, d.fund
              FROM failed_bank_details AS d LEFT JOIN failed_bank_info AS i ON i.id = d.info_id ORDER BY d.cert, d.id;
            SELECT i.id, i.name, i.city, i.state FROM failed_bank_info AS i
              WHERE NOT EXISTS (SELECT 1 FROM failed_bank_details AS d WHERE d.info_id = i.id) ORDER BY i.id;
            """
        let result = try ProcessRunner.run(
            sqlite3,
            ["-batch", "-cmd", ".timeout 10000", "-separator", "\u{1f}", store, sql]
        )
        guard result.status == 0 else {
            throw EndToEndError("sqlite3 could not read \(store) (\(result.status)): \(result.standardError)")
        }
        let output = result.standardOutput
        guard let split = output.range(of: marker + "\n") else {
            throw EndToEndError("unexpected sqlite3 output: \(output.prefix(500))")
        }
        let integrity = output[..<split.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        let rest = output[split.upperBound...]
        var lines = rest.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count >= 2, let banks = Int(lines[0]), let details = Int(lines[1]) else {
            throw EndToEndError("unexpected sqlite3 output: \(rest.prefix(500))")
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        if lines.count == 3 {
            for byte in lines[2].utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        lines.removeAll()
        return (integrity, StoreDigest(banks: banks, details: details, hash: hash))
    }
}
