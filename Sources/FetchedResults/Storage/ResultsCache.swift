import BaseDirectories
import Foundation
import SQLiteStore

/// The on-disk cache of a controller's results (rule 8 of <doc:ChangeBatches>; see <doc:ResultsCaches>):
/// section info and the ordered ids, under a fingerprint of the request, the model, the store
/// file's identity and the store's data state.
///
/// File layout (little-endian): `FRCACHE3`, the fingerprint (length + UTF-8),
/// the sections (value, name, count), the id count, blocks of
/// `[UInt32 n][n × Int64 id]`, and a checksum of everything before it.
/// Written to a temporary file and renamed, so a crash never leaves half a cache.
///
/// A cache is a hint, never trusted: ``read(fd:fingerprint:)`` refuses a file
/// whose checksum, counts or ids do not add up (truncated, overwritten, garbage,
/// an id twice), and ``validate(_:key:store:)`` checks what it holds against
/// the table (the number of rows, and whether a sample of the ids exist). The
/// controller deletes a refused file and fetches afresh.
enum ResultsCache {
    static let magic = Array("FRCACHE3".utf8)
    /// The longest run of ids one record may hold (the writer writes one run per
    /// chunk; this bound does not follow the chunk size, so older files stay readable).
    static let maxRun = 4096
    /// How many ids ``validate(_:key:store:)`` looks up in the table.
    static let sampleSize = 64

    /// `$XDG_CACHE_HOME/fetchedresults` (``XDGBaseDirectories``: a relative value is ignored).
    static var defaultDirectory: String { XDGBaseDirectories().cache("fetchedresults") }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first != ".", name.count <= 200 else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
    }

    static func path(name: String, directory: String?) -> String {
        (directory ?? defaultDirectory) + "/" + name + ".frc"
    }

    /// What a valid cache entry is written under now, and what its contents must agree with.
    struct Key {
        /// Request, model, store identity and data state in one string; any difference invalidates the cache.
        var fingerprint: String
        /// The entity's table (as SQL after `FROM`), its id column (as SQL) and its row count when the fingerprint was taken.
        var table: String
        var idColumn: String
        var rowCount: Int64
        /// Whether every row of the table is in the results (no predicate, limit or offset).
        var coversTable: Bool
        /// Whether the results have a section key (else exactly one section).
        var isSectioned: Bool
    }

    /// The key of `plan`'s results over `store` now.
    static func key(plan: FetchPlan, store: Store) throws -> Key {
        let db = store.database
        let from = plan.entity.sqlTable
        let state: (Int64, StoreValue, StoreValue, StoreValue) = try db.read {
            (
                try store.historyPosition(),
                try db.scalar("SELECT count(*) FROM \(from)"),
                try db.scalar("SELECT max(\(plan.entity.sqlIDColumn)) FROM \(from)"),
                try db.scalar("PRAGMA schema_version")
            )
        }
        var s = "format=3;store=\(URL(fileURLWithPath: store.path).standardizedFileURL.path);file=\(store.identity);"
        s += "model=\(store.model.version)/\(store.model.applicationID)/\(modelDigest(store.model));"
        s += plan.descriptor
        s += ";history=\(state.0);rows=\(state.1);maxid=\(state.2);schema=\(state.3)"
        let request = plan.request
        return Key(
            fingerprint: s,
            table: from,
            idColumn: plan.entity.sqlIDColumn,
            rowCount: state.1.int64 ?? 0,
            coversTable: request.predicate == nil && request.fetchLimit == 0 && request.fetchOffset == 0,
            isSectioned: plan.sectionExpression != nil
        )
    }

    /// A description of the model's structure (names, types, relationships, derived SQL).
    static func modelDigest(_ model: Model) -> String {
        var s = ""
        for e in model.entities {
            s += e.name + "(" + e.attributes.map { "\($0.name):\($0.type)" }.joined(separator: ",")
            s += "|" + e.relationships.map { "\($0.name)->\($0.destination)" }.joined(separator: ",")
            s += "|" + e.derived.map { "\($0.name)=\($0.sql)" }.joined(separator: ",") + ")"
        }
        // FNV-1a keeps the fingerprint short.
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(h, radix: 16)
    }

    /// A 64-bit checksum of a byte stream, eight bytes a step (fast enough for a million ids:
    /// about a millisecond). It finds damage, not forgery: ``validate(_:key:store:)`` does what it can about that.
    struct Checksum {
        private(set) var value: UInt64 = 0x9E37_79B9_7F4A_7C15
        private var pending: UInt64 = 0
        private var pendingCount = 0

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var i = 0
            while pendingCount > 0 && i < bytes.count {
                addByte(bytes[i])
                i += 1
            }
            while i + 8 <= bytes.count {
                mix(bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i += 8
            }
            while i < bytes.count {
                addByte(bytes[i])
                i += 1
            }
        }

        mutating func add(_ bytes: [UInt8]) { bytes.withUnsafeBytes { add($0) } }

        private mutating func addByte(_ b: UInt8) {
            pending |= UInt64(b) << (8 * UInt64(pendingCount))
            pendingCount += 1
            if pendingCount == 8 {
                mix(pending)
                pending = 0
                pendingCount = 0
            }
        }

        private mutating func mix(_ word: UInt64) {
            value =
                ((value ^ (word &* 0x87C3_7B91_1142_53D5)) &<< 31 | (value ^ (word &* 0x87C3_7B91_1142_53D5)) &>> 33)
                &* 0x4CF5_AD43_2745_937F &+ 0x52DC_E729
        }

        /// The checksum of everything added (the bytes not yet making a word included).
        var final: UInt64 {
            var copy = self
            copy.mix(pending ^ (UInt64(pendingCount) << 56) ^ 0xA5)
            return copy.value
        }
    }

    // MARK: Writing

    static func save(
        name: String,
        directory: String?,
        fingerprint: String,
        list: OrderedIDList,
        sections: [SectionRecord]
    ) throws {
        try save(
            to: path(name: name, directory: directory),
            directory: directory ?? defaultDirectory,
            fingerprint: fingerprint,
            list: list,
            sections: sections
        )
    }

    /// Writes a cache file at `final` (through a temporary file in `directory`, renamed).
    static func save(
        to final: String,
        directory dir: String,
        fingerprint: String,
        list: OrderedIDList,
        sections: [SectionRecord]
    ) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let temp = final + ".tmp-\(getpid())"
        guard let file = fopen(temp, "wb") else { throw CocoaError(.fileWriteUnknown) }
        var ok = true
        var header: [UInt8] = magic
        appendString(fingerprint, to: &header)
        appendInt(UInt64(sections.count), 4, to: &header)
        for r in sections {
            appendValue(r.value, to: &header)
            appendString(r.name, to: &header)
            appendInt(UInt64(r.count), 8, to: &header)
        }
        appendInt(UInt64(list.count), 8, to: &header)
        var checksum = Checksum()
        checksum.add(header)
        ok = ok && fwrite(header, 1, header.count, file) == header.count
        list.sequence.forEachChunk { chunk in
            guard !chunk.ids.isEmpty else { return }
            var n = UInt32(chunk.ids.count).littleEndian
            withUnsafeBytes(of: &n) { checksum.add($0) }
            ok = ok && fwrite(&n, 4, 1, file) == 1
            chunk.ids.withInt64Buffer { ids in
                let bytes = UnsafeRawBufferPointer(ids)
                checksum.add(bytes)
                ok = ok && fwrite(bytes.baseAddress, 1, bytes.count, file) == bytes.count
            }
        }
        var sum = checksum.final.littleEndian
        ok = ok && fwrite(&sum, 8, 1, file) == 1
        ok = fclose(file) == 0 && ok
        guard ok, rename(temp, final) == 0 else {
            unlink(temp)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    private static func appendInt(_ v: UInt64, _ bytes: Int, to out: inout [UInt8]) {
        for i in 0..<bytes { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
    }

    private static func appendString(_ s: String, to out: inout [UInt8]) {
        let u = Array(s.utf8)
        appendInt(UInt64(u.count), 4, to: &out)
        out += u
    }

    private static func appendValue(_ v: StoreValue, to out: inout [UInt8]) {
        switch v {
        case .null: out.append(0)
        case .integer(let i):
            out.append(1)
            appendInt(UInt64(bitPattern: i), 8, to: &out)
        case .real(let d):
            out.append(2)
            appendInt(d.bitPattern, 8, to: &out)
        case .text(let s):
            out.append(3)
            appendString(s, to: &out)
        case .blob(let b):
            out.append(4)
            appendInt(UInt64(b.count), 4, to: &out)
            out += b
        }
    }

    // MARK: Reading

    /// What a cache file holds.
    enum Contents {
        /// No file (or it cannot be opened).
        case missing
        /// A well-formed file written under another fingerprint (out of date: rewritten by the next cold fetch).
        case stale
        /// A damaged file: bad magic, checksum, counts, an id twice, truncation, trailing bytes.
        case damaged
        /// The results, well-formed.
        case results(OrderedIDList, [SectionRecord])
    }

    /// The cache `name` when its file exists, is well-formed and was written under `key`'s
    /// fingerprint, and what it holds agrees with the table (``validate(_:key:store:)``);
    /// nil otherwise. A damaged or disagreeing file is deleted.
    static func load(name: String, directory: String?, key: Key, store: Store) -> (OrderedIDList, [SectionRecord])? {
        let file = path(name: name, directory: directory)
        let fd = open(file, O_RDONLY)
        guard fd >= 0 else { return nil }
        let contents = read(fd: fd, fingerprint: key.fingerprint)
        close(fd)
        switch contents {
        case .missing, .stale:
            return nil
        case .damaged:
            unlink(file)
            return nil
        case .results(let list, let sections):
            guard validate(list, sections: sections, key: key, store: store) else {
                unlink(file)
                return nil
            }
            return (list, sections)
        }
    }

    /// Parses a cache file (`fingerprint` nil: whatever fingerprint it carries). Never traps,
    /// whatever the bytes: the reader of the fuzz harness, which also reads without
    /// `verifyingChecksum` to reach the checks behind it.
    static func read(fd: Int32, fingerprint: String?, verifyingChecksum: Bool = true) -> Contents {
        var reader = Reader(fd: fd)
        guard let m = reader.bytes(magic.count) else { return .damaged }
        guard m == magic else { return m.starts(with: Array("FRCACHE".utf8)) ? .stale : .damaged }
        guard let fp = reader.string() else { return .damaged }
        if let fingerprint, fp != fingerprint { return .stale }
        guard let sectionCount = reader.int(4) else { return .damaged }
        var sections: [SectionRecord] = []
        var sectionTotal: UInt64 = 0
        for _ in 0..<sectionCount {
            guard let v = reader.value(), let n = reader.string(), let c = reader.int(8),
                c <= UInt64(Int32.max), sectionTotal + c <= UInt64(Int32.max)
            else { return .damaged }
            sectionTotal += c
            sections.append(SectionRecord(value: v, name: n, count: Int(c)))
        }
        guard let total = reader.int(8), total == sectionTotal else { return .damaged }
        // One section may be empty (the only one of unsectioned results); otherwise no section is.
        if sections.count > 1 && sections.contains(where: { $0.count == 0 }) { return .damaged }
        var builder = OrderedIDList.Builder()
        var read: UInt64 = 0
        var ids = [Int64](repeating: 0, count: ResultsCache.maxRun)
        while read < total {
            guard let n32 = reader.int(4), n32 > 0, n32 <= UInt64(ResultsCache.maxRun), read + n32 <= total else {
                return .damaged
            }
            let n = Int(n32)
            let ok = ids.withUnsafeMutableBytes {
                reader.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<(n * 8)]))
            }
            guard ok else { return .damaged }
            ids.withUnsafeBufferPointer { builder.append(ids: UnsafeBufferPointer(rebasing: $0[0..<n])) }
            read += n32
        }
        let expected = reader.checksum.final
        guard let sum = reader.int(8), sum == expected || !verifyingChecksum, reader.isAtEnd else { return .damaged }
        guard let list = builder.finishRejectingDuplicates() else { return .damaged }
        return .results(list, sections)
    }

    /// Whether cached results agree with the store now: the number of ids against the table's
    /// row count (equal when the request covers the whole table, at most it otherwise), the
    /// sections against the request (exactly one without a section key), and a sample of
    /// ``sampleSize`` ids spread over the list (the first and last of each stretch) exist as
    /// rows: one indexed query, so a launch from the cache stays about as fast (the
    /// fingerprint names the file and its data state; this is what is left to check of a
    /// file someone edited with the checksum fixed up, or data changed without history).
    static func validate(_ list: OrderedIDList, sections: [SectionRecord], key: Key, store: Store) -> Bool {
        let count = Int64(list.count)
        if key.coversTable ? count != key.rowCount : count > key.rowCount { return false }
        if !key.isSectioned && sections.count != 1 { return false }
        guard list.count > 0 else { return true }
        var sample = Set<Int64>()
        let step = max(1, list.count / sampleSize)
        var p = 0
        while p < list.count && sample.count < sampleSize {
            sample.insert(list.id(at: p))
            p += step
        }
        sample.insert(list.id(at: list.count - 1))
        let placeholders = Array(repeating: "?", count: sample.count).joined(separator: ",")
        let sql = "SELECT count(*) FROM \(key.table) WHERE \(key.idColumn) IN (\(placeholders))"
        guard let statement = try? store.database.uncachedStatement(sql) else { return false }
        defer { statement.reset() }
        guard (try? statement.bind(sample.map { .integer($0) })) != nil, (try? statement.step()) == true else {
            return false
        }
        return statement.int64(at: 0) == Int64(sample.count)
    }

    /// Whether the file `name` exists and was written under `fingerprint`: what ``load(name:directory:key:store:)``
    /// checks first, without reading the ids (a file damaged after its header still fails `load`).
    static func hasEntry(name: String, directory: String?, fingerprint: String) -> Bool {
        let fd = open(path(name: name, directory: directory), O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var reader = Reader(fd: fd)
        guard let m = reader.bytes(magic.count), m == magic, let fp = reader.string() else { return false }
        return fp == fingerprint
    }

    /// Buffered reads from a file descriptor.
    private struct Reader {
        let fd: Int32
        private var buffer = [UInt8](repeating: 0, count: 1 << 16)
        private var start = 0
        private var end = 0
        /// The checksum of every byte returned so far.
        private(set) var checksum = Checksum()

        init(fd: Int32) { self.fd = fd }

        /// True when the file has no byte left.
        var isAtEnd: Bool {
            mutating get { !fill() }
        }

        private mutating func fill() -> Bool {
            if start < end { return true }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return false }
            start = 0
            end = n
            return true
        }

        mutating func read(into out: UnsafeMutableRawBufferPointer) -> Bool {
            var done = 0
            while done < out.count {
                guard fill() else { return false }
                let n = min(end - start, out.count - done)
                buffer.withUnsafeBytes { b in
                    (out.baseAddress! + done).copyMemory(from: b.baseAddress! + start, byteCount: n)
                    checksum.add(UnsafeRawBufferPointer(rebasing: b[start..<(start + n)]))
                }
                start += n
                done += n
            }
            return true
        }

        mutating func bytes(_ n: Int) -> [UInt8]? {
            guard n <= 1 << 24 else { return nil }
            var out = [UInt8](repeating: 0, count: n)
            let ok = out.withUnsafeMutableBytes { read(into: $0) }
            return ok ? out : nil
        }

        mutating func int(_ n: Int) -> UInt64? {
            guard let b = bytes(n) else { return nil }
            var v: UInt64 = 0
            for (i, x) in b.enumerated() { v |= UInt64(x) << (8 * UInt64(i)) }
            return v
        }

        mutating func string() -> String? {
            guard let n = int(4), let b = bytes(Int(n)) else { return nil }
            return String(decoding: b, as: UTF8.self)
        }

        mutating func value() -> StoreValue? {
            guard let tag = int(1) else { return nil }
            switch tag {
            case 0: return .null
            case 1: return int(8).map { .integer(Int64(bitPattern: $0)) }
            case 2: return int(8).map { .real(Double(bitPattern: $0)) }
            case 3: return string().map { .text($0) }
            case 4:
                guard let n = int(4), let b = bytes(Int(n)) else { return nil }
                return .blob(b)
            default: return nil
            }
        }
    }

    // MARK: Deleting

    static func delete(name: String?, directory: String?) {
        let dir = directory ?? defaultDirectory
        if let name {
            guard isValidName(name) else { return }
            unlink(path(name: name, directory: directory))
            return
        }
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for f in files where f.hasSuffix(".frc") { unlink(dir + "/" + f) }
    }
}
