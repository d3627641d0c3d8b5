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

    /// A log in one of the formats followed: its file name, and rows of a time and a message
    /// written as the format writes them.
    enum LogFormat: String, CaseIterable, Sendable {
        case csv, jsonLines

        var fileName: String { self == .csv ? "log.csv" : "log.jsonl" }

        /// A whole file of `rows` (a CSV file: its header line first).
        func file(_ rows: [(ts: String, message: String)]) -> String {
            (self == .csv ? "ts,message\n" : "") + lines(rows)
        }

        /// `rows` as the lines a logger appends. A JSON Lines row after the first names its
        /// keys in the other order: the order of an object's keys does not matter.
        func lines(_ rows: [(ts: String, message: String)]) -> String {
            rows.enumerated().map { index, row in
                switch self {
                case .csv: return "\(row.ts),\(row.message)\n"
                case .jsonLines:
                    let ts = "\"ts\": \"\(row.ts)\""
                    let message = "\"message\": \"\(row.message)\""
                    return index == 0 ? "{\(ts), \(message)}\n" : "{\(message), \(ts)}\n"
                }
            }.joined()
        }
    }

    /// The rows appended show in the browser without a key and without reading the file again
    /// (before, issue 38: "read once: rows added to it later are not followed"; a JSON Lines
    /// file was read again); a file rewritten otherwise is read again, and the status line says so.
    @Test(
        .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? "")),
        arguments: LogFormat.allCases
    )
    func rowsAppendedToTheFileShowInTheBrowserWithoutAKey(format: LogFormat) throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = try fixture.write(format.fileName, format.file([("2025-01-01T10:00:00Z", "started")]))
        let tmux = try fixture.launch([path], width: 100)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the first row", timeout: 10) { $0.contains("started") && $0.contains("1 row") }
        try TableFollowTests.append(
            format.lines([("2025-01-01T10:00:05Z", "disk almost full"), ("2025-01-01T10:00:09Z", "cleaned up")]),
            to: path
        )
        let grown = try tmux.waitUntil("the rows appended", timeout: 10) {
            $0.contains("disk almost full") && $0.contains("cleaned up") && $0.contains("3 rows")
        }
        #expect(!grown.contains("not followed"), "\(grown)")
        #expect(!grown.contains("read again"), "appended in place, not read again:\n\(grown)")
        try format.file([("2025-02-01T08:00:00Z", "rotated")]).write(toFile: path, atomically: true, encoding: .utf8)
        let rewritten = try tmux.waitUntil("the file read again", timeout: 10) {
            $0.contains("rotated") && $0.contains("\(format.fileName) changed: read again")
        }
        #expect(!rewritten.contains("disk almost full"), "\(rewritten)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    /// `watch` prints the rows appended as a batch of inserts (before, for a JSON Lines file: a
    /// new snapshot, the whole file read again); a file rewritten otherwise is a new snapshot.
    @Test(arguments: LogFormat.allCases)
    func watchPrintsTheRowsAppendedAsABatchOfInserts(format: LogFormat) throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = try fixture.write(format.fileName, format.file([("2025-01-01T10:00:00Z", "started")]))
        let watch = try TableLiveTests.Watch(fixture, [path, "--sort", "ts"])
        let snapshot = try watch.waitForLines(1)[0]
        #expect(snapshot == #"{"type":"snapshot","sections":[{"name":"","ids":[1]}]}"#)
        try TableFollowTests.append(
            format.lines([("2025-01-01T10:00:01Z", "one"), ("2025-01-01T10:00:02Z", "two")]),
            to: path
        )
        let batch = try watch.waitForLines(2)[1]
        #expect(
            batch == #"{"type":"batch","sections":[],"objects":[{"change":"insert","id":2,"to":[0,1]},"#
                + #"{"change":"insert","id":3,"to":[0,2]}],"counts":[3]}"#,
            "\(batch)"
        )
        try format.file([("2025-02-01T00:00:00Z", "a"), ("2025-02-01T00:00:01Z", "b")]).write(
            toFile: path,
            atomically: true,
            encoding: .utf8
        )
        let again = try watch.waitForLines(3)[2]
        #expect(again == #"{"type":"snapshot","sections":[{"name":"","ids":[1,2]}]}"#, "\(again)")
        #expect(watch.stop() == 0)
    }
}
