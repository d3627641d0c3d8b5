import Foundation
import Testing

@testable import MyStashKit

#if canImport(Glibc)
import Glibc
#endif

/// The passphrase prompt on a real terminal (a pseudo-terminal): echo is off
/// before the prompt shows, so keys typed as soon as it appears are neither
/// echoed nor thrown away.
@Suite(.serialized) struct PassphrasePromptTests {
    /// A pseudo-terminal: the master (what a terminal emulator holds) and the slave (the program's tty).
    private func openPseudoTerminal() throws -> (master: Int32, slave: Int32) {
        var master: Int32 = -1
        var slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        return (master, slave)
    }

    private func echoIsOn(_ fd: Int32) -> Bool {
        var settings = termios()
        return tcgetattr(fd, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    @Test func echoIsOffBeforeThePromptShows() throws {
        let (master, slave) = try openPseudoTerminal()
        defer {
            close(master)
            close(slave)
        }
        #expect(echoIsOn(slave))
        // The prompt goes to a full pipe: writing it blocks, so the terminal's state can be
        // looked at while the prompt is being shown (a person could already be typing).
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let flags = fcntl(fds[1], F_GETFL)
        _ = fcntl(fds[1], F_SETFL, flags | O_NONBLOCK)
        let filler = [UInt8](repeating: 0x2E, count: 4096)
        while filler.withUnsafeBytes({ write(fds[1], $0.baseAddress, $0.count) }) > 0 {}
        _ = fcntl(fds[1], F_SETFL, flags)
        let promptOutput = fds[1]
        nonisolated(unsafe) var read: SecureBytes?
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            read = PassphrasePrompt(input: slave, output: promptOutput).read("Master passphrase: ")
            done.signal()
        }
        // Wait (generously) for echo to go off while the prompt is still blocked in its write.
        let deadline = Date().addingTimeInterval(5)
        while echoIsOn(slave) && Date() < deadline { usleep(10_000) }
        #expect(!echoIsOn(slave), "echo still on while the prompt shows")
        // Drain the pipe until the prompt has arrived, then type at once.
        var shown = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 8192)
        while !String(decoding: shown, as: UTF8.self).contains("Master passphrase: ") {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fds[0], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            shown += buffer[0..<n]
        }
        let typed = Array("typed-at-once\n".utf8)
        _ = typed.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        #expect(done.wait(timeout: .now() + 30) == .success, "the typed passphrase was thrown away")
        close(promptOutput)
        #expect(read.map { $0.withUnsafeBytes { Array($0) } } == Array("typed-at-once".utf8))
        // Nothing was echoed to the terminal.
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
        let echoed = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
        #expect(!echoed.contains("typed-at-once"), "echoed: \(echoed)")
        #expect(echoIsOn(slave), "echo restored")
    }
}
