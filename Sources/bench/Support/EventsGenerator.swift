import Foundation
import TestSupport

/// The rows of the `generic` group's data: a service log
/// `events(id, ts, level, service, message)`, one event every ~3 s over a
/// year, the same bytes on every run.
///
/// Row `id` (1…`rows`) is computed from the seed and the id alone, so any row
/// can be generated again without the ones before it: the cache check of
/// ``EventsDataCache`` compares a few rows of a cached file with fresh ones.
/// Timestamps are ISO datetimes (`2025-12-01T00:00:07`) in id order with up
/// to 30 s of jitter, so equal and out-of-order timestamps occur; the last row
/// alone is the newest (a minute after every other), which makes it the first
/// row of `--sort 'ts desc'` and the last line of the CSV. The first and the
/// last row have messages no other row has (`service started (first event)`,
/// `service stopped by operator (last event)`), which a benchmark can look for
/// on screen. Some messages hold a comma (quoted in the CSV).
///
///     let generator = EventsGenerator(rows: 1000)
///     generator.row(1).ts   // "2025-12-01T00:00:xx"
///     try generator.writeCSV(to: "/tmp/events.csv")
struct EventsGenerator {
    /// Bump when what the generator writes changes (it is part of the cache file's name).
    static let version = 1
    static let defaultSeed: UInt64 = 2026
    /// 2025-12-01T00:00:00Z.
    static let startEpoch: Int64 = 1_764_547_200
    static let spanSeconds: Int64 = 365 * 86_400

    static let levels = ["DEBUG", "INFO", "WARN", "ERROR"]
    static let services = [
        "api-gateway", "auth", "billing", "catalog", "checkout", "search", "inventory",
        "notifications", "payments", "profile", "recommendations", "reporting", "scheduler",
        "shipping", "storage", "web",
    ]

    let rows: Int
    let seed: UInt64

    init(rows: Int, seed: UInt64 = EventsGenerator.defaultSeed) {
        self.rows = rows
        self.seed = seed
    }

    /// One generated row.
    struct Row: Equatable {
        var id: Int64
        var ts: String
        var level: String
        var service: String
        var message: String
    }

    /// The seconds since 1970 of row `id`'s timestamp.
    func epoch(of id: Int64, random: inout SplitMix64) -> Int64 {
        if id == Int64(rows) { return EventsGenerator.startEpoch + EventsGenerator.spanSeconds + 60 }
        let jitter = Int64(random.next() % 30)
        return EventsGenerator.startEpoch + (id - 1) * EventsGenerator.spanSeconds / Int64(max(rows, 1)) + jitter
    }

    /// Row `id` (1…rows).
    func row(_ id: Int64) -> Row {
        var ts: [UInt8] = []
        var message: [UInt8] = []
        let (level, service) = fill(id, ts: &ts, message: &message)
        return Row(
            id: id,
            ts: String(decoding: ts, as: UTF8.self),
            level: EventsGenerator.levels[level],
            service: EventsGenerator.services[service],
            message: String(decoding: message, as: UTF8.self)
        )
    }

    /// The timestamp of the newest row (the last), the first row of `ts desc`.
    var newestTimestamp: String { row(Int64(rows)).ts }

    /// Writes row `id`'s timestamp and message as UTF-8 into the buffers (cleared first);
    /// returns the indexes of its level and service.
    @inline(__always)
    func fill(_ id: Int64, ts: inout [UInt8], message: inout [UInt8]) -> (level: Int, service: Int) {
        var random = SplitMix64(seed: seed ^ (UInt64(bitPattern: id) &* 0x2545_F491_4F6C_DD1D))
        ts.removeAll(keepingCapacity: true)
        EventsGenerator.appendTimestamp(epoch(of: id, random: &random), to: &ts)
        let roll = random.next() % 100
        let level = roll < 30 ? 0 : roll < 80 ? 1 : roll < 92 ? 2 : 3
        let service = Int(random.next() % UInt64(EventsGenerator.services.count))
        message.removeAll(keepingCapacity: true)
        let n = random.next() % 100_000
        let k = random.next() % 1000
        func text(_ s: StaticString) {
            message.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        }
        func number(_ v: UInt64) { EventsGenerator.appendNumber(v, to: &message) }
        let template = random.next() % 8
        if id == 1 {
            text("service started (first event)")
            return (1, service)
        }
        if id == Int64(rows) {
            text("service stopped by operator (last event)")
            return (1, service)
        }
        switch template {
        case 0:
            text("GET /api/v1/orders/")
            number(n)
            text(" 200 in ")
            number(k)
            text(" ms")
        case 1:
            text("user ")
            number(n)
            text(" signed in from 10.0.")
            number(k % 256)
            text(".")
            number(n % 256)
        case 2:
            text("cache miss for key session:")
            number(n)
        case 3:
            text("payment ")
            number(n)
            text(" declined, retry ")
            number(k % 3 + 1)
            text(" of 3")
        case 4:
            text("job ")
            number(n)
            text(" finished in ")
            number(k)
            text(" ms")
        case 5:
            text("connection reset by peer (pool ")
            number(k % 16)
            text(")")
        case 6:
            text("slow query: ")
            number(k + 500)
            text(" ms on table orders")
        default:
            text("config reloaded: ")
            number(k % 40)
            text(" keys changed")
        }
        return (level, service)
    }

    /// `YYYY-MM-DDTHH:MM:SS` of a UTC epoch (days to civil date after H. Hinnant).
    static func appendTimestamp(_ epoch: Int64, to out: inout [UInt8]) {
        let days = epoch >= 0 ? epoch / 86_400 : (epoch - 86_399) / 86_400
        let seconds = epoch - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int64) {
            out.append(UInt8(48 + v / 10))
            out.append(UInt8(48 + v % 10))
        }
        two(year / 100)
        two(year % 100)
        out.append(UInt8(ascii: "-"))
        two(month)
        out.append(UInt8(ascii: "-"))
        two(day)
        out.append(UInt8(ascii: "T"))
        two(seconds / 3600)
        out.append(UInt8(ascii: ":"))
        two(seconds / 60 % 60)
        out.append(UInt8(ascii: ":"))
        two(seconds % 60)
    }

    static func appendNumber(_ value: UInt64, to out: inout [UInt8]) {
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var v = value
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(48 + v % 10)
                v /= 10
                n += 1
            } while v > 0
            while n > 0 {
                n -= 1
                out.append(d[n])
            }
        }
    }

    /// Writes the rows as a CSV file with a header (`id,ts,level,service,message`, `\n` line ends;
    /// a message with a comma is quoted).
    func writeCSV(to path: String) throws {
        guard let file = fopen(path, "w") else {
            throw BenchError.setup("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        var line: [UInt8] = Array("id,ts,level,service,message\n".utf8)
        line.reserveCapacity(1 << 16)
        var ts: [UInt8] = []
        var message: [UInt8] = []
        ts.reserveCapacity(32)
        message.reserveCapacity(128)
        let levels = EventsGenerator.levels.map { Array($0.utf8) }
        let services = EventsGenerator.services.map { Array($0.utf8) }
        var ok = true
        for id in 1...Int64(max(rows, 1)) where rows > 0 {
            let (level, service) = fill(id, ts: &ts, message: &message)
            EventsGenerator.appendNumber(UInt64(id), to: &line)
            line.append(UInt8(ascii: ","))
            line.append(contentsOf: ts)
            line.append(UInt8(ascii: ","))
            line.append(contentsOf: levels[level])
            line.append(UInt8(ascii: ","))
            line.append(contentsOf: services[service])
            line.append(UInt8(ascii: ","))
            if message.contains(UInt8(ascii: ",")) {
                line.append(UInt8(ascii: "\""))
                line.append(contentsOf: message)
                line.append(UInt8(ascii: "\""))
            } else {
                line.append(contentsOf: message)
            }
            line.append(UInt8(ascii: "\n"))
            if line.count > 60_000 {
                ok = ok && fwrite(line, 1, line.count, file) == line.count
                line.removeAll(keepingCapacity: true)
            }
        }
        ok = ok && fwrite(line, 1, line.count, file) == line.count
        ok = fclose(file) == 0 && ok
        if !ok { throw BenchError.setup("cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    /// Writes the same rows as JSON Lines to `path`: one object a line, its keys in the CSV's column
    /// order (`{"id":1,"ts":"…","level":"INFO","service":"auth","message":"…"}`).
    func writeJSONLines(to path: String) throws {
        guard let file = fopen(path, "w") else {
            throw BenchError.setup("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        var line: [UInt8] = []
        line.reserveCapacity(1 << 16)
        var ts: [UInt8] = []
        var message: [UInt8] = []
        let levels = EventsGenerator.levels.map { Array($0.utf8) }
        let services = EventsGenerator.services.map { Array($0.utf8) }
        var ok = true
        for id in 1...Int64(max(rows, 1)) where rows > 0 {
            let (level, service) = fill(id, ts: &ts, message: &message)
            line.append(contentsOf: Array("{\"id\":".utf8))
            EventsGenerator.appendNumber(UInt64(id), to: &line)
            line.append(contentsOf: Array(",\"ts\":\"".utf8) + ts)
            line.append(contentsOf: Array("\",\"level\":\"".utf8) + levels[level])
            line.append(contentsOf: Array("\",\"service\":\"".utf8) + services[service])
            // The generator's messages hold no quote, backslash or control character: written as they are.
            line.append(contentsOf: Array("\",\"message\":\"".utf8) + message)
            line.append(contentsOf: Array("\"}\n".utf8))
            if line.count > 60_000 {
                ok = ok && fwrite(line, 1, line.count, file) == line.count
                line.removeAll(keepingCapacity: true)
            }
        }
        ok = ok && fwrite(line, 1, line.count, file) == line.count
        ok = fclose(file) == 0 && ok
        if !ok { throw BenchError.setup("cannot write \(path): \(String(cString: strerror(errno)))") }
    }
}
