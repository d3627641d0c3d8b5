import Foundation
import TestSupport
import Testing

/// A CSV file that grows (a log) is followed: the rows appended appear in the browser and in
/// `watch` without a key; a file rewritten otherwise is read again, and the status line says so.
@Suite(.serialized, .enabled(if: TableFixture.isAvailable, Comment(rawValue: TableFixture.unavailableReason ?? "")))
struct TableFollowTests {
    /// Appends `text` to the file at `path`, as a logger does (the same inode).
    static func append(_ text: String, to path: String) throws {
        guard let handle = FileHandle(forWritingAtPath: path) else { throw EndToEndError("cannot open \(path)") }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    @Test(.enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? "")))
    func rowsAppendedToTheFileShowInTheBrowserWithoutAKey() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write("log.csv", "ts,level,message\n2025-01-01T10:00:00Z,info,started\n")
        let tmux = try fixture.launch([csv], width: 100)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the first row", timeout: 10) { $0.contains("started") && $0.contains("1 row") }
        // Before (issue 38): "read once: rows added to it later are not followed".
        try TableFollowTests.append(
            "2025-01-01T10:00:05Z,warn,disk almost full\n2025-01-01T10:00:09Z,info,cleaned up\n",
            to: csv
        )
        let grown = try tmux.waitUntil("the rows appended", timeout: 10) {
            $0.contains("disk almost full") && $0.contains("cleaned up") && $0.contains("3 rows")
        }
        #expect(!grown.contains("not followed"), "\(grown)")
        // Rewritten otherwise (another first row): read again, and said.
        try "ts,level,message\n2025-02-01T08:00:00Z,info,rotated\n".write(
            toFile: csv,
            atomically: true,
            encoding: .utf8
        )
        let rewritten = try tmux.waitUntil("the file read again", timeout: 10) {
            $0.contains("rotated") && $0.contains("log.csv changed: read again")
        }
        #expect(!rewritten.contains("disk almost full"), "\(rewritten)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func watchPrintsTheRowsAppendedAsABatchOfInserts() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write("log.csv", "ts,message\n2025-01-01T10:00:00Z,started\n")
        let watch = try TableLiveTests.Watch(fixture, [csv, "--sort", "ts"])
        let snapshot = try watch.waitForLines(1)[0]
        #expect(snapshot == #"{"type":"snapshot","sections":[{"name":"","ids":[1]}]}"#)
        try TableFollowTests.append("2025-01-01T10:00:01Z,one\n2025-01-01T10:00:02Z,two\n", to: csv)
        let batch = try watch.waitForLines(2)[1]
        #expect(
            batch == #"{"type":"batch","sections":[],"objects":[{"change":"insert","id":2,"to":[0,1]},"#
                + #"{"change":"insert","id":3,"to":[0,2]}],"counts":[3]}"#,
            "\(batch)"
        )
        // A file rewritten otherwise: a new snapshot.
        try "ts,message\n2025-02-01T00:00:00Z,a\n2025-02-01T00:00:01Z,b\n".write(
            toFile: csv,
            atomically: true,
            encoding: .utf8
        )
        let again = try watch.waitForLines(3)[2]
        #expect(again == #"{"type":"snapshot","sections":[{"name":"","ids":[1,2]}]}"#, "\(again)")
        #expect(watch.stop() == 0)
    }

    /// A JSON Lines file that grows is completed in place: `watch` prints the objects appended as a
    /// batch of inserts (before: a new snapshot, the whole file read again); a file rewritten
    /// otherwise is still a new snapshot.
    @Test func aJSONLinesFileThatGrowsIsFollowedAndWatchPrintsTheAppendedRowsAsInserts() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = try fixture.write("log.jsonl", "{\"ts\": \"2025-01-01T10:00:00Z\", \"message\": \"started\"}\n")
        let watch = try TableLiveTests.Watch(fixture, [path, "--sort", "ts"])
        #expect(try watch.waitForLines(1)[0] == #"{"type":"snapshot","sections":[{"name":"","ids":[1]}]}"#)
        try TableFollowTests.append(
            "{\"ts\": \"2025-01-01T10:00:01Z\", \"message\": \"one\"}\n{\"message\": \"two\", \"ts\": \"2025-01-01T10:00:02Z\"}\n",
            to: path
        )
        let batch = try watch.waitForLines(2)[1]
        #expect(
            batch == #"{"type":"batch","sections":[],"objects":[{"change":"insert","id":2,"to":[0,1]},"#
                + #"{"change":"insert","id":3,"to":[0,2]}],"counts":[3]}"#,
            "\(batch)"
        )
        try "{\"ts\": \"2025-02-01T00:00:00Z\", \"message\": \"rotated\"}\n".write(
            toFile: path,
            atomically: true,
            encoding: .utf8
        )
        let again = try watch.waitForLines(3)[2]
        #expect(again == #"{"type":"snapshot","sections":[{"name":"","ids":[1]}]}"#, "\(again)")
        #expect(watch.stop() == 0)
    }

    /// The browser on a JSON Lines file that grows shows the lines appended without a key and without
    /// reading the file again (no "changed: read again"); a rewritten file is read again, and said.
    @Test(.enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? "")))
    func linesAppendedToAJSONLinesFileShowInTheBrowserWithoutAKey() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = try fixture.write("log.jsonl", "{\"ts\": \"2025-01-01T10:00:00Z\", \"message\": \"started\"}\n")
        let tmux = try fixture.launch([path], width: 100)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the first row", timeout: 10) { $0.contains("started") && $0.contains("1 row") }
        try TableFollowTests.append(
            "{\"ts\": \"2025-01-01T10:00:05Z\", \"message\": \"disk almost full\"}\n"
                + "{\"ts\": \"2025-01-01T10:00:09Z\", \"message\": \"cleaned up\"}\n",
            to: path
        )
        let grown = try tmux.waitUntil("the lines appended", timeout: 10) {
            $0.contains("disk almost full") && $0.contains("cleaned up") && $0.contains("3 rows")
        }
        #expect(!grown.contains("read again"), "appended in place, not read again:\n\(grown)")
        try "{\"ts\": \"2025-02-01T08:00:00Z\", \"message\": \"rotated\"}\n".write(
            toFile: path,
            atomically: true,
            encoding: .utf8
        )
        let rewritten = try tmux.waitUntil("the file read again", timeout: 10) {
            $0.contains("rotated") && $0.contains("log.jsonl changed: read again")
        }
        #expect(!rewritten.contains("disk almost full"), "\(rewritten)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
