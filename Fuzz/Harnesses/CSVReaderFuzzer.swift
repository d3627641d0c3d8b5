// libFuzzer harness for the streaming CSV reader.
//
// Property: the records do not depend on how the input is chunked. The same
// bytes read in one piece and in chunks of a size taken from the input must
// give the same fields and line numbers (or the same error). Every field also
// decodes to text without trapping.
import CSVImport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let chunk = 4 + Int(bytes.first ?? 0) % 29
    let whole = readAll(bytes, chunkSize: 1 << 16)
    let pieces = readAll(bytes, chunkSize: chunk)
    if whole != pieces {
        fatalError("CSV records depend on chunk size \(chunk): \(whole) vs \(pieces)")
    }
    return 0
}

private enum Outcome: Equatable {
    case records([[String]], lines: [Int])
    case failure(String)
}

private func readAll(_ bytes: [UInt8], chunkSize: Int) -> Outcome {
    let reader = CSVReader(bytes: bytes, chunkSize: chunkSize)
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
