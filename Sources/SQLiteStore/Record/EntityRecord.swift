/// A ``StoreRecord`` that declares its entity: the schema is written once, in the record, and the
/// model is built from the record types (``Model/init(version:applicationID:records:migrations:)``).
///
/// Its ``StoreRecord/entityName`` is the entity's name. Name the columns once too: a Codable
/// record's coding keys are its attributes, so `typealias Columns = CodingKeys` gives sorts,
/// predicates and section keys checked names (`FetchSort(Student.Columns.number)`).
///
///     struct Student: EntityRecord, Codable {
///         enum CodingKeys: String, CodingKey { case name, number, subject }
///         typealias Columns = CodingKeys
///         static let entity = Entity("Student", attributes: [
///             Attribute(Columns.name.stringValue, .text),
///             Attribute(Columns.number.stringValue, .integer),
///             Attribute(Columns.subject.stringValue, .text, indexed: true),
///         ])
///         var name: String
///         var number: Int
///         var subject: String
///     }
///
///     let model = Model(version: 1, applicationID: 0x5354_4455, records: [Student.self])
public protocol EntityRecord: StoreRecord {
    /// The entity the type maps to: its name, attributes and relationships.
    static var entity: Entity { get }
}

extension EntityRecord {
    /// The name of ``entity``.
    public static var entityName: String { entity.name }
}

extension Model {
    /// A model of the entities the record types declare, in their order.
    ///
    ///     let model = Model(version: 1, applicationID: 0x5354_4455, records: [Student.self, Teacher.self])
    public init(version: Int, applicationID: Int32, records: [any EntityRecord.Type], migrations: [Migration] = []) {
        self.init(
            version: version,
            applicationID: applicationID,
            entities: records.map { $0.entity },
            migrations: migrations
        )
    }
}
