import CSVImport
import Foundation
import SQLiteStore

/// What a cache database holds of its source file, kept in the database itself (its
/// `store_metadata` table, keys `csv_cache.…`), so that the one database of a file is
/// known up to date, or known to hold a prefix of it that a few appended rows complete.
///
/// The version of the file loaded (its size, modification time, inode and content check,
/// as ``CSVCacheLocation`` reads them) says whether the cache is up to date. The *loaded
/// prefix* says what a grown file must still begin with for its cache to be completed by
/// appending: ``loadedLength`` bytes of whole records, whose ``loadedCheck`` (the content
/// check of those bytes alone) a file rewritten otherwise does not match. A last record
/// without its line end is loaded too (a file needs no final line break) but read again
/// when more comes: ``openRowID``.
///
///     let state = try CSVCacheState.read(from: db)
///     state?.describes(location)   // true: the cache is the file's as it is now
struct CSVCacheState: Equatable {
    /// The source's size when it was read.
    var sourceSize: Int64
    /// Its modification time (nanoseconds since 1970).
    var sourceModified: Int64
    /// Its inode.
    var sourceInode: UInt64
    /// Its content check (``CSVCacheLocation/contentCheck``).
    var contentCheck: UInt64
    /// The bytes of whole records loaded: the size, unless the last record has no line end.
    var loadedLength: Int64
    /// The content check of the first ``loadedLength`` bytes (``CSVCacheLocation/contentCheck(fd:size:path:)``).
    var loadedCheck: UInt64
    /// The line the record after ``loadedLength`` starts on.
    var loadedLine: Int
    /// The row id of the last row when it was read without its line end (read again when more comes).
    var openRowID: Int64?
    /// The byte between fields (a CSV file's dialect).
    var delimiter: UInt8
    /// True for a JSON file (completed by appending when it is JSON Lines, whole lines at a time).
    var isJSON: Bool
    /// The columns that held no value when loaded (typed text until one comes: a value appended
    /// there means loading again, to type it).
    var undecidedColumns: [String]

    /// The prefix of the keys in `store_metadata`.
    static let keyPrefix = "csv_cache."

    /// Whether the cache is of the file as `location` found it.
    func describes(_ location: CSVCacheLocation) -> Bool {
        sourceSize == location.sourceSize && sourceModified == location.sourceModified
            && sourceInode == location.sourceInode && contentCheck == location.contentCheck
    }

    /// Whether the file as `location` found it may be this one with rows appended (same inode, as
    /// long or longer): ``CSVCacheAppender`` then checks the loaded prefix's bytes (and that a JSON
    /// file is JSON Lines: an array cannot grow by appending).
    func mayBeAppendedTo(_ location: CSVCacheLocation) -> Bool {
        sourceInode == location.sourceInode && location.sourceSize >= loadedLength
    }

    /// The state kept in `db`, nil when it has none (or another program changed it).
    static func read(from db: Database) throws -> CSVCacheState? {
        let table = try db.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
            [.text(Store.metadataTable)]
        )
        guard table.int64 == 1 else { return nil }
        var values: [String: String] = [:]
        for row in try db.query(
            "SELECT key, value FROM \(Store.metadataTable) WHERE substr(key, 1, ?) = ?",
            [.integer(Int64(keyPrefix.utf8.count)), .text(keyPrefix)]
        ) {
            if let key = row[0].string, let value = row[1].string {
                values[String(key.dropFirst(keyPrefix.count))] = value
            }
        }
        guard let size = values["sourceSize"].flatMap({ Int64($0) }),
            let modified = values["sourceModified"].flatMap({ Int64($0) }),
            let inode = values["sourceInode"].flatMap({ UInt64($0) }),
            let check = values["contentCheck"].flatMap({ UInt64($0, radix: 16) }),
            let length = values["loadedLength"].flatMap({ Int64($0) }),
            let loadedCheck = values["loadedCheck"].flatMap({ UInt64($0, radix: 16) }),
            let line = values["loadedLine"].flatMap({ Int($0) }),
            let delimiter = values["delimiter"].flatMap({ UInt8($0) })
        else { return nil }
        return CSVCacheState(
            sourceSize: size,
            sourceModified: modified,
            sourceInode: inode,
            contentCheck: check,
            loadedLength: length,
            loadedCheck: loadedCheck,
            loadedLine: line,
            openRowID: values["openRowID"].flatMap { Int64($0) },
            delimiter: delimiter,
            isJSON: values["isJSON"] == "1",
            undecidedColumns: values["undecidedColumns"].map { $0.isEmpty ? [] : $0.components(separatedBy: "\u{1F}") }
                ?? []
        )
    }

    /// Writes the state into `db` (in the caller's transaction, if any).
    func write(to db: Database) throws {
        try db.execute(
            "CREATE TABLE IF NOT EXISTS \(Store.metadataTable) (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
        )
        let values: [(String, String?)] = [
            ("sourceSize", String(sourceSize)),
            ("sourceModified", String(sourceModified)),
            ("sourceInode", String(sourceInode)),
            ("contentCheck", String(contentCheck, radix: 16)),
            ("loadedLength", String(loadedLength)),
            ("loadedCheck", String(loadedCheck, radix: 16)),
            ("loadedLine", String(loadedLine)),
            ("openRowID", openRowID.map(String.init)),
            ("delimiter", String(delimiter)),
            ("isJSON", isJSON ? "1" : "0"),
            ("undecidedColumns", undecidedColumns.joined(separator: "\u{1F}")),
        ]
        for (key, value) in values {
            if let value {
                try db.run(
                    "INSERT INTO \(Store.metadataTable)(key, value) VALUES (?, ?) "
                        + "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    [.text(CSVCacheState.keyPrefix + key), .text(value)]
                )
            } else {
                try db.run(
                    "DELETE FROM \(Store.metadataTable) WHERE key = ?",
                    [.text(CSVCacheState.keyPrefix + key)]
                )
            }
        }
    }

    /// The state of a file as `location` found it, loaded whole or up to its last record's start
    /// (`lastRecord`: its offset and line, and whether it was written as row `lastRowID`).
    ///
    /// A file that ends with a line break was loaded whole; otherwise its last record is open:
    /// loaded (a file needs no final line end) and read again when more comes.
    static func of(
        _ location: CSVCacheLocation,
        endsWithLineBreak: Bool,
        endLine: Int,
        lastRecord: (offset: Int64, line: Int)?,
        lastRowID: Int64?,
        delimiter: UInt8,
        isJSON: Bool,
        undecidedColumns: [String]
    ) throws -> CSVCacheState {
        let open = !endsWithLineBreak && lastRecord != nil && !isJSON
        let length = open ? lastRecord!.offset : location.sourceSize
        return CSVCacheState(
            sourceSize: location.sourceSize,
            sourceModified: location.sourceModified,
            sourceInode: location.sourceInode,
            contentCheck: location.contentCheck,
            loadedLength: length,
            loadedCheck: try CSVCacheLocation.contentCheck(path: location.sourcePath, size: length),
            loadedLine: open ? lastRecord!.line : endLine,
            openRowID: open ? lastRowID : nil,
            delimiter: delimiter,
            isJSON: isJSON,
            undecidedColumns: undecidedColumns
        )
    }
}
