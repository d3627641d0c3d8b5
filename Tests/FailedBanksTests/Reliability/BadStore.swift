import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A file at the store's path that the app must refuse with a clear message,
/// a `sysexits.h` status, and without changing a byte of it.
enum BadStore: String, CaseIterable, Sendable, CustomStringConvertible {
    case notSQLite
    case truncatedInTheHeader
    case truncatedToHalf
    case corruptedInTheMiddle
    case corruptedTableRoot
    case newerSchemaVersion
    case coreDataStore
    case tutorialStore
    case directory
    case fifo

    var description: String { rawValue }

    /// The message must contain one of these (case-insensitive).
    var keyWords: [String] {
        switch self {
        case .notSQLite, .truncatedInTheHeader: return ["not a SQLite database", "not a database"]
        case .truncatedToHalf, .corruptedInTheMiddle, .corruptedTableRoot:
            return ["malformed", "corrupt", "damaged", "truncated"]
        case .newerSchemaVersion: return ["newer"]
        case .coreDataStore, .tutorialStore: return ["another application"]
        case .directory: return ["directory", "not a SQLite database"]
        case .fifo: return ["not a SQLite database", "not a regular file", "fifo", "pipe"]
        }
    }

    /// True when the file is refused before any bank is read, so nothing may reach stdout.
    var isRefusedAtOpen: Bool {
        switch self {
        case .truncatedToHalf, .corruptedInTheMiddle, .corruptedTableRoot: return false
        default: return true
        }
    }

    /// The real-world store in `Tests/Fixtures` this kind is a copy of, if any.
    var fixtureFile: String? {
        switch self {
        case .coreDataStore: return "FailedBanksCD_2011_coredata.sqlite"
        case .tutorialStore: return "banklist_2010_tutorial.sqlite3"
        default: return nil
        }
    }

    /// Makes the bad file at `path`; `good` is a valid store (Data/banklist.csv) to start from.
    func make(at path: String, from good: String, seed: UInt64) throws {
        let fm = FileManager.default
        var random = ReliabilityRandom(seed: seed)
        func copyGood() throws -> [UInt8] {
            try TemporaryDirectory.copyStore(good, to: path)
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
        switch self {
        case .notSQLite:
            try Data("Bank Name,City,State\nThis is not a database,Nowhere,ZZ\n".utf8).write(
                to: URL(fileURLWithPath: path)
            )
        case .truncatedInTheHeader:
            try write(Array(try copyGood().prefix(50)))
        case .truncatedToHalf:
            let bytes = try copyGood()
            try write(Array(bytes.prefix(bytes.count / 2 / 4096 * 4096 + 1000)))
        case .corruptedInTheMiddle:
            var bytes = try copyGood()
            let third = bytes.count / 3
            bytes.replaceSubrange(third..<(2 * third), with: random.bytes(third))
            try write(bytes)
        case .corruptedTableRoot:
            var bytes = try copyGood()
            let root = try ProcessRunner.run(
                BrowserFixture.sqlite3!,
                [
                    "-batch", path,
                    "PRAGMA page_size; SELECT rootpage FROM sqlite_master WHERE name = 'failed_bank_details'",
                ]
            )
            let numbers = root.standardOutput.split(separator: "\n").compactMap { Int($0) }
            guard numbers.count == 2, numbers[1] > 1 else {
                throw EndToEndError("no root page: \(root.standardOutput)")
            }
            let start = (numbers[1] - 1) * numbers[0]
            bytes.replaceSubrange(start..<(start + numbers[0]), with: random.bytes(numbers[0]))
            try write(bytes)
        case .newerSchemaVersion:
            _ = try copyGood()
            let result = try ProcessRunner.run(BrowserFixture.sqlite3!, ["-batch", path, "PRAGMA user_version = 99"])
            guard result.status == 0 else { throw EndToEndError("sqlite3: \(result.standardError)") }
        case .coreDataStore, .tutorialStore:
            let source = ReliabilitySettings.fixture(fixtureFile!)
            guard fm.fileExists(atPath: source) else { throw EndToEndError("\(source) is missing") }
            try? fm.removeItem(atPath: path)
            try fm.copyItem(atPath: source, toPath: path)
            chmod(path, 0o644)
        case .directory:
            try fm.createDirectory(atPath: path, withIntermediateDirectories: true)
        case .fifo:
            guard mkfifo(path, 0o644) == 0 else { throw EndToEndError("mkfifo: \(errno)") }
        }
    }
}
