import BaseDirectories
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Private caches: folders 0700 and files 0600 whatever the umask, tightened when older, and
/// no symbolic link followed.
@Suite("private folders and files")
struct PrivateFilesTests {
    static func scratch() -> String {
        let path = NSTemporaryDirectory() + "private-files-\(UUID().uuidString.prefix(8))"
        mkdir(path, 0o755)
        return path
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        lstat(path, &info)
        return info.st_mode & 0o777
    }

    @Test("a folder is made 0700 with its missing parents, and an existing 0755 one is tightened")
    func foldersAreThisUsersAlone() throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let saved = umask(0)
        defer { umask(saved) }
        try PrivateFiles.makeFolder(root + "/a/b")
        #expect(Self.mode(root + "/a") == 0o700)
        #expect(Self.mode(root + "/a/b") == 0o700)
        mkdir(root + "/old", 0o755)
        try PrivateFiles.makeFolder(root + "/old")
        #expect(Self.mode(root + "/old") == 0o700)
    }

    @Test("a symbolic link or a file where a folder goes is refused, and the link's target left alone")
    func aLinkIsNotFollowed() throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        mkdir(root + "/elsewhere", 0o755)
        symlink(root + "/elsewhere", root + "/cache")
        #expect(throws: PrivateFiles.Failure(path: root + "/cache", code: ELOOP)) {
            try PrivateFiles.makeFolder(root + "/cache")
        }
        #expect(Self.mode(root + "/elsewhere") == 0o755)
        FileManager.default.createFile(atPath: root + "/file", contents: Data())
        #expect(throws: PrivateFiles.Failure(path: root + "/file", code: ENOTDIR)) {
            try PrivateFiles.makeFolder(root + "/file")
        }
    }

    @Test("a file is created 0600 whatever the umask, and never over a link")
    func filesAreCreatedPrivate() throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let saved = umask(0)
        defer { umask(saved) }
        try PrivateFiles.createFile(root + "/copy.sqlite")
        #expect(Self.mode(root + "/copy.sqlite") == 0o600)
        symlink(root + "/target", root + "/planted.sqlite")
        #expect(throws: PrivateFiles.Failure(path: root + "/planted.sqlite", code: EEXIST)) {
            try PrivateFiles.createFile(root + "/planted.sqlite")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/target"))
    }

    @Test("an existing database and its -wal and -shm are tightened to 0600; a link is refused")
    func existingFilesAreTightened() throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for suffix in ["", "-wal", "-shm"] {
            FileManager.default.createFile(atPath: root + "/old.sqlite" + suffix, contents: Data())
            chmod(root + "/old.sqlite" + suffix, 0o644)
        }
        try PrivateFiles.tighten(database: root + "/old.sqlite")
        for suffix in ["", "-wal", "-shm"] { #expect(Self.mode(root + "/old.sqlite" + suffix) == 0o600) }
        FileManager.default.createFile(atPath: root + "/target", contents: Data())
        chmod(root + "/target", 0o644)
        symlink(root + "/target", root + "/link.sqlite")
        #expect(throws: PrivateFiles.Failure(path: root + "/link.sqlite", code: ELOOP)) {
            try PrivateFiles.tighten(database: root + "/link.sqlite")
        }
        #expect(Self.mode(root + "/target") == 0o644, "the link's target is not touched")
        try PrivateFiles.tighten(root + "/missing")
    }
}
