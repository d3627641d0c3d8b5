import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import MyStashKit

/// Notes and passwords as records: the models built from them are the schemas the releases wrote,
/// and a record holds sealed values only.
@Suite struct StashRecordTests {
    /// The entries as versions 2 and 3 declared them (before the records declared them).
    static func declaredBefore(authenticated: Bool) -> [Entity] {
        let revision = authenticated ? [Attribute("revision", .integer, default: .integer(0))] : []
        return [
            Entity(
                "Note",
                attributes: [
                    Attribute("uid", .text), Attribute("title", .text), Attribute("body", .blob, optional: true),
                    Attribute("created", .dateTime), Attribute("modified", .dateTime),
                ] + revision,
                derived: [.initial("titleInitial", of: "title")],
                uniqueKeys: [["uid"]]
            ),
            Entity(
                "Password",
                attributes: [
                    Attribute("uid", .text), Attribute("name", .text),
                    Attribute("userID", .blob, optional: true), Attribute("password", .blob, optional: true),
                    Attribute("url", .blob, optional: true), Attribute("notes", .blob, optional: true),
                    Attribute("totp", .blob, optional: true), Attribute("history", .blob, optional: true),
                    Attribute("modified", .dateTime),
                ] + revision,
                derived: [.initial("nameInitial", of: "name")],
                uniqueKeys: [["uid"]]
            ),
        ]
    }

    /// Every table, index and trigger a new store of `model` holds, as SQLite keeps them.
    static func schema(of model: Model, in directory: TemporaryDirectory, name: String) throws -> [String] {
        let store = try Store(path: directory.path(name), model: model)
        return try store.database.query("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
            .map { row in "\(row[0]) \(row[1]): \(row[2])" }
    }

    @Test func theModelsBuiltFromTheRecordsMakeTheSchemasDeclaredBefore() throws {
        let directory = TemporaryDirectory("stash-records")
        defer { directory.remove() }
        for (model, authenticated) in [(StashModel.model, true), (StashModel.secondVersion, false)] {
            let vaultInfo = try #require(model.entities.first { $0.name == StashModel.vaultInfo })
            let declared = Model(
                version: model.version,
                applicationID: StashModel.applicationID,
                entities: Self.declaredBefore(authenticated: authenticated) + [vaultInfo]
            )
            let version = model.version
            #expect(
                try Self.schema(of: model, in: directory, name: "records-\(version).sqlite")
                    == Self.schema(of: declared, in: directory, name: "declared-\(version).sqlite")
            )
        }
    }

    @Test func aSavedNoteIsARecordOfSealedValuesOnly() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        let object = try stash.addNote(title: "Groceries", body: "milk and eggs")
        let note = try object.record(as: NoteRecord.self)
        #expect(note.title == "Groceries")
        #expect(note.revision == 1)
        let sealed = try #require(note.body.bytes)
        #expect(!String(decoding: sealed, as: UTF8.self).contains("milk"))
        #expect(try stash.noteBody(of: object) == "milk and eggs")
    }
}
