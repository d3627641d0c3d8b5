import SQLiteStore

/// A bank's closing details (table `failed_bank_details`): the one declaration of the entity
/// `FailedBankDetails`, one row per ``FailedBankInfo`` (its `info`).
///
/// Dates are the stored `YYYY-MM-DD` text, kept as the file holds it (a row whose closing date
/// is not a date still reads, and sections under "—"); `closeYear` is the derived year of the
/// closing date, the section key of the browser's date tab.
///
///     let details = try object.record(as: FailedBankDetails.self)   // closeDate, cert, …
package struct FailedBankDetails: EntityRecord, Codable, Equatable, Sendable {
    /// The attributes, by name: in sorts, predicates, section keys and key paths.
    package enum CodingKeys: String, CodingKey {
        case closeDate, updatedDate, cert, acquiringInstitution, fund
    }
    /// The attributes, for sorts, predicates and section keys.
    package typealias Columns = CodingKeys

    /// The relationship to the bank (`info_id`).
    package static let info = "info"
    /// The derived year of the closing date (NULL when the stored value is not a date).
    package static let closeYear = "closeYear"

    /// The entity: the details, the bank they belong to (a unique `info_id`), the unique cert.
    package static let entity = Entity(
        FailedBankModel.details,
        attributes: [
            Attribute(Columns.closeDate.stringValue, .date, indexed: true),
            Attribute(Columns.updatedDate.stringValue, .date, optional: true),
            Attribute(Columns.cert.stringValue, .integer),
            Attribute(Columns.acquiringInstitution.stringValue, .text, optional: true),
            Attribute(Columns.fund.stringValue, .integer, optional: true),
        ],
        relationships: [
            Relationship(
                info,
                destination: FailedBankModel.info,
                inverse: FailedBankInfo.details,
                deleteRule: .nullify,
                storesForeignKey: true
            )
        ],
        derived: [
            .year(closeYear, of: Columns.closeDate.stringValue, column: "close_date", notADate: .null)
        ],
        uniqueKeys: [[Columns.cert.stringValue], [info]]
    )

    /// The table's column of an attribute (`close_date`), for the import's SQL.
    package static func column(_ column: Columns) -> String {
        entity.columnName(forKey: column.stringValue) ?? column.stringValue
    }

    /// The table's column of the bank's row id (`info_id`).
    package static var infoColumn: String { entity.columnName(forKey: info) ?? info }

    /// `YYYY-MM-DD` text, as stored.
    package var closeDate: String
    /// `YYYY-MM-DD` text, as stored.
    package var updatedDate: String?
    package var cert: Int64
    package var acquiringInstitution: String?
    package var fund: Int64?
}
