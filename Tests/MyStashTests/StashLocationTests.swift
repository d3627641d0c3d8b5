import Foundation
import TestSupport
import Testing

@testable import MyStashKit

@Suite struct StashLocationTests {
    @Test func dbOptionWinsOverEnvironmentWhichWinsOverXDG() {
        let env = ["MYSTASH_DB": "/env/stash.sqlite", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"]
        #expect(StashLocation.resolve(option: "/opt/s.sqlite", environment: env) == "/opt/s.sqlite")
        #expect(StashLocation.resolve(option: nil, environment: env) == "/env/stash.sqlite")
        #expect(
            StashLocation.resolve(option: nil, environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"])
                == "/xdg/mystash/mystash.sqlite"
        )
    }

    @Test func withoutXDGDataHomeTheStoreIsUnderLocalShare() {
        #expect(
            StashLocation.resolve(option: nil, environment: ["HOME": "/home/u"])
                == "/home/u/.local/share/mystash/mystash.sqlite"
        )
        // A relative XDG_DATA_HOME is invalid by the spec and ignored.
        #expect(
            StashLocation.resolve(option: nil, environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/u"])
                == "/home/u/.local/share/mystash/mystash.sqlite"
        )
    }

    @Test func preparedStoreIsCreatedWithMode0600InAPrivateDirectory() throws {
        let root = TemporaryDirectory("mystash-loc")
        defer { root.remove() }
        let path = root.path("deep/mystash/mystash.sqlite")
        let oldMask = umask(0o022)
        defer { umask(oldMask) }
        #expect(try StashLocation.prepare(path: path))
        #expect(StashLocation.permissions(ofFile: path) == 0o600)
        #expect(StashLocation.permissions(ofFile: root.path("deep/mystash")) == 0o700)
        #expect(try StashLocation.prepare(path: path) == false)
    }

    @Test func existingStoreWithLoosePermissionsIsTightened() throws {
        let folder = TemporaryDirectory("mystash")
        defer { folder.remove() }
        let path = folder.path("mystash.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(), attributes: [.posixPermissions: 0o644]))
        #expect(
            FileManager.default.createFile(
                atPath: path + "-wal",
                contents: Data(),
                attributes: [.posixPermissions: 0o666]
            )
        )
        try StashLocation.prepare(path: path)
        #expect(StashLocation.permissions(ofFile: path) == 0o644)  // not ours until opened as a stash
        StashLocation.tightenPermissions(path: path)
        #expect(StashLocation.permissions(ofFile: path) == 0o600)
        #expect(StashLocation.permissions(ofFile: path + "-wal") == 0o600)
    }
}
