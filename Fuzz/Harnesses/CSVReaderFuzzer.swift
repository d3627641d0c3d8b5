// libFuzzer harness for the streaming CSV reader.
//
// Property: the records do not depend on how the input is chunked. The same
// bytes read in one piece and in chunks of a size taken from the input must
// give the same fields and line numbers (or the same error), with the standard
// limits and with tiny ones taken from the input (so that `record too long` is
// reached at every position). Every field also decodes to text without trapping.
// The same holds with the delimiter `CSVDialect.sniff` finds in the input; and
// a field classified as a number reads back as its own text
// (`CSVFieldValue.classify`: an integer, or a real marked exact).
import CSVImport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let chunk = 4 + Int(bytes.first ?? 0) % 29
    let tiny = CSVReader.Limits(
        maxFieldBytes: 1 + Int(bytes.dropFirst().first ?? 0) % 16,
        maxRecordBytes: 1 + Int(bytes.dropFirst(2).first ?? 0) % 64,
        maxFieldCount: 1 + Int(bytes.dropFirst(3).first ?? 0) % 8
    )
    for limits in [CSVReader.Limits.standard, tiny] {
        let whole = readAll(bytes, chunkSize: 1 << 16, limits: limits)
        let pieces = readAll(bytes, chunkSize: chunk, limits: limits)
        if whole != pieces {
            fatalError("CSV records depend on chunk size \(chunk) with \(limits): \(whole) vs \(pieces)")
        }
    }
    let delimiter = CSVDialect.sniff(bytes).delimiter
    let whole = readAll(bytes, chunkSize: 1 << 16, limits: .standard, delimiter: delimiter)
    let pieces = readAll(bytes, chunkSize: chunk, limits: .standard, delimiter: delimiter)
    if whole != pieces { fatalError("sniffed delimiter \(delimiter): records depend on chunk size \(chunk)") }
    if case .records(let records, _) = whole {
        for field in records.joined() { checkClassification(field) }
    }
    return 0
}

/// A field classified as a number must read back as its text.
private func checkClassification(_ field: String) {
    switch CSVFieldValue.classify(Array(field.utf8)) {
    case .integer(let n) where String(n) != field: fatalError("integer \(n) from \"\(field)\"")
    case .real(let x, exact: true) where "\(x)" != field: fatalError("exact real \(x) from \"\(field)\"")
    default: break
    }
}

private enum Outcome: Equatable {
    case records([[String]], lines: [Int])
    case failure(String)
}

private func readAll(_ bytes: [UInt8], chunkSize: Int, limits: CSVReader.Limits, delimiter: UInt8 = 0x2C) -> Outcome {
    let reader = CSVReader(bytes: bytes, chunkSize: chunkSize, limits: limits, delimiter: delimiter)
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
