import Foundation
import SQLiteStore
import TestSupport
import Testing

/// The Students tutorial's table as a typed record.
private struct Student: StoreRecord, Equatable {
    static let entityName = "Student"
    var name: String
    var number: Int
    var subject: String?
    var enrolled: Date?

    init(name: String, number: Int, subject: String?, enrolled: Date? = nil) {
        self.name = name
        self.number = number
        self.subject = subject
        self.enrolled = enrolled
    }

    init(row: RecordRow) throws {
        name = try row["name"]
        number = try row["number"]
        subject = try row["subject"]
        enrolled = try row["enrolled"]
    }

    func encode(to container: inout RecordContainer) {
        container["name"] = name
        container["number"] = number
        container["subject"] = subject
        container["enrolled"] = enrolled
    }
}

/// A record that reads a key its entity does not have.
private struct Misspelled: StoreRecord {
    static let entityName = "Student"
    var name: String
    init(name: String) { self.name = name }
    init(row: RecordRow) throws { name = try row["nmae"] }
    func encode(to container: inout RecordContainer) { container["nmae"] = name }
}

@Suite struct StoreRecordTests {
    private let model = Model(
        version: 1,
        applicationID: 0x5354_5544,
        entities: [
            Entity(
                "Student",
                attributes: [
                    Attribute("name", .text),
                    Attribute("number", .integer),
                    Attribute("subject", .text, optional: true, indexed: true),
                    Attribute("enrolled", .date, optional: true),
                ]
            )
        ]
    )

    private func makeContext() throws -> (ObjectContext, TemporaryDirectory) {
        let folder = TemporaryDirectory("records")
        return (ObjectContext(store: try Store(path: folder.path("school.sqlite"), model: model)), folder)
    }

    @Test func aRecordRoundTripsThroughTheStore() throws {
        let (context, folder) = try makeContext()
        defer { folder.remove() }
        let day = StoreDate.date(from: "2024-09-02")!
        let ada = Student(name: "Ada", number: 7, subject: "Maths", enrolled: day)
        let object = context.insert(ada)
        context.insert(Student(name: "Alan", number: 3, subject: nil))
        try context.save()
        #expect(!object.objectID.isTemporary)
        #expect(try object.record(as: Student.self) == ada)
        #expect(object["enrolled"] == .text("2024-09-02"))  // a .date attribute keeps the day
        let all = try context.fetchRecords(Student.self, orderBy: "number")
        #expect(all.map(\.name) == ["Alan", "Ada"])
        #expect(all[0].subject == nil)
    }

    @Test func updatingWithARecordChangesOnlyWhatDiffers() throws {
        let (context, folder) = try makeContext()
        defer { folder.remove() }
        let object = context.insert(Student(name: "Ada", number: 7, subject: "Maths"))
        try context.save()
        var ada = try object.record(as: Student.self)
        ada.subject = "Physics"
        try context.update(object, with: ada)
        #expect(object.changedKeys == ["subject"])
        try context.save()
        #expect(try context.fetchRecords(Student.self, where: "subject = ?", [.text("Physics")]).count == 1)
    }

    @Test func anUnknownKeyOrAWrongKindIsAnErrorNamingTheKey() throws {
        let (context, folder) = try makeContext()
        defer { folder.remove() }
        let object = context.insert(Student(name: "Ada", number: 7, subject: nil))
        try context.save()
        #expect(throws: StoreError.unknownKeyPath("nmae", entity: "Student")) { try object.record(as: Misspelled.self) }
        object["number"] = .text("seven")
        #expect(
            throws: StoreError.validation(
                entity: "Student",
                key: "number",
                reason: "'seven' is not a value of type Int"
            )
        ) {
            try object.record(as: Student.self)
        }
        let bad = Misspelled(name: "x")
        let other = context.insert(into: "Student")
        var container = RecordContainer(object: other)
        bad.encode(to: &container)
        #expect(throws: (any Error).self) { try context.save() }
    }
}
