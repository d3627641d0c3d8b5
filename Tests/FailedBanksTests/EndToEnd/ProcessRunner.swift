import Foundation

/// Runs a program to completion and collects its output (test helper).
struct ProcessResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

enum ProcessRunner {
    /// Runs `executable` with `arguments`; `input` is written to stdin.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: String? = nil,
                    environment: [String: String]? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inPipe = Pipe()
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try? inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty program cannot block on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus,
                             standardOutput: String(decoding: outData, as: UTF8.self),
                             standardError: String(decoding: errData, as: UTF8.self))
    }

    /// The full path of a program found on `$PATH`, or nil.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
