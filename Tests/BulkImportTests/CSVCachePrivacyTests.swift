import BulkImport
import CSVImport
import Foundation
import SQLiteStore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A CSV file's cache is a copy of the file: readable by its user alone, whatever the umask.
@Suite struct CSVCachePrivacyTests {
    let fixture = CSVLoaderFixture()

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        lstat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func aNewCacheIsA0700FolderOf0600Files() throws {
        let source = fixture.file("payroll.csv", "name,salary\nAda,100\n")
        chmod(source, 0o600)
        let saved = umask(0o022)
        defer { umask(saved) }
        let table = try fixture.loader(source).load()
        #expect(Self.mode(fixture.cacheDirectory) == 0o700)
        #expect(Self.mode(table.databasePath) == 0o600)
        // A reader in WAL mode makes the -wal and -shm: they take the database's mode.
        var options = Database.Options()
        options.walMode = true
        let database = try Database(path: table.databasePath, options: options)
        _ = try database.query("SELECT count(*) FROM payroll")
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: table.databasePath + suffix) {
            #expect(Self.mode(table.databasePath + suffix) == 0o600, "\(suffix)")
        }
    }

    @Test func aCacheAnEarlierVersionLeftReadableIsTightenedWhenReused() throws {
        let source = fixture.file("payroll.csv", "name,salary\nAda,100\n")
        let first = try fixture.loader(source).load()
        chmod(fixture.cacheDirectory, 0o755)
        chmod(first.databasePath, 0o644)
        let again = try fixture.loader(source).load()
        #expect(again.wasReused)
        #expect(Self.mode(fixture.cacheDirectory) == 0o700)
        #expect(Self.mode(again.databasePath) == 0o600)
    }

    @Test func aLinkPlantedAtTheCacheIsNeverFollowed() throws {
        let source = fixture.file("payroll.csv", "name,salary\nAda,100\n")
        let first = try fixture.loader(source).load()
        // Someone puts a link where the cache database goes: it is not opened through the link, and
        // what the link points at is left as it was.
        let target = fixture.directory + "/elsewhere.sqlite"
        try FileManager.default.moveItem(atPath: first.databasePath, toPath: target)
        chmod(target, 0o644)
        symlink(target, first.databasePath)
        let again = try fixture.loader(source).load()
        #expect(!again.wasReused)
        #expect(Self.mode(again.databasePath) == 0o600)
        #expect(Self.mode(target) == 0o644)
        var info = stat()
        lstat(again.databasePath, &info)
        #expect(info.st_mode & S_IFMT == S_IFREG, "the link was replaced by a file of this user's own")
    }
}
