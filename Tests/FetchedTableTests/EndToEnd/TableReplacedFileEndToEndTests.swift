import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `mv new.sqlite db.sqlite` while the browser shows `db.sqlite`: the browser notices (the
/// path's device and inode) and shows the table of the file now there, saying so.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableReplacedFileEndToEndTests {
    @Test func theBrowserShowsTheFileRenamedOverItsPath() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("db.sqlite").path
        let new = fixture.directory.appendingPathComponent("new.sqlite").path
        try fixture.sql(
            "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO person VALUES (1, 'Ada');",
            database: path
        )
        try fixture.sql(
            "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO person VALUES (1, 'Xia'), (2, 'Yan');",
            database: new
        )
        let tmux = try fixture.launch([path, "--table", "person"])
        defer { tmux.close() }
        try tmux.waitUntil("the first file's table", timeout: 10) { $0.contains("Ada") && $0.contains("1/1") }
        #expect(rename(new, path) == 0)
        let screen = try tmux.waitUntil("the file renamed over it", timeout: 10) {
            $0.contains("Xia") && $0.contains("1/2")
        }
        #expect(screen.contains("was replaced") && !screen.contains("Ada"), "\(screen)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
