import SQLiteStore

/// A bank's name and place (table `failed_bank_info`): the one declaration of the entity
/// `FailedBankInfo`, whose to-one `details` is a ``FailedBankDetails``.
///
/// Name, city and state are read as text; a value that is not (a BLOB a `sqlite3` shell stored)
/// makes the record throw, which is why the list's cell and the detail screen show such banks
/// from their stored values (`DisplayText`) instead.
///
///     let bank = try object.record(as: FailedBankInfo.self)   // name, city, state
///     FetchSort(FailedBankInfo.Columns.name, comparison: .caseInsensitive)
package struct FailedBankInfo: EntityRecord, Codable, Equatable, Sendable {
    /// The attributes, by name: in sorts, predicates, section keys and key paths.
    package enum CodingKeys: String, CodingKey { case name, city, state }
    /// The attributes, for sorts, predicates and section keys.
    package typealias Columns = CodingKeys

    /// The entity: name, city and state, and the to-one `details` (deleted with the bank).
    package static let entity = Entity(
        FailedBankModel.info,
        attributes: [
            Attribute(Columns.name.stringValue, .text),
            Attribute(Columns.city.stringValue, .text),
            Attribute(Columns.state.stringValue, .text),
        ],
        relationships: [
            Relationship(
                details,
                destination: FailedBankModel.details,
                inverse: FailedBankDetails.info,
                deleteRule: .cascade,
                storesForeignKey: false
            )
        ]
    )

    /// The relationship to the bank's ``FailedBankDetails``.
    package static let details = "details"

    /// The key path of a details attribute read from the bank (`details.closeDate`).
    package static func details(_ column: FailedBankDetails.Columns) -> String {
        details + "." + column.stringValue
    }

    package var name: String
    package var city: String
    package var state: String
}
