struct AppBenchmark {
    let runner: BenchRunner

    func run() throws {
        throw BenchError.missing("not yet available")
    }

    /// The bytes to look for on screen for a bank name: its first word or
    /// words, up to 12 characters, never across a run of spaces (curses may
    /// draw those as a cursor movement).
    static func searchPattern(_ name: String) -> [UInt8] {
        var text = ""
        for character in name {
            if character == " " && text.hasSuffix(" ") { break }
            if text.count >= 12 { break }
            text.append(character)
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return Array(text.utf8)
    }
}
