import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A replica may hold rows that row-level security shows this role alone: its folder is
/// 0700 and its files 0600 from the start, older ones are tightened, and no link is followed.
@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ReplicaPrivacyTests {
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        lstat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func aCopyAndItsWALAreThisUsersAloneInAFolderOfItsOwn() throws {
        let database = try ReplicaTestDatabase()
        try ReplicaFollowTests.makeEvents(database, rows: 20)
        let cache = try makeCacheDirectory() + "/postgres"
        let saved = umask(0o022)
        defer { umask(saved) }
        let replica = ReplicaAdoptionTests.replica(database, cache: cache)
        try replica.installTracking()
        let table = try replica.load()
        replica.follow(track: true, status: { _ in })
        defer { replica.stop() }
        try database.psql("INSERT INTO events (ts, level, message) VALUES (now(), 'info', 'x')")
        #expect(try eventually { try ReplicaFollowTests.replicaRows(table).count == 21 })
        #expect(Self.mode(cache) == 0o700)
        #expect(Self.mode(table.path) == 0o600)
        for suffix in ["-wal", "-shm"] {
            #expect(FileManager.default.fileExists(atPath: table.path + suffix), "\(suffix)")
            #expect(Self.mode(table.path + suffix) == 0o600, "\(suffix)")
        }
    }

    @Test func aCopyAnEarlierVersionLeftReadableIsTightenedWhenTakenOver() throws {
        let database = try ReplicaTestDatabase()
        try ReplicaFollowTests.makeEvents(database, rows: 20)
        let cache = try makeCacheDirectory()
        let left = try ReplicaAdoptionTests.endedSession(database, cache: cache, track: true)
        chmod(cache, 0o755)
        for suffix in ["", "-wal"] { chmod(left + suffix, 0o644) }
        let table = try ReplicaAdoptionTests.replica(database, cache: cache).load()
        #expect(try ReplicaAdoptionTests.isTheLeftFile(table.path))
        #expect(Self.mode(cache) == 0o700)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: table.path + suffix) {
            #expect(Self.mode(table.path + suffix) == 0o600, "\(suffix)")
        }
    }

    @Test func aLinkPlantedWhereTheFolderGoesIsRefusedNotFollowed() throws {
        let database = try ReplicaTestDatabase()
        try ReplicaFollowTests.makeEvents(database, rows: 5)
        let root = try makeCacheDirectory()
        mkdir(root + "/theirs", 0o777)
        symlink(root + "/theirs", root + "/postgres")
        let replica = ReplicaAdoptionTests.replica(database, cache: root + "/postgres")
        #expect {
            _ = try replica.load()
        } throws: { error in
            guard case .cache(let path, let message) = error as? ReplicaError else { return false }
            return path == root + "/postgres" && message.contains("symbolic link")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/theirs").isEmpty)
    }
}
