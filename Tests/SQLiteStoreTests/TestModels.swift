import Foundation

@testable import SQLiteStore

/// The failed-banks model of the original tutorial, as the tests use it.
enum BankModel {
    static let info = Entity(
        "FailedBankInfo",
        attributes: [
            Attribute("name", .text, indexed: true), Attribute("city", .text), Attribute("state", .text, indexed: true),
        ],
        relationships: [
            Relationship(
                "details",
                destination: "FailedBankDetails",
                inverse: "info",
                deleteRule: .cascade,
                storesForeignKey: false
            )
        ]
    )

    static let details = Entity(
        "FailedBankDetails",
        attributes: [
            Attribute("closeDate", .date, indexed: true), Attribute("updatedDate", .date, optional: true),
            Attribute("zip", .integer, optional: true), Attribute("fund", .real, optional: true),
            Attribute("insured", .bool, default: .integer(1)),
        ],
        relationships: [
            Relationship(
                "info",
                destination: "FailedBankInfo",
                inverse: "details",
                deleteRule: .nullify,
                storesForeignKey: true
            )
        ],
        derived: [
            .year("closeYear", of: "closeDate", column: "close_date", valuesAreDates: true)
        ]
    )

    static let applicationID: Int32 = 0x4642_4E4B  // "FBNK"

    static func model(version: Int = 1, migrations: [Migration] = []) -> Model {
        Model(version: version, applicationID: applicationID, entities: [info, details], migrations: migrations)
    }
}

/// The package root, for `Tests/Fixtures`.
func packageRoot() -> URL {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
}

/// A real-world file in `Tests/Fixtures` (part of the repository; a test using a missing one fails).
func fixtureFile(_ name: String) -> URL {
    packageRoot().appendingPathComponent("Tests/Fixtures/\(name)")
}
