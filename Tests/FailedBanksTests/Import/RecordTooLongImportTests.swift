import Foundation
import SQLiteStore
import Testing

@testable import FailedBanksKit

#if canImport(Glibc)
import Glibc
#endif

/// A record without an end (`/dev/zero`, a 2 GB line, a 17 MiB row): `failedbanks import` stops
/// at the reader's limits with `FILE:LINE: record too long`, exit 65, the store unchanged and
/// memory bounded — for an empty store (bulk path) and one that holds banks (upsert path).
@Suite struct RecordTooLongImportTests {
    static let mebibyte = 1 << 20

    /// Imports `path` into an empty and into a prefilled store; expects the refusal naming `line`.
    private func expectRecordTooLong(
        _ path: (ImportSandbox) throws -> String,
        line: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try MalformedImportTests.expectStoreUnchanged(sourceLocation: sourceLocation) { sandbox, prefilled in
            let file = try path(sandbox)
            let growth = PeakMemory.growth { sandbox.run([file]) }
            let result = growth.value
            #expect(result.status == 65, "prefilled \(prefilled): \(result.errorText)", sourceLocation: sourceLocation)
            #expect(result.output.isEmpty, "prefilled \(prefilled): \(result.output)", sourceLocation: sourceLocation)
            #expect(
                result.errors.count == 1 && result.errors.first?.hasSuffix("\(file):\(line): record too long") == true,
                "prefilled \(prefilled): \(result.errors.map { String($0.prefix(200)) })",
                sourceLocation: sourceLocation
            )
            // The limits are 1 MiB a field and 16 MiB a record: the peak grows by a few times that, not by the input.
            if let kilobytes = growth.kilobytes {
                #expect(
                    kilobytes < 160 * 1024,
                    "prefilled \(prefilled): peak memory grew by \(kilobytes / 1024) MiB",
                    sourceLocation: sourceLocation
                )
            }
        }
    }

    @Test func aRecordOverSixteenMebibytesStopsTheImport() throws {
        // Line 4 has seventeen fields just under 1 MiB each: no field is too long, the record is.
        try expectRecordTooLong(
            { sandbox in
                var bytes = Array(MalformedImportTests.good.utf8)
                let field = [UInt8](repeating: UInt8(ascii: "w"), count: Self.mebibyte - 1)
                for index in 0..<17 {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    bytes += field
                }
                bytes += Array("\r\nLast Bank,Reno,NV,1003,None,1-Jan-20,3\r\n".utf8)
                return sandbox.file("wide.csv", bytes: bytes)
            },
            line: 4
        )
    }

    @Test func aFieldOverOneMebibyteStopsTheImport() throws {
        try expectRecordTooLong(
            { sandbox in
                let name = String(repeating: "n", count: Self.mebibyte + 1)
                return sandbox.file(
                    "long-name.csv",
                    MalformedImportTests.good + "\(name),Reno,NV,1003,None,1-Jan-20,3\r\n"
                )
            },
            line: 4
        )
    }

    @Test func aTwoGigabyteLineOfNULsStopsAtTheFirstLine() throws {
        // A sparse file: 2 GiB of NUL bytes without a line end, taking no disk space.
        try expectRecordTooLong(
            { sandbox in
                let path = sandbox.directory + "/two-gigabytes.csv"
                let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
                try #require(fd >= 0)
                defer { close(fd) }
                try #require(ftruncate(fd, 2 << 30) == 0)
                return path
            },
            line: 1
        )
    }

    @Test(.enabled(if: FileManager.default.isReadableFile(atPath: "/dev/zero")))
    func devZeroEndsQuicklyWithRecordTooLong() throws {
        // An endless record: reading stops at the record limit (about a mebibyte) and says so.
        try expectRecordTooLong({ _ in "/dev/zero" }, line: 1)
    }
}

/// The growth of this process's peak resident memory (`VmHWM`) while running a body.
///
/// Linux resets the peak to the current resident set when `5` is written to
/// `/proc/self/clear_refs`; elsewhere (or when that fails) no figure is given.
enum PeakMemory {
    struct Measured<Value> {
        var value: Value
        /// How far the peak rose above the resident set at the start, in kB; nil when unknown.
        var kilobytes: Int?
    }

    static func growth<Value>(_ body: () throws -> Value) rethrows -> Measured<Value> {
        let reset = (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
        let start = field("VmRSS:")
        let value = try body()
        guard reset, let start, let peak = field("VmHWM:") else { return Measured(value: value, kilobytes: nil) }
        return Measured(value: value, kilobytes: max(0, peak - start))
    }

    /// A `kB` field of `/proc/self/status`.
    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) })
        else { return nil }
        return Int(line.dropFirst(name.count).split(separator: " ").first ?? "")
    }
}
