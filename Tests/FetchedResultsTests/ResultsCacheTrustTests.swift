import Foundation
import SQLiteStore
import TestSupport
import Testing

@_spi(Benchmark) @testable import FetchedResults

/// Rule 8's other half: a results cache is a hint, never trusted. A cache of
/// one store file is never read for another at the same path, and a damaged
/// or forged cache file is ignored, deleted and rebuilt, never a crash.
@Suite struct ResultsCacheTrustTests {
    static func byDate() -> FetchRequest {
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [
            FetchSort("details.closeDate", ascending: false), FetchSort("name", comparison: .caseInsensitive),
        ]
        r.fetchBatchSize = 5
        return r
    }

    /// A folder with a store path and a cache folder; no store is held open.
    final class Folder {
        let folder = TemporaryDirectory("frc-trust")
        var directory: String { folder.path }
        var path: String { directory + "/banks.sqlite" }
        var cacheDirectory: String { directory + "/cache" }
        var cacheFile: String { cacheDirectory + "/banks.frc" }

        /// Creates the store afresh with `banks` (name, close date) inserted in order, then deletes the ids in `deleting`.
        func createStore(_ banks: [(String, String)], deleting: [Int64] = []) throws {
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            let store = try Store(path: path, model: BankModel.model)
            let context = ObjectContext(store: store)
            for (i, bank) in banks.enumerated() {
                let info = context.insert(into: "FailedBankInfo")
                info["name"] = .text(bank.0)
                info["city"] = .text("Springfield")
                info["state"] = .text("IL")
                let details = context.insert(into: "FailedBankDetails")
                details["closeDate"] = .text(bank.1)
                details["cert"] = .integer(Int64(100 + i))
                details.setRelated(info, for: "info")
            }
            try context.save()
            for id in deleting {
                try store.database.run("DELETE FROM failed_bank_info WHERE id = ?", [.integer(id)])
            }
        }

        func launch(_ body: (FetchedResultsController) throws -> Void) throws {
            let store = try Store(path: path, model: BankModel.model)
            let controller = FetchedResultsController(
                fetchRequest: ResultsCacheTrustTests.byDate(),
                context: ObjectContext(store: store),
                sectionNameKeyPath: "details.closeYear",
                cacheName: "banks",
                cacheDirectory: cacheDirectory
            )
            try controller.performFetch()
            try body(controller)
        }

        /// The results of a fetch without a cache, and the name of every object, in order.
        func fresh() throws -> (Snapshot, [String]) {
            let store = try Store(path: path, model: BankModel.model)
            let controller = FetchedResultsController(
                fetchRequest: ResultsCacheTrustTests.byDate(),
                context: ObjectContext(store: store),
                sectionNameKeyPath: "details.closeYear"
            )
            try controller.performFetch()
            return (Snapshot(controller), controller.fetchedObjects.map { $0.string("name") ?? "" })
        }
    }

    static let listA = (0..<12).map { ("Alpha \($0)", "20\(10 + $0 % 4)-0\(1 + $0 % 9)-15") }
    static let listB = (0..<12).map { ("Bravo \($0)", "20\(13 - $0 % 4)-0\(9 - $0 % 9)-10") }

    // MARK: Defect 1: another file at the same path

    @Test func aStoreRecreatedAtThePathWithTheSameSizeDoesNotReadTheOldStoresCache() throws {
        let f = Folder()
        try f.createStore(Self.listA)
        try f.launch { #expect(!$0.lastFetchUsedCache) }
        try f.launch { #expect($0.lastFetchUsedCache) }
        // Deleted, and a different list of the same size imported at the same path: same row
        // count, max id and history position as the old file.
        try f.createStore(Self.listB)
        let (expected, names) = try f.fresh()
        try f.launch { c in
            #expect(!c.lastFetchUsedCache)
            #expect(Snapshot(c) == expected)
            // What the browser deletes is what it shows.
            #expect(c.object(at: .at(0, 0)).string("name") == names[0])
            #expect(c.fetchedObjects.map { $0.string("name") ?? "" } == names)
        }
        try f.launch { #expect($0.lastFetchUsedCache) }
    }

    @Test func aRecreatedStoreWithOtherIdsMissingIsFetchedAfreshWithoutACrash() throws {
        let f = Folder()
        // Same counts and max id, different ids: 3 missing in one file, 7 in the other.
        try f.createStore(Self.listA + [("Alpha 12", "2012-02-02")], deleting: [7])
        try f.launch { _ in }
        try f.createStore(Self.listA + [("Alpha 12", "2012-02-02")], deleting: [3])
        let (expected, names) = try f.fresh()
        try f.launch { c in
            #expect(!c.lastFetchUsedCache)
            #expect(Snapshot(c) == expected)
            #expect(c.fetchedObjects.map { $0.string("name") ?? "" } == names)
        }
    }

    @Test func everyStoreGetsARandomIDAtCreationAndKeepsIt() throws {
        let f = Folder()
        try f.createStore(Self.listA)
        let first = try Store(path: f.path, model: BankModel.model).identity
        let again = try Store(path: f.path, model: BankModel.model).identity
        #expect(first.storeID != nil && first == again)
        try f.createStore(Self.listA)
        let recreated = try Store(path: f.path, model: BankModel.model).identity
        #expect(recreated.storeID != nil && recreated.storeID != first.storeID)
    }

    @Test func aStoreWithoutAnIDGetsOneWhenOpenedForWritingAndStillWorksReadOnly() throws {
        let f = Folder()
        try f.createStore(Self.listA)
        do {
            let db = try Database(path: f.path)
            try db.execute("DROP TABLE store_metadata")
        }
        // Read-only, an old store cannot be given an id: it still opens, and its cache still works safely.
        let readOnly = try Store(path: f.path, model: BankModel.model, readOnly: true)
        #expect(readOnly.identity.storeID == nil)
        let c = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: ObjectContext(store: readOnly),
            sectionNameKeyPath: "details.closeYear",
            cacheName: "banks",
            cacheDirectory: f.cacheDirectory
        )
        try c.performFetch()
        #expect(Snapshot(c) == (try f.fresh()).0)
        // Opened for writing, it is migrated: it gets an id, which it then keeps.
        let migrated = try Store(path: f.path, model: BankModel.model).identity.storeID
        #expect(migrated != nil)
        #expect(try Store(path: f.path, model: BankModel.model).identity.storeID == migrated)
    }

    // MARK: Defect 2: damaged and forged cache files

    /// Writes the cache, damages it with `damage`, and checks that the next launch ignores and
    /// deletes it, fetches the right results, rewrites it, and the launch after reads it again.
    func checkDamage(_ label: String, _ damage: (inout [UInt8]) -> Void) throws {
        let f = Folder()
        try f.createStore(Self.listA + Self.listB)
        try f.launch { _ in }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: f.cacheFile)))
        damage(&bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: f.cacheFile))
        let (expected, names) = try f.fresh()
        try f.launch { c in
            #expect(!c.lastFetchUsedCache, "\(label): the damaged cache was used")
            #expect(Snapshot(c) == expected, "\(label)")
            #expect(c.fetchedObjects.map { $0.string("name") ?? "" } == names, "\(label)")
        }
        try f.launch { #expect($0.lastFetchUsedCache, "\(label): the cache was not rebuilt") }
    }

    /// Where the ids start: after the header (found by the id count, 24, and the first run's length).
    static func idsOffset(_ bytes: [UInt8]) -> Int {
        let total: [UInt8] = [24, 0, 0, 0, 0, 0, 0, 0]
        for i in 0..<(bytes.count - 12) where Array(bytes[i..<(i + 8)]) == total && bytes[i + 8] == 24 {
            return i + 12
        }
        return bytes.count - 8 * 25
    }

    @Test func overwrittenIdsAreIgnoredDeletedAndRebuilt() throws {
        try checkDamage("an id overwritten with one that does not exist") { bytes in
            let at = Self.idsOffset(bytes) + 8 * 3
            bytes.replaceSubrange(at..<(at + 8), with: [0x3F, 0x42, 0x0F, 0, 0, 0, 0, 0])
        }
        try checkDamage("two ids swapped (all exist: the order is wrong)") { bytes in
            let at = Self.idsOffset(bytes)
            let first = Array(bytes[at..<(at + 8)])
            bytes.replaceSubrange(at..<(at + 8), with: bytes[(at + 40)..<(at + 48)])
            bytes.replaceSubrange((at + 40)..<(at + 48), with: first)
        }
    }

    @Test func truncatedGarbageAndGrownFilesAreIgnoredDeletedAndRebuilt() throws {
        try checkDamage("truncated in the ids") { $0.removeLast(20) }
        try checkDamage("truncated in the header") { $0.removeLast($0.count - 30) }
        try checkDamage("the checksum alone cut off") { $0.removeLast(8) }
        try checkDamage("bytes appended") { $0 += [1, 2, 3, 4] }
        try checkDamage("garbage after the magic") { bytes in
            var g = SplitMix(seed: 7)
            for i in 8..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: g.next()) }
        }
        try checkDamage("garbage after the fingerprint") { bytes in
            var g = SplitMix(seed: 8)
            for i in (bytes.count / 2)..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: g.next()) }
        }
        try checkDamage("an empty file") { $0 = [] }
    }

    /// A cache written through the writer (a valid checksum) with contents that do not agree
    /// with the table: what someone editing the file and fixing the checksum up would make.
    func checkForged(_ label: String, _ forge: (inout [Int64], inout [SectionRecord]) -> Void) throws {
        let f = Folder()
        try f.createStore(Self.listA + Self.listB)
        var fingerprint = ""
        var ids: [Int64] = []
        var sections: [SectionRecord] = []
        try f.launch { c in
            fingerprint = try #require(c.cacheIdentity(for: try c.makePlan())).fingerprint
            ids = c.fetchedObjects.objectIDs.map(\.rowID)
            sections = c.sectionRecords
        }
        forge(&ids, &sections)
        var builder = OrderedIDList.Builder()
        for id in ids { builder.append(id) }
        try ResultsCache.save(
            name: "banks",
            directory: f.cacheDirectory,
            fingerprint: fingerprint,
            list: builder.finish(),
            sections: sections
        )
        let (expected, _) = try f.fresh()
        try f.launch { c in
            #expect(!c.lastFetchUsedCache, "\(label): the forged cache was used")
            #expect(Snapshot(c) == expected, "\(label)")
        }
        try f.launch { #expect($0.lastFetchUsedCache, "\(label): the cache was not rebuilt") }
    }

    @Test func forgedCachesWhoseContentsDisagreeWithTheTableAreIgnoredDeletedAndRebuilt() throws {
        try checkForged("an id that does not exist") { ids, _ in ids[5] = 9_999 }
        try checkForged("an id twice") { ids, _ in ids[5] = ids[6] }
        try checkForged("one id fewer") { ids, sections in
            ids.removeLast()
            sections[sections.count - 1].count -= 1
            if sections[sections.count - 1].count == 0 { sections.removeLast() }
        }
        try checkForged("section counts that do not add up") { _, sections in sections[0].count += 1 }
        try checkForged("a section with no rows") { _, sections in
            sections.insert(SectionRecord(value: .text("1999"), name: "1999", count: 0), at: 1)
        }
    }

    @Test func theReaderRefusesWhatTheWriterDidNotWriteWhateverTheBytes() throws {
        let f = Folder()
        var g = SplitMix(seed: 13)
        let file = f.directory + "/random.frc"
        for round in 0..<300 {
            var bytes = Array("FRCACHE3".utf8)
            let n = Int(g.next() % 400)
            for _ in 0..<n { bytes.append(UInt8(truncatingIfNeeded: g.next() % (round.isMultiple(of: 2) ? 4 : 256))) }
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let fd = open(file, O_RDONLY)
            defer { close(fd) }
            if case .results = ResultsCache.read(fd: fd, fingerprint: nil) {
                Issue.record("random bytes were read as a cache (round \(round))")
            }
        }
    }
}

/// A small deterministic generator for the damage (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
