// libFuzzer harness for the streaming CSV reader.
//
// Property: the records do not depend on how the input is chunked. The same
// bytes read in one piece and in chunks of a size taken from the input must
// give the same fields and line numbers (or the same error), with the standard
// limits and with tiny ones taken from the input (so that `record too long` is
// reached at every position). Every field also decodes to text without trapping.
import CSVImport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let chunk = 4 + Int(bytes.first ?? 0) % 29
    let tiny = CSVReader.Limits(maxFieldBytes: 1 + Int(bytes.dropFirst().first ?? 0) % 16,
                                maxRecordBytes: 1 + Int(bytes.dropFirst(2).first ?? 0) % 64,
                                maxFieldCount: 1 + Int(bytes.dropFirst(3).first ?? 0) % 8)
    for limits in [CSVReader.Limits.standard, tiny] {
        let whole = readAll(bytes, chunkSize: 1 << 16, limits: limits)
        let pieces = readAll(bytes, chunkSize: chunk, limits: limits)
        if whole != pieces {
            fatalError("CSV records depend on chunk size \(chunk) with \(limits): \(whole) vs \(pieces)")
        }
    }
    return 0
}

private enum Outcome: Equatable {
    case records([[String]], lines: [Int])
    case failure(String)
}

private func readAll(_ bytes: [UInt8], chunkSize: Int, limits: CSVReader.Limits) -> Outcome {
    let reader = CSVReader(bytes: bytes, chunkSize: chunkSize, limits: limits)
    var record = CSVRecord()
    var fields: [[String]] = []
    var lines: [Int] = []
    do {
        while try reader.read(into: &record) {
            fields.append(record.fields)
            lines.append(record.line)
        }
        return .records(fields, lines: lines)
    } catch {
        return .failure("\(error)")
    }
}
