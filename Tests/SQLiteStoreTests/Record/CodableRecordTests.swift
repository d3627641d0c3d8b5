import Foundation
import SQLiteStore
import TestSupport
import Testing

/// The Students tutorial's record with nothing but its fields: Codable gives it the store.
private struct Student: StoreRecord, Codable, Equatable {
    static let entityName = "Student"
    var name: String
    var number: Int
    var subject: String?
    var enrolled: Date?
    var credits: Int16 = 0
    var active: Bool = true
}

/// A record whose property is named otherwise than its attribute.
private struct Pupil: StoreRecord, Codable, Equatable {
    static let entityName = "Student"
    var fullName: String
    var number: Int
    enum CodingKeys: String, CodingKey {
        case fullName = "name"
        case number
    }
}

/// A record with a key its entity does not have.
private struct Misspelled: StoreRecord, Codable {
    static let entityName = "Student"
    var nmae: String?
}

/// A record with a nested value, which is no attribute.
private struct Nested: StoreRecord, Codable {
    static let entityName = "Student"
    struct Inner: Codable { var x: Int }
    var name: Inner
}

@Suite("Codable records need no init(row:) or encode(to:)")
struct CodableRecordTests {
    private let model = Model(
        version: 1,
        applicationID: 0x5354_5544,
        entities: [
            Entity(
                "Student",
                attributes: [
                    Attribute("name", .text),
                    Attribute("number", .integer),
                    Attribute("subject", .text, optional: true),
                    Attribute("enrolled", .date, optional: true),
                    Attribute("credits", .integer, default: .integer(0)),
                    Attribute("active", .bool, default: .integer(1)),
                ]
            )
        ]
    )

    private func makeContext() throws -> (ObjectContext, TemporaryDirectory) {
        let folder = TemporaryDirectory("codable-records")
        return (ObjectContext(store: try Store(path: folder.path("school.sqlite"), model: model)), folder)
    }

    @Test("a Codable record round-trips through the store by its property names")
    func roundTrip() throws {
        let (context, folder) = try makeContext()
        defer { folder.remove() }
        let day = try #require(StoreDate.date(from: "2024-09-02"))
        let ada = Student(name: "Ada", number: 7, subject: "Maths", enrolled: day, credits: 12, active: false)
        let object = context.insert(ada)
        context.insert(Student(name: "Alan", number: 3, subject: nil, enrolled: nil))
        try context.save()
        #expect(try object.record(as: Student.self) == ada)
        #expect(object["enrolled"] == .text("2024-09-02"))  // a .date attribute keeps the day
        #expect(object["active"] == .integer(0))
        let all = try context.fetchRecords(Student.self, orderBy: "number")
        #expect(all.map(\.name) == ["Alan", "Ada"])
        #expect(all[0].subject == nil)
    }

    @Test("nil writes NULL: an update clears the attribute, and only changed keys are marked")
    func nilClearsAndOnlyChangesAreMarked() throws {
        let (context, folder) = try makeContext()
        defer { folder.remove() }
        let object = context.insert(Student(name: "Ada", number: 7, subject: "Maths", enrolled: nil))
        try context.save()
        var ada = try object.record(as: Student.self)
        ada.subject = nil
        try context.update(object, with: ada)
        #expect(object.changedKeys == ["subject"])
        try context.save()
        #expect(object["subject"] == .null)
    }

    @Test("CodingKeys rename a property's attribute")
    func codingKeysRename() throws {
        let (context, folder) = try makeContext()
        defer { folder.remove() }
        let object = context.insert(Pupil(fullName: "Grace", number: 1))
        try context.save()
        #expect(object["name"] == .text("Grace"))
        #expect(try object.record(as: Pupil.self) == Pupil(fullName: "Grace", number: 1))
    }

    @Test("an unknown key, a wrong kind or a nested value is an error naming the key")
    func errorsNameTheKey() throws {
        let (context, folder) = try makeContext()
        defer { folder.remove() }
        let object = context.insert(Student(name: "Ada", number: 7, subject: nil, enrolled: nil))
        try context.save()
        #expect(throws: StoreError.unknownKeyPath("nmae", entity: "Student")) { try object.record(as: Misspelled.self) }
        object["number"] = .text("seven")
        #expect(
            throws: StoreError.validation(
                entity: "Student",
                key: "number",
                reason: "'seven' is not a value of type Int"
            )
        ) { try object.record(as: Student.self) }
        object["number"] = .integer(7)
        object["credits"] = .integer(70_000)
        #expect(throws: StoreError.self) { try object.record(as: Student.self) }  // does not fit in an Int16
        #expect(throws: DecodingError.self) { try object.record(as: Nested.self) }
        context.insert(Nested(name: .init(x: 1)))
        #expect(throws: (any Error).self) { try context.save() }
    }
}
