// libFuzzer harness for the results cache reader (the `.frc` files a
// controller with a `cacheName` reads at launch).
//
// Property: any bytes are either refused (damaged, stale) or read as results
// that hold together: the section counts add up to the ids, no id is there
// twice, and writing the results and reading them back gives the same ids and
// sections. Nothing traps, whatever the file holds.
import Foundation
import SQLiteStore

@testable import FetchedResults

/// One scratch file per process, rewritten for each input.
nonisolated(unsafe) let scratchPath = NSTemporaryDirectory() + "fuzz-cache-\(getpid()).frc"
nonisolated(unsafe) let scratch = open(scratchPath, O_RDWR | O_CREAT | O_TRUNC, 0o600)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResultsCache(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard scratch >= 0, ftruncate(scratch, 0) == 0, pwrite(scratch, data, size, 0) == size,
        lseek(scratch, 0, SEEK_SET) == 0
    else { fatalError("cannot write the scratch file \(scratchPath)") }
    // With the checksum checked, a mutated file is refused at its end; without, the checks
    // behind it (counts, runs, duplicates) are reached too.
    _ = ResultsCache.read(fd: scratch, fingerprint: nil)
    guard lseek(scratch, 0, SEEK_SET) == 0,
        case .results(let list, let sections) = ResultsCache.read(
            fd: scratch,
            fingerprint: nil,
            verifyingChecksum: false
        )
    else { return 0 }

    if sections.reduce(0, { $0 + $1.count }) != list.count {
        fatalError("section counts do not add up to \(list.count) ids")
    }
    var seen = Set<Int64>()
    for p in 0..<list.count {
        let id = list.id(at: p)
        if !seen.insert(id).inserted { fatalError("id \(id) read twice") }
        if list.position(of: id) != p {
            fatalError("id \(id) at \(p) is found at \(String(describing: list.position(of: id)))")
        }
    }

    let again = scratchPath + ".again"
    guard
        (try? ResultsCache.save(
            to: again,
            directory: NSTemporaryDirectory(),
            fingerprint: "fuzz",
            list: list,
            sections: sections
        )) != nil
    else {
        fatalError("results read from a cache could not be written")
    }
    let fd = open(again, O_RDONLY)
    defer {
        close(fd)
        unlink(again)
    }
    guard case .results(let list2, let sections2) = ResultsCache.read(fd: fd, fingerprint: "fuzz") else {
        fatalError("a cache just written was refused")
    }
    if list2.count != list.count || (0..<list.count).contains(where: { list2.id(at: $0) != list.id(at: $0) }) {
        fatalError("the ids changed in a round trip")
    }
    if sections2.map(\.name) != sections.map(\.name) || sections2.map(\.count) != sections.map(\.count)
        || zip(sections2, sections).contains(where: { StoreValue.compare($0.value, $1.value) != 0 })
    {
        fatalError("the sections changed in a round trip")
    }
    return 0
}
