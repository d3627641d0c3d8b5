import BaseDirectories
import Foundation
import SQLiteStore
import Timekeeping

/// The `generic` group's data files, built once into a cache folder and
/// reused while the generator is unchanged: the `events` database (10 million
/// rows by default) and the CSV (1 million rows) of ``EventsGenerator``.
///
/// Each file's name carries the generator's version, seed and row count
/// (`events-10000000-v1-s2026.sqlite`); before a file is reused, a few of its
/// rows (first, middle, last, and some between) are compared with freshly
/// generated ones, so a generator change that forgot the version bump still
/// rebuilds. A file is built under a temporary name and renamed when
/// complete, so an interrupted build is never reused.
///
/// The database is what another application would leave: a rollback journal
/// (not WAL), no triggers, no `store_metadata`; `events(id INTEGER PRIMARY
/// KEY, ts TEXT, level TEXT, service TEXT, message TEXT)` with the index
/// `events_ts` on `ts`, and a small `services` table beside it.
///
///     let cache = EventsDataCache(directory: EventsDataCache.defaultDirectory(), log: { print($0) })
///     let db = try cache.database(rows: 10_000_000)
struct EventsDataCache {
    let directory: String
    let log: (String) -> Void

    /// `$BENCH_CACHE`, else `$XDG_CACHE_HOME/fetchedtable-bench`, else `~/.cache/fetchedtable-bench`.
    static func defaultDirectory() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["BENCH_CACHE"], !explicit.isEmpty { return explicit }
        return XDGBaseDirectories(environment: environment).cache("fetchedtable-bench")
    }

    static let createTable = """
        CREATE TABLE events(id INTEGER PRIMARY KEY, ts TEXT NOT NULL, level TEXT NOT NULL,
                            service TEXT NOT NULL, message TEXT NOT NULL)
        """

    func baseName(_ generator: EventsGenerator) -> String {
        "events-\(generator.rows)-v\(EventsGenerator.version)-s\(generator.seed)"
    }

    // MARK: Database

    /// The path of the database of `rows` events, built when missing or stale.
    func database(rows: Int) throws -> String {
        let generator = EventsGenerator(rows: rows)
        try makeDirectory()
        let path = directory + "/" + baseName(generator) + ".sqlite"
        if access(path, R_OK) == 0 {
            if let problem = EventsDataCache.databaseProblem(path, generator: generator) {
                log("cached \(path) does not match the generator (\(problem)); rebuilding")
                unlink(path)
            } else {
                log("reusing \(path)")
                return path
            }
        }
        let temporary = path + ".building-\(getpid())"
        for suffix in ["", "-journal"] { unlink(temporary + suffix) }
        let (seconds, _) = try MonotonicClock.measure { try build(temporary, generator: generator) }
        guard rename(temporary, path) == 0 else {
            throw BenchError.setup("cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
        }
        log(
            String(format: "built %@ (%d rows, %.0f MB) in %.1f s", path, rows, Double(size(path)) / 1_048_576, seconds)
        )
        return path
    }

    /// The path of a database whose one table, `wide`, holds the events of `database`
    /// (``database(rows:)``) in 20 columns — the five, then fifteen derived from them
    /// (numbers, dates, text) — built when missing or not of `rows` rows: the grid's 10M-row table.
    func wideDatabase(from database: String, rows: Int) throws -> String {
        let path = (database as NSString).deletingPathExtension + "-wide.sqlite"
        if access(path, R_OK) == 0 {
            var options = Database.Options()
            options.readOnly = true
            let count = (try? Database(path: path, options: options).scalar("SELECT max(id) FROM wide").int64) ?? nil
            if count == Int64(rows) {
                log("reusing \(path)")
                return path
            }
            unlink(path)
        }
        let temporary = path + ".building-\(getpid())"
        for suffix in ["", "-journal"] { unlink(temporary + suffix) }
        let (seconds, _) = try MonotonicClock.measure {
            var options = Database.Options()
            options.walMode = false
            let db = try Database(path: temporary, options: options)
            try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144")
            try db.execute(EventsDataCache.createWideTable)
            try db.run("ATTACH DATABASE ? AS events_db", [.text(database)])
            try db.execute(EventsDataCache.fillWideTable)
        }
        guard rename(temporary, path) == 0 else {
            throw BenchError.setup("cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
        }
        log(String(format: "built %@ (%d rows, 20 columns) in %.1f s", path, rows, seconds))
        return path
    }

    static let createWideTable = """
        CREATE TABLE wide(id INTEGER PRIMARY KEY, ts TEXT NOT NULL, level TEXT NOT NULL, service TEXT NOT NULL,
                          message TEXT NOT NULL, day TEXT, hour INTEGER, amount INTEGER, price REAL, code TEXT,
                          region TEXT, score INTEGER, ratio REAL, tag TEXT, flag INTEGER, bucket INTEGER,
                          label TEXT, quantity INTEGER, note TEXT, version INTEGER)
        """

    static let fillWideTable = """
        INSERT INTO wide SELECT id, ts, level, service, message, substr(ts, 1, 10), CAST(substr(ts, 12, 2) AS INTEGER),
               id * 7 % 100000, (id % 10000) / 100.0, upper(substr(service, 1, 3)) || '-' || (id % 97),
               CASE id % 4 WHEN 0 THEN 'north' WHEN 1 THEN 'south' WHEN 2 THEN 'east' ELSE 'west' END,
               id % 1000, (id % 333) / 333.0, level || ':' || service, id % 2, id % 16,
               substr(message, 1, 24), id % 50 + 1, CASE WHEN id % 10 = 0 THEN NULL ELSE 'note ' || (id % 321) END,
               1 + id % 5
        FROM events_db.events ORDER BY id
        """

    private func build(_ path: String, generator: EventsGenerator) throws {
        var options = Database.Options()
        options.walMode = false
        let db = try Database(path: path, options: options)
        try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144")
        try db.execute(EventsDataCache.createTable)
        try db.execute(
            """
            CREATE TABLE services(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, team TEXT NOT NULL)
            """
        )
        let started = MonotonicClock.seconds()
        try db.transaction {
            for (i, name) in EventsGenerator.services.enumerated() {
                try db.run("INSERT INTO services(name, team) VALUES (?, ?)", [.text(name), .text("team \(i % 5 + 1)")])
            }
            let insert = try db.statement("INSERT INTO events(id, ts, level, service, message) VALUES (?, ?, ?, ?, ?)")
            let levels = EventsGenerator.levels.map { Array($0.utf8) }
            let services = EventsGenerator.services.map { Array($0.utf8) }
            var ts: [UInt8] = []
            var message: [UInt8] = []
            ts.reserveCapacity(32)
            message.reserveCapacity(128)
            for id in 1...Int64(generator.rows) {
                let (level, service) = generator.fill(id, ts: &ts, message: &message)
                try insert.bind(id, at: 1)
                try ts.withUnsafeBytes { ts in
                    try message.withUnsafeBytes { message in
                        try levels[level].withUnsafeBytes { level in
                            try services[service].withUnsafeBytes { service in
                                try insert.bind(utf8NoCopy: ts, at: 2)
                                try insert.bind(utf8NoCopy: level, at: 3)
                                try insert.bind(utf8NoCopy: service, at: 4)
                                try insert.bind(utf8NoCopy: message, at: 5)
                                _ = try insert.step()
                                insert.reset()
                            }
                        }
                    }
                }
                if id % 2_000_000 == 0 {
                    log(
                        String(
                            format: "generating events: %d of %d rows (%.0f s)",
                            id,
                            generator.rows,
                            MonotonicClock.seconds() - started
                        )
                    )
                }
            }
        }
        log(
            String(format: "generating events: rows written in %.1f s; indexing ts", MonotonicClock.seconds() - started)
        )
        try db.execute("CREATE INDEX events_ts ON events(ts)")
        try db.execute("ANALYZE")
        try db.execute("PRAGMA journal_mode = DELETE")
    }

    /// Why the file at `path` is not the generator's database, nil when it is.
    static func databaseProblem(_ path: String, generator: EventsGenerator) -> String? {
        var options = Database.Options()
        options.readOnly = true
        guard let db = try? Database(path: path, options: options) else { return "cannot open it" }
        guard (try? db.scalar("SELECT max(id) FROM events").int64) == Int64(generator.rows) else { return "row count" }
        guard
            (try? db.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'events_ts'").int64)
                == 1
        else {
            return "no index on ts"
        }
        for id in sampleIDs(generator.rows) {
            let expected = generator.row(id)
            guard
                let row = try? db.query("SELECT ts, level, service, message FROM events WHERE id = ?", [.integer(id)])
                    .first,
                row == [.text(expected.ts), .text(expected.level), .text(expected.service), .text(expected.message)]
            else {
                return "row \(id) differs"
            }
        }
        return nil
    }

    /// The rows compared before a file is reused.
    static func sampleIDs(_ rows: Int) -> [Int64] {
        let n = Int64(rows)
        return Array(Set([1, 2, n / 3, n / 2, n - 1, n].filter { $0 >= 1 && $0 <= n })).sorted()
    }

    // MARK: CSV

    /// The path of the CSV of `rows` events, written when missing or stale.
    func csv(rows: Int) throws -> String {
        let generator = EventsGenerator(rows: rows)
        try makeDirectory()
        let path = directory + "/" + baseName(generator) + ".csv"
        if access(path, R_OK) == 0 {
            if EventsDataCache.csvMatches(path, generator: generator) {
                log("reusing \(path)")
                return path
            }
            log("cached \(path) does not match the generator; rewriting")
            unlink(path)
        }
        let temporary = path + ".writing-\(getpid())"
        let (seconds, _) = try MonotonicClock.measure { try generator.writeCSV(to: temporary) }
        guard rename(temporary, path) == 0 else {
            throw BenchError.setup("cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
        }
        log(
            String(format: "wrote %@ (%d rows, %.0f MB) in %.1f s", path, rows, Double(size(path)) / 1_048_576, seconds)
        )
        return path
    }

    /// The path of the JSON Lines file of `rows` events (the CSV's rows: ``EventsGenerator/writeJSONLines(to:)``),
    /// written when missing or stale.
    func jsonLines(rows: Int) throws -> String {
        let generator = EventsGenerator(rows: rows)
        try makeDirectory()
        let path = directory + "/" + baseName(generator) + ".jsonl"
        if access(path, R_OK) == 0 {
            if EventsDataCache.jsonLinesMatch(path, generator: generator) {
                log("reusing \(path)")
                return path
            }
            log("cached \(path) does not match the generator; rewriting")
            unlink(path)
        }
        let temporary = path + ".writing-\(getpid())"
        let (seconds, _) = try MonotonicClock.measure { try generator.writeJSONLines(to: temporary) }
        guard rename(temporary, path) == 0 else {
            throw BenchError.setup("cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
        }
        log(
            String(format: "wrote %@ (%d rows, %.0f MB) in %.1f s", path, rows, Double(size(path)) / 1_048_576, seconds)
        )
        return path
    }

    /// Whether the JSON Lines file's last line is the generator's last row (its id and timestamp).
    static func jsonLinesMatch(_ path: String, generator: EventsGenerator) -> Bool {
        guard let file = fopen(path, "r") else { return false }
        defer { fclose(file) }
        guard fseek(file, -4096, SEEK_END) == 0 || fseek(file, 0, SEEK_SET) == 0 else { return false }
        var tail = [UInt8](repeating: 0, count: 4096)
        let m = fread(&tail, 1, tail.count, file)
        let last = tail[0..<m].split(separator: UInt8(ascii: "\n")).last.map { String(decoding: $0, as: UTF8.self) }
        let row = generator.row(Int64(generator.rows))
        return last?.hasPrefix("{\"id\":\(row.id),\"ts\":\"\(row.ts)\"") == true
    }

    /// Whether the file's first data line and last line are the generator's.
    static func csvMatches(_ path: String, generator: EventsGenerator) -> Bool {
        guard let file = fopen(path, "r") else { return false }
        defer { fclose(file) }
        var head = [UInt8](repeating: 0, count: 4096)
        let n = fread(&head, 1, head.count, file)
        let lines = head[0..<n].split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count >= 2, String(decoding: lines[0], as: UTF8.self) == "id,ts,level,service,message",
            String(decoding: lines[1], as: UTF8.self) == csvLine(generator.row(1))
        else { return false }
        guard fseek(file, -4096, SEEK_END) == 0 || fseek(file, 0, SEEK_SET) == 0 else { return false }
        var tail = [UInt8](repeating: 0, count: 4096)
        let m = fread(&tail, 1, tail.count, file)
        let last = tail[0..<m].split(separator: UInt8(ascii: "\n")).last.map { String(decoding: $0, as: UTF8.self) }
        return last == csvLine(generator.row(Int64(generator.rows)))
    }

    /// A row as the CSV writes it (without the line end).
    static func csvLine(_ row: EventsGenerator.Row) -> String {
        let message = row.message.contains(",") ? "\"\(row.message)\"" : row.message
        return "\(row.id),\(row.ts),\(row.level),\(row.service),\(message)"
    }

    // MARK: Files

    private func makeDirectory() throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw BenchError.setup("cannot create the cache folder \(directory): \(error)")
        }
    }

    private func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
