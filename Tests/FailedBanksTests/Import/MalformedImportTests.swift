import Foundation
import SQLiteStore
import Testing

@testable import FailedBanksKit

/// Each kind of bad input: the exit status, the `FILE:LINE` message, and the store unchanged —
/// both for an empty store (bulk path) and for a store that already holds banks (upsert path).
@Suite struct MalformedImportTests {
    static let good =
        currentHeader
        + "First Bank,Reno,NV,1001,Second Bank,26-Apr-24,10001\r\n"
        + "\"Security Bank, N.A.\",Elko,NV,1002,No Acquirer,3-Nov-23,10002\r\n"

    /// A store holding the two good banks (or nothing), and its snapshot.
    static func sandbox(prefilled: Bool) throws -> (ImportSandbox, StoreSnapshot?) {
        let sandbox = ImportSandbox()
        guard prefilled else { return (sandbox, nil) }
        let result = sandbox.run([sandbox.file("good.csv", good)])
        #expect(result.status == 0, "\(result.errorText)")
        return (sandbox, try sandbox.snapshot())
    }

    /// Runs `body` on an empty and on a prefilled store (`body`'s second argument), then expects
    /// the store as it was: the prefilled one unchanged, the empty one without rows.
    static func expectStoreUnchanged(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (ImportSandbox, Bool) throws -> Void
    ) throws {
        for prefilled in [false, true] {
            let (sandbox, before) = try Self.sandbox(prefilled: prefilled)
            defer { sandbox.remove() }
            try body(sandbox, prefilled)
            let after = try sandbox.snapshot()
            if let before {
                #expect(after == before, "prefilled \(prefilled): store changed", sourceLocation: sourceLocation)
            } else {
                #expect(
                    after.bankCount == 0 && after.infoCount == 0,
                    "empty store received rows",
                    sourceLocation: sourceLocation
                )
            }
        }
    }

    /// Imports `text`; expects `status`, a message containing each of `messages`, and no change.
    func expectRefused(
        _ text: String,
        status: Int32 = 65,
        messages: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try Self.expectStoreUnchanged(sourceLocation: sourceLocation) { sandbox, prefilled in
            let path = sandbox.file("bad.csv", text)
            let result = sandbox.run([path])
            #expect(
                result.status == status,
                "prefilled \(prefilled): \(result.errorText)",
                sourceLocation: sourceLocation
            )
            #expect(result.output.isEmpty, "prefilled \(prefilled)", sourceLocation: sourceLocation)
            for message in messages {
                let expected = message.replacingOccurrences(of: "FILE", with: path)
                #expect(
                    result.errors.contains { $0.contains(expected) },
                    "prefilled \(prefilled): wanted \(expected) in \(result.errors)",
                    sourceLocation: sourceLocation
                )
            }
        }
    }

    @Test func aRowWithTheWrongNumberOfFieldsRefusesTheFile() throws {
        try expectRefused(
            currentHeader + "A Bank,Reno,NV,2001,X,1-Jan-20,1\r\nB Bank,Reno,NV,2002,1-Jan-20,2\r\n",
            messages: ["FILE:3: expected 7 fields, found 6"]
        )
    }

    @Test func aBadDateRefusesTheFileNamingColumnAndValue() throws {
        try expectRefused(
            currentHeader + "A Bank,Reno,NV,2001,X,31-Foo-24,1\r\n",
            messages: ["FILE:2: not a valid date (column \"Closing Date\", value \"31-Foo-24\")"]
        )
        try expectRefused(
            currentHeader + "A Bank,Reno,NV,2001,X,31-Feb-24,1\r\n",
            messages: ["FILE:2: not a valid date (column \"Closing Date\", value \"31-Feb-24\")"]
        )
    }

    @Test func aBadNumberRefusesTheFile() throws {
        try expectRefused(
            currentHeader + "A Bank,Reno,NV,20x1,X,1-Jan-20,1\r\n",
            messages: ["FILE:2: not a whole number (column \"Cert\", value \"20x1\")"]
        )
        try expectRefused(
            currentHeader + "A Bank,Reno,NV,2001,X,1-Jan-20,-5\r\n",
            messages: ["FILE:2: not a whole number (column \"Fund\", value \"-5\")"]
        )
    }

    @Test func aMissingNameOrCertRefusesTheFile() throws {
        try expectRefused(
            currentHeader + "A Bank,Reno,NV,2001,X,1-Jan-20,1\r\n  ,Reno,NV,2002,X,1-Jan-20,2\r\n",
            messages: ["FILE:3: missing bank name (column \"Bank Name\", value \"\")"]
        )
        try expectRefused(
            currentHeader + "A Bank,Reno,NV,,X,1-Jan-20,1\r\n",
            messages: ["FILE:2: missing cert (column \"Cert\", value \"\")"]
        )
    }

    @Test func aCertRepeatedWithinTheFileRefusesItAndNamesTheFirstLine() throws {
        try expectRefused(
            currentHeader
                + "A Bank,Reno,NV,2001,X,1-Jan-20,1\r\n\"B\r\nBank\",Reno,NV,2002,X,1-Jan-20,2\r\nC Bank,Reno,NV,2001,X,1-Jan-20,3\r\n",
            messages: ["FILE:5: duplicate cert, first on line 2 (column \"Cert\", value \"2001\")"]
        )
    }

    @Test func aMissingColumnIsNamed() throws {
        try expectRefused(
            "Bank Name,City,State,Acquiring Institution,Fund\r\nA,B,C,D,1\r\n",
            messages: ["FILE:1: missing required columns \"Cert\", \"Closing Date\""]
        )
    }

    @Test func anEmptyOrHeaderOnlyFileImportsNothing() throws {
        try expectRefused("", messages: ["FILE: the file is empty"])
        try expectRefused("\r\n\r\n", messages: ["FILE: the file is empty"])
        try expectRefused(currentHeader, messages: ["FILE: the file has a header row but no banks"])
    }

    @Test func anUnterminatedQuoteIsReportedAtTheRecordsLine() throws {
        try expectRefused(
            currentHeader + "A Bank,Reno,NV,2001,X,1-Jan-20,1\r\n\"B Bank,Reno,NV,2002,X,1-Jan-20,2\r\n",
            messages: ["FILE:3: a quoted field is not closed before the end of the file"]
        )
    }

    @Test func aMissingFileExitsWith66() throws {
        let (sandbox, before) = try Self.sandbox(prefilled: true)
        defer { sandbox.remove() }
        let result = sandbox.run([sandbox.directory + "/nope.csv"])
        #expect(result.status == 66)
        #expect(
            result.errors.contains {
                $0.contains("cannot open \(sandbox.directory)/nope.csv: No such file or directory")
            },
            "\(result.errors)"
        )
        #expect(try sandbox.snapshot() == before)
    }

    @Test func atMostTwentyErrorsAreListedThenCounted() throws {
        var text = currentHeader
        // 30-Feb … 39-Feb: all bad.
        for i in 0..<25 { text += "Bank \(i),Reno,NV,\(3000 + i),X,3\(i % 10)-Feb-24,1\r\n" }
        try expectRefused(
            text,
            messages: [
                "FILE:2: not a valid date", "FILE:21: not a valid date", "… and 5 more errors",
                "FILE: nothing imported: 25 bad rows (use --skip-bad-rows to import the good rows)",
            ]
        )
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        let result = sandbox.run([sandbox.file("bad.csv", text)])
        #expect(result.errors.filter { $0.contains("not a valid date") }.count == 20)
    }

    @Test func skipBadRowsImportsTheGoodRowsAndReportsTheBadOnes() throws {
        for prefilled in [false, true] {
            let (sandbox, _) = try Self.sandbox(prefilled: prefilled)
            defer { sandbox.remove() }
            let path = sandbox.file(
                "mixed.csv",
                currentHeader
                    + "A Bank,Reno,NV,2001,X,1-Jan-20,1\r\n"
                    + "B Bank,Reno,NV,2002,X,31-Foo-24,2\r\n"
                    + "C Bank,Reno,NV,2001,X,1-Jan-20,3\r\n"
                    + "D Bank,Reno,NV,2004,,2/29/2024,\r\n"
            )
            let result = sandbox.run([path, "--skip-bad-rows"])
            #expect(result.status == 0, "\(result.errorText)")
            #expect(
                result.errors.contains("\(path):3: not a valid date (column \"Closing Date\", value \"31-Foo-24\")"),
                "\(result.errors)"
            )
            #expect(
                result.errors.contains("\(path):4: duplicate cert, first on line 2 (column \"Cert\", value \"2001\")"),
                "\(result.errors)"
            )
            #expect(
                result.output.first?.hasPrefix(
                    "imported 2 rows from \(path): 2 added, 0 updated, 0 unchanged, 2 skipped in "
                ) == true,
                "\(result.output)"
            )
            let db = try Database(path: sandbox.storePath)
            #expect(
                try db.query(
                    "SELECT cert, close_date, acquiring_institution, fund FROM failed_bank_details WHERE cert > 2000 ORDER BY cert"
                )
                    == [
                        [.integer(2001), .text("2020-01-01"), .text("X"), .integer(1)],
                        [.integer(2004), .text("2024-02-29"), .null, .null],
                    ]
            )
        }
        // Every row bad: nothing imported, status 65.
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        let result = sandbox.run([
            sandbox.file("bad.csv", currentHeader + "A,B,C,x,D,1-Jan-20,1\r\n"), "--skip-bad-rows",
        ])
        #expect(result.status == 65)
    }

    @Test func usageErrorsExitWith64() {
        #expect(runImport([]).status == 64)
        #expect(runImport(["--no-such-option", "x.csv"]).status == 64)
        #expect(runImport(["x.csv", "--db"]).status == 64)
        #expect(runImport(["--help"]).status == 0)
    }

    @Test func laterFilesAreStillImportedAfterABadOne() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        let bad = sandbox.file("bad.csv", currentHeader + "A,B,C,x,D,1-Jan-20,1\r\n")
        let good = sandbox.file("good.csv", Self.good)
        let result = sandbox.run([bad, good])
        #expect(result.status == 65)
        #expect(result.output.count == 1)
        #expect(try sandbox.snapshot().bankCount == 2)
    }

    @Test func quietDropsTheSummaryButNotTheErrors() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        let ok = sandbox.run([sandbox.file("good.csv", Self.good), "--quiet"])
        #expect(ok.status == 0 && ok.output.isEmpty && ok.errors.isEmpty)
        let bad = sandbox.run([sandbox.file("bad.csv", currentHeader + "A,B,C,x,D,1-Jan-20,1\r\n"), "--quiet"])
        #expect(bad.status == 65 && !bad.errors.isEmpty)
    }
}
