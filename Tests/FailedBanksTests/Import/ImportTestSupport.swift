import Foundation
import SQLiteStore
import TestSupport

@testable import FailedBanksKit

/// The outcome of one `failedbanks import` run in-process.
struct ImportRunResult {
    var status: Int32
    var output: [String]
    var errors: [String]
    var errorText: String { errors.joined(separator: "\n") }
}

/// Runs `failedbanks import` with `arguments`, capturing its lines.
func runImport(_ arguments: [String]) -> ImportRunResult {
    var output: [String] = []
    var errors: [String] = []
    let status = ImportCommand.run(
        arguments,
        output: { output.append($0) },
        errorOutput: { errors.append($0) },
        progressBars: false
    )
    return ImportRunResult(status: status, output: output, errors: errors)
}

/// A temporary folder with a store path and helpers to write CSV files into it.
struct ImportSandbox {
    let directory: String
    var storePath: String { directory + "/banks.sqlite" }

    init() { directory = makeTemporaryDirectory("import") }

    func file(_ name: String, _ text: String) -> String {
        let path = directory + "/" + name
        writeFile(path, text)
        return path
    }

    func file(_ name: String, bytes: [UInt8]) -> String {
        let path = directory + "/" + name
        writeFile(path, bytes)
        return path
    }

    func run(_ arguments: [String]) -> ImportRunResult {
        runImport(arguments + ["--db", storePath])
    }

    /// Every bank as one sorted line, plus the history length: a fingerprint of the store's content.
    func snapshot() throws -> StoreSnapshot {
        let db = try Database(path: storePath)
        let rows = try db.query(
            """
            SELECT i.id, i.name, i.city, i.state, d.id, d.info_id, d.close_date, d.updated_date, d.cert,
                   d.acquiring_institution, d.fund
            FROM failed_bank_details d LEFT JOIN failed_bank_info i ON i.id = d.info_id ORDER BY d.cert
            """
        )
        let infoCount = try db.scalar("SELECT count(*) FROM failed_bank_info").int64 ?? -1
        let history = try db.scalar("SELECT count(*) FROM store_history").int64 ?? -1
        return StoreSnapshot(rows: rows, infoCount: infoCount, historyCount: history)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

struct StoreSnapshot: Equatable {
    var rows: [[StoreValue]]
    var infoCount: Int64
    var historyCount: Int64
    var bankCount: Int { rows.count }
}

/// The path of a real-world file in `Tests/Fixtures` (part of the repository: a test that needs a missing one fails).
func fixtureFile(_ name: String) -> String {
    BrowserFixture.packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name).path
}

/// A fresh temporary directory for one test.
func makeTemporaryDirectory(_ label: String = "import") -> String {
    TemporaryDirectory.create(label).path
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
}

func writeFile(_ path: String, _ text: String) {
    writeFile(path, Array(text.utf8))
}

/// Header of the FDIC's current format, as plain ASCII.
let currentHeader = "Bank Name,City,State,Cert,Acquiring Institution,Closing Date,Fund\r\n"
