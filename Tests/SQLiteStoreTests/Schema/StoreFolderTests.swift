import Foundation
import Glibc
import TestSupport
import Testing

@testable import SQLiteStore

@Suite("A store's folder")
struct StoreFolderTests {
    let dir = TemporaryDirectory("store-folder")

    @Test func createFolderMakesEveryMissingFolderAboveTheStoreAndLeavesAnExistingOne() throws {
        let path = dir.path("a/b/c/books.sqlite")
        try Store.createFolder(for: path)
        try Store.createFolder(for: path)  // again: nothing to do
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: dir.path("a/b/c"), isDirectory: &isFolder) && isFolder.boolValue)
        #expect(!FileManager.default.fileExists(atPath: path))
        _ = try Store(
            path: path,
            model: Model(version: 1, applicationID: 1, entities: [Entity("Item", attributes: [])])
        )
        #expect(FileManager.default.fileExists(atPath: path))
        try Store.createFolder(for: "books.sqlite")  // a bare name: the current folder
    }

    @Test func aFolderThatCannotBeMadeIsNamedAndIsACannotCreateFailure() throws {
        let file = dir.path("file")
        try Data().write(to: URL(fileURLWithPath: file))
        #expect(throws: StoreError.cannotCreateFolder(path: file + "/sub", errno: ENOTDIR)) {
            try Store.createFolder(for: file + "/sub/books.sqlite")
        }
        let error = StoreError.cannotCreateFolder(path: file + "/sub", errno: ENOTDIR)
        #expect(error.description == "cannot create the folder \(file)/sub: \(String(cString: strerror(ENOTDIR)))")
        #expect(StoreFailure(error) == .cannotOpen && StoreFailure(error).exitStatus == 73)
    }
}
