import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A temporary folder with databases made by the `sqlite3` shell (no triggers, the
/// default rollback journal, several tables) and the built `fetchedtable` run on them:
/// in a tmux pane (``launch(_:width:height:)``), or to completion (``run(_:)``).
///
///     let fixture = try TableFixture()
///     defer { fixture.remove() }
///     let tmux = try fixture.launch([fixture.school, "--table", "student"])
///     try tmux.waitFor("student")
final class TableFixture {
    /// The package root (found from this file's path).
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // EndToEnd, FetchedTableTests, Tests
        return url
    }()

    /// The built executable (``BuiltProgram``).
    static let binary = BuiltProgram.path("fetchedtable")

    static let sqlite3 = ProcessRunner.which("sqlite3")
    static let tmux = ProcessRunner.which("tmux")

    /// Why the end-to-end tests cannot run here, or nil when they can.
    static let unavailableReason: String? = {
        if binary == nil { return BuiltProgram.missingReason("fetchedtable") }
        if sqlite3 == nil { return "the sqlite3 shell is not installed" }
        return nil
    }()
    static var isAvailable: Bool { unavailableReason == nil }
    static var tmuxUnavailableReason: String? { unavailableReason ?? (tmux == nil ? "tmux is not installed" : nil) }
    static var isTmuxAvailable: Bool { tmuxUnavailableReason == nil }

    let directory: URL
    /// `school.sqlite`: `student` (an INTEGER PRIMARY KEY `id`), `teacher` (a rowid table) and the view `math`.
    var school: String { directory.appendingPathComponent("school.sqlite").path }
    /// The cache folder given to the program as `$XDG_CACHE_HOME`.
    var cache: String { directory.appendingPathComponent("cache").path }

    /// The school's students: name, subject, number.
    static let students: [(name: String, subject: String, number: Int)] = [
        ("Ada", "Math", 3), ("Brook", "Art", 1), ("Cyril", "Math", 1), ("Dana", "History", 2),
        ("Emil", "Art", 2), ("Farah", "Math", 2), ("Gus", "History", 1), ("Hana", "Biology", 1),
    ]

    /// Makes the folder and `school.sqlite`.
    init() throws {
        guard TableFixture.isAvailable else { throw EndToEndError(TableFixture.unavailableReason ?? "unavailable") }
        directory = TemporaryDirectory.create("fetchedtable-e2e")
        let inserts = TableFixture.students.map {
            "INSERT INTO student (name, subject, number) VALUES ('\($0.name)', '\($0.subject)', \($0.number));"
        }
        try sql(
            """
            CREATE TABLE student (id INTEGER PRIMARY KEY, name TEXT NOT NULL, subject TEXT NOT NULL, number INTEGER);
            CREATE TABLE teacher (name TEXT, subject TEXT, since TEXT);
            CREATE VIEW math AS SELECT name, number FROM student WHERE subject = 'Math';
            \(inserts.joined(separator: "\n"))
            INSERT INTO teacher VALUES ('Ms Ito', 'Math', '2019-09-01'), ('Mr Obi', 'Art', '2021-01-15');
            """
        )
    }

    /// Removes the folder.
    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// Polls `condition` (what the file or the program shows) until it holds, ``generousDeadline``
    /// at most; the error names `what` was waited for.
    func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(generousDeadline)
        while !condition() {
            if Date() > deadline { throw EndToEndError("timed out waiting for \(what)") }
            usleep(30_000)
        }
    }

    /// Writes `text` to a file of the folder; returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `TZ` of the runs when set: the terminal's time zone (`Asia/Tokyo`).
    var timeZone: String?

    /// The environment of every run: a private cache, a UTF-8 locale, a terminal type (and ``timeZone``).
    var environment: [String: String] {
        var environment = [
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "screen", "XDG_CACHE_HOME": cache, "HOME": directory.path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        if let timeZone { environment["TZ"] = timeZone }
        return environment
    }

    /// Runs `fetchedtable arguments` to completion, without a terminal.
    func run(_ arguments: [String]) throws -> ProcessResult {
        guard let binary = TableFixture.binary else { throw EndToEndError("no binary") }
        return try ProcessRunner.run(binary, arguments, environment: environment)
    }

    /// Starts `fetchedtable arguments` in a new tmux server; the shell around it records the exit status.
    func launch(_ arguments: [String], width: Int = 80, height: Int = 24) throws -> TmuxSession {
        guard let binary = TableFixture.binary else { throw EndToEndError("no binary") }
        let script = directory.appendingPathComponent("run-\(UUID().uuidString.prefix(6)).sh")
        let quoted = ([binary] + arguments).map(TableFixture.shellQuote).joined(separator: " ")
        let text = """
            #!/bin/sh
            cd \(TableFixture.shellQuote(directory.path))
            rm -f exit.txt
            \(quoted) 2> app.stderr
            echo "$?" > exit.txt
            printf '\\nEXITED\\n'
            exec sleep 3600

            """
        try text.write(to: script, atomically: true, encoding: .utf8)
        return try TmuxSession(
            command: ["/bin/sh", script.path],
            width: width,
            height: height,
            environment: environment
        )
    }

    /// The exit status the pane's shell recorded, once it has.
    func exitStatus(timeout: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(max(timeout, generousDeadline))
        let file = directory.appendingPathComponent("exit.txt").path
        while Date() < deadline {
            if let text = try? String(contentsOfFile: file, encoding: .utf8),
                let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return status
            }
            usleep(20_000)
        }
        return nil
    }

    /// Runs SQL with the `sqlite3` shell on `database` (default: the school); rows as `|`-separated lines.
    @discardableResult
    func sql(_ statements: String, database: String? = nil) throws -> String {
        guard let sqlite3 = TableFixture.sqlite3 else { throw EndToEndError("no sqlite3") }
        let result = try ProcessRunner.run(
            sqlite3,
            ["-batch", "-cmd", ".timeout 5000", database ?? school, statements]
        )
        guard result.status == 0 else {
            throw EndToEndError("sqlite3 failed (\(result.status)): \(result.standardError)")
        }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Makes the database `name` in the folder with the `sqlite3` shell running `statements`; its path.
    func database(_ name: String, _ statements: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try sql(statements, database: path)
        return path
    }

    /// The files of the folder besides the run scripts and logs (a journal left behind shows here).
    func databaseFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasPrefix("school") }.sorted()
    }

    /// Quotes for `/bin/sh` (``ProcessRunner/shellQuoted(_:)``).
    static let shellQuote = ProcessRunner.shellQuoted
}

extension String {
    /// The screen's lines.
    var screenLines: [String] { split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}
