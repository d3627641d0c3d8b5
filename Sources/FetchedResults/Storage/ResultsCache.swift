import Foundation
import SQLiteStore

/// The on-disk cache of a controller's results (rule 8 of <doc:ChangeBatches>; see <doc:ResultsCaches>): section info and the
/// ordered ids, under a fingerprint of the request, the model and the
/// store's data state.
///
/// File layout (little-endian): `FRCACHE2`, the fingerprint (length + UTF-8),
/// the sections (value, name, count), then blocks of `[UInt32 n][n × Int64 id]`.
/// Written to a temporary file and renamed, so a crash never leaves half a cache.
enum ResultsCache {
    static let magic = Array("FRCACHE2".utf8)
    /// The longest run of ids one record may hold (the writer writes one run per
    /// chunk; this bound does not follow the chunk size, so older files stay readable).
    static let maxRun = 4096

    static var defaultDirectory: String {
        let env = ProcessInfo.processInfo.environment
        if let x = env["XDG_CACHE_HOME"], !x.isEmpty { return x + "/fetchedresults" }
        let home = env["HOME"] ?? NSHomeDirectory()
        return home + "/.cache/fetchedresults"
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first != ".", name.count <= 200 else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
    }

    static func path(name: String, directory: String?) -> String {
        (directory ?? defaultDirectory) + "/" + name + ".frc"
    }

    /// Request, model and data state in one string; any difference invalidates the cache.
    static func fingerprint(plan: FetchPlan, store: Store) throws -> String {
        let db = store.database
        let table = plan.entity.tableName
        let state: (Int64, StoreValue, StoreValue, StoreValue) = try db.read {
            (try store.historyPosition(),
             try db.scalar("SELECT count(*) FROM \(table)"),
             try db.scalar("SELECT max(id) FROM \(table)"),
             try db.scalar("PRAGMA schema_version"))
        }
        var s = "format=1;store=\(URL(fileURLWithPath: store.path).standardizedFileURL.path);"
        s += "model=\(store.model.version)/\(store.model.applicationID)/\(modelDigest(store.model));"
        s += plan.descriptor
        s += ";history=\(state.0);rows=\(state.1);maxid=\(state.2);schema=\(state.3)"
        return s
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
        var h: UInt64 = 0xcbf29ce484222325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return String(h, radix: 16)
    }

    // MARK: Writing

    static func save(name: String, directory: String?, fingerprint: String, list: OrderedIDList, sections: [SectionRecord]) throws {
        let dir = directory ?? defaultDirectory
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let final = path(name: name, directory: directory)
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
        ok = ok && fwrite(header, 1, header.count, file) == header.count
        list.sequence.forEachChunk { chunk in
            var n = UInt32(chunk.ids.count).littleEndian
            ok = ok && fwrite(&n, 4, 1, file) == 1
            chunk.ids.withUnsafeBytes { ok = ok && fwrite($0.baseAddress, 1, $0.count, file) == $0.count }
        }
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
        case .integer(let i): out.append(1); appendInt(UInt64(bitPattern: i), 8, to: &out)
        case .real(let d): out.append(2); appendInt(d.bitPattern, 8, to: &out)
        case .text(let s): out.append(3); appendString(s, to: &out)
        case .blob(let b): out.append(4); appendInt(UInt64(b.count), 4, to: &out); out += b
        }
    }

    // MARK: Reading

    /// The cached results when the file exists and its fingerprint matches; nil otherwise.
    static func load(name: String, directory: String?, fingerprint: String) -> (OrderedIDList, [SectionRecord])? {
        let file = path(name: name, directory: directory)
        let fd = open(file, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var reader = Reader(fd: fd)
        guard let m = reader.bytes(magic.count), m == magic,
              let fp = reader.string(), fp == fingerprint,
              let sectionCount = reader.int(4) else { return nil }
        var sections: [SectionRecord] = []
        for _ in 0..<sectionCount {
            guard let v = reader.value(), let n = reader.string(), let c = reader.int(8) else { return nil }
            sections.append(SectionRecord(value: v, name: n, count: Int(c)))
        }
        guard let total = reader.int(8) else { return nil }
        var builder = OrderedIDList.Builder()
        var read: UInt64 = 0
        var ids = [Int64](repeating: 0, count: ResultsCache.maxRun)
        while read < total {
            guard let n32 = reader.int(4), n32 > 0, n32 <= UInt64(ResultsCache.maxRun) else { return nil }
            let n = Int(n32)
            let ok = ids.withUnsafeMutableBytes { reader.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<(n * 8)])) }
            guard ok else { return nil }
            ids.withUnsafeBufferPointer { builder.append(ids: UnsafeBufferPointer(rebasing: $0[0..<n])) }
            read += UInt64(n)
        }
        guard read == total, sections.reduce(0, { $0 + $1.count }) == Int(total) || sections.count == 1 else { return nil }
        return (builder.finish(), sections)
    }

    /// Whether the file `name` exists and was written under `fingerprint`: what ``load(name:directory:fingerprint:)``
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

        init(fd: Int32) { self.fd = fd }

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
