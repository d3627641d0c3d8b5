import Glibc

/// The running process's environment, read from `environ`.
///
/// One reader for the store's default path, the bundled-data lookup, the
/// browser launcher and the benchmark's child processes, so they all see the
/// environment the same way (the first `=` splits name from value).
///
///     let trace = ProcessEnvironment.current()["FAILEDBANKS_TRACE_IMPORT"] == "1"
package enum ProcessEnvironment {
    /// The process environment as a dictionary.
    package static func current() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
