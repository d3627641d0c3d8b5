import Dispatch
import Synchronization
import Testing

@testable import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal: the test plays the terminal on the master side, the
/// screen under test gets the slave as its input and output.
private final class PseudoTerminalPair {
    let master: Int32
    let slave: Int32

    init?(rows: Int = 24, columns: Int = 80) {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { return nil }
        self.master = master
        self.slave = slave
        resize(rows: rows, columns: columns)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(slave)
        close(master)
    }

    func resize(rows: Int, columns: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Everything the program wrote so far.
    func drain() -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var idle = 0
        while idle < 3 {
            let count = read(master, &buffer, buffer.count)
            if count > 0 {
                result += buffer[0..<count]
                idle = 0
            } else {
                idle += 1
                usleep(2_000)
            }
        }
        return result
    }

    func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }

    func modes() -> termios {
        var modes = termios()
        tcgetattr(slave, &modes)
        return modes
    }
}

private func options(_ tty: PseudoTerminalPair, term: String? = "xterm-256color") -> CursesBackend.Options {
    CursesBackend.Options(
        terminalType: term,
        usesColor: false,
        enablesMouse: false,
        inputDescriptor: tty.slave,
        outputDescriptor: tty.slave
    )
}

/// A subtitle-style table: a title line, then two lines per row, a status line.
private func tableCanvas(firstRow: Int) -> Canvas {
    var canvas = Canvas(width: 80, height: 24)
    canvas.put("Failed Banks", x: 34, y: 0, attributes: .bold)
    for line in 0..<22 {
        let row = firstRow + line / 2
        if line % 2 == 0 {
            canvas.put("Bank number \(row) of the Republic", x: 1, y: 1 + line)
        } else {
            canvas.put("Springfield, IL · closed 2010-04-\(10 + row % 20)", x: 1, y: 1 + line, attributes: .dim)
        }
    }
    canvas.put("? help  q quit", x: 0, y: 23, attributes: .dim)
    return canvas
}

/// The ncurses backend on a real pseudo-terminal. Serialized: curses has one terminal per process.
@Suite(.serialized) struct TerminalCursesBackendTests {
    @Test func refusesInputThatIsNotATerminal() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let tty = try #require(PseudoTerminalPair())
        var options = options(tty)
        options.inputDescriptor = ends[0]
        #expect(throws: TerminalError.notATerminal(stream: "input")) { try CursesBackend(options: options) }
        options.inputDescriptor = tty.slave
        options.outputDescriptor = ends[1]
        #expect(throws: TerminalError.notATerminal(stream: "output")) { try CursesBackend(options: options) }
        #expect(TerminalError.notATerminal(stream: "standard input").description == "standard input is not a terminal")
    }

    @Test func refusesAMissingUnknownOrNonAddressableTerminalType() throws {
        let tty = try #require(PseudoTerminalPair())
        #expect(throws: TerminalError.terminalTypeNotSet) { try CursesBackend(options: options(tty, term: nil)) }
        #expect(throws: TerminalError.terminalTypeNotSet) { try CursesBackend(options: options(tty, term: "")) }
        #expect(throws: TerminalError.unknownTerminalType("xyz")) {
            try CursesBackend(options: options(tty, term: "xyz"))
        }
        #expect(throws: TerminalError.cannotAddressCursor(terminalType: "dumb")) {
            try CursesBackend(options: options(tty, term: "dumb"))
        }
        #expect(tty.drain().isEmpty)  // nothing was written to the terminal
        #expect(TerminalError.unknownTerminalType("xyz").description == "unknown terminal type 'xyz'")
        #expect(
            TerminalError.cannotAddressCursor(terminalType: "dumb").description
                == "terminal 'dumb' cannot address the cursor"
        )
    }

    @Test func takesTheTerminalOverAndGivesItBackOnClose() throws {
        let tty = try #require(PseudoTerminalPair())
        let before = tty.modes()
        #expect(before.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
        let screen = try CursesBackend(options: options(tty))
        #expect(screen.width == 80 && screen.height == 24)
        let during = tty.modes()
        #expect(during.c_lflag & tcflag_t(ICANON | ECHO) == 0)  // cbreak, noecho
        #expect(throws: TerminalError.alreadyActive) { try CursesBackend(options: options(tty)) }
        screen.present(tableCanvas(firstRow: 0))
        let output = String(decoding: tty.drain(), as: UTF8.self)
        #expect(output.contains("Bank number 3 of the Republic"))
        #expect(output.contains("\u{1B}[?1049h"))  // the alternate screen (smcup)
        screen.close()
        let after = tty.modes()
        #expect(after.c_lflag == before.c_lflag)
        #expect(after.c_iflag == before.c_iflag)
        #expect(String(decoding: tty.drain(), as: UTF8.self).contains("\u{1B}[?1049l"))  // rmcup
        screen.close()  // idempotent
    }

    @Test func decodesKeysTypedOnTheTerminal() throws {
        let tty = try #require(PseudoTerminalPair())
        let screen = try CursesBackend(options: options(tty))
        defer { screen.close() }
        _ = tty.drain()
        let keys: [([UInt8], InputEvent)] = [
            ([0x1B, 0x4F, 0x42], .down),  // kcud1 in keypad-transmit mode
            ([0x1B, 0x5B, 0x35, 0x7E], .pageUp),
            ([0x1B, 0x5B, 0x5A], .backTab),
            ([0x1B, 0x4F, 0x50], .function(1)),
            ([0x71], .character("q")),
            (Array("日".utf8), .character("日")),
            ([0x0C], .control("l")),
            ([0x0D], .enter),
            ([0x7F], .backspace),
            ([0x1B], .escape),  // a lone ESC, after the 25 ms delay
        ]
        for (bytes, expected) in keys {
            tty.type(bytes)
            #expect(screen.nextEvent(timeoutMilliseconds: 10_000) == expected, "bytes \(bytes)")
        }
        #expect(screen.nextEvent(timeoutMilliseconds: 30) == nil)  // nothing more: times out
    }

    @Test func windowChangeSignalBecomesAResizeEvent() throws {
        let tty = try #require(PseudoTerminalPair())
        let screen = try CursesBackend(options: options(tty))
        defer { screen.close() }
        tty.resize(rows: 30, columns: 100)
        kill(getpid(), SIGWINCH)  // process-directed: test threads may block signals
        #expect(screen.nextEvent(timeoutMilliseconds: 10_000) == .resize(width: 100, height: 30))
        #expect(screen.width == 100 && screen.height == 30)
        #expect(screen.nextEvent(timeoutMilliseconds: 50) == nil)  // reported once
    }

    @Test func terminationSignalWakesABlockedWaitAndIsReported() throws {
        let tty = try #require(PseudoTerminalPair())
        let screen = try CursesBackend(options: options(tty))
        defer { screen.close() }
        #expect(screen.terminationSignal == nil)
        kill(getpid(), SIGTERM)  // handled: recorded, the wake pipe written
        #expect(screen.nextEvent(timeoutMilliseconds: nil) == nil)
        #expect(screen.terminationSignal == SIGTERM)
        screen.close()
        #expect(screen.terminationSignal == nil)  // dispositions and flags restored
    }

    @Test func aPostFromAnotherThreadWakesALoopThatWaitsForAKey() throws {
        let tty = try #require(PseudoTerminalPair())
        let screen = try CursesBackend(options: options(tty))
        defer { screen.close() }
        let loop = TerminalRunLoop(backend: screen)
        // No ticker, no view: after its first frame the loop waits for a key without a timeout.
        var keyArrived = false
        loop.unhandledEventHandler = { _ in
            keyArrived = true
            return .quit
        }
        let quit = loop.poster { [unowned loop] in loop.quit() }
        let finished = Atomic<Bool>(false)
        let typist = tty.master
        DispatchQueue.global().async {
            usleep(50_000)
            quit()
            // Only if the wake were lost: a key after a minute, so that the test ends (and fails).
            for _ in 0..<600 where !finished.load(ordering: .relaxed) { usleep(100_000) }
            guard !finished.load(ordering: .relaxed) else { return }
            var key: UInt8 = 0x78
            _ = write(typist, &key, 1)
        }
        #expect(loop.run() == .quit)
        finished.store(true, ordering: .relaxed)
        #expect(!keyArrived, "the post woke the loop, no key did")
    }

    @Test func oneRowScrollOfASubtitleTableWritesUnderTwoKilobytes() throws {
        let tty = try #require(PseudoTerminalPair())
        let screen = try CursesBackend(options: options(tty))
        defer { screen.close() }
        screen.present(tableCanvas(firstRow: 0))
        _ = tty.drain()
        var sizes: [Int] = []
        for first in 1...4 {
            screen.present(tableCanvas(firstRow: first))
            sizes.append(tty.drain().count)
        }
        #expect(sizes.allSatisfy { $0 > 0 && $0 <= 2048 }, "bytes per one-row scroll: \(sizes)")
    }

    @Test func unchangedFrameWritesNothing() throws {
        let tty = try #require(PseudoTerminalPair())
        let screen = try CursesBackend(options: options(tty))
        defer { screen.close() }
        screen.present(tableCanvas(firstRow: 0))
        _ = tty.drain()
        screen.present(tableCanvas(firstRow: 0))
        #expect(tty.drain().isEmpty)
    }

    @Test func wideCharactersKeepTheRestOfTheRowInPlace() throws {
        let tty = try #require(PseudoTerminalPair())
        let screen = try CursesBackend(options: options(tty))
        defer { screen.close() }
        var canvas = Canvas(width: 80, height: 24)
        canvas.put("東京😀|end", x: 0, y: 0)
        screen.present(canvas)
        let output = String(decoding: tty.drain(), as: UTF8.self)
        #expect(output.contains("東京😀|end"))
        // Moving the cursor for a text field shows it at that cell.
        canvas.cursor = (3, 0)
        screen.present(canvas)
        let moved = String(decoding: tty.drain(), as: UTF8.self)
        #expect(moved.contains("\u{1B}[?25h"))  // cursor made visible (cnorm/cvvis)
    }
}

/// Grapheme clusters through curses to the terminal: in the serialized suite above, since curses
/// has one terminal per process (a suite of their own ran beside it and took the terminal).
extension TerminalCursesBackendTests {
    @Test func aZWJSequenceAndACombiningMarkReachTheTerminalWholeAndBidiControlsNever() throws {
        let tty = try #require(PseudoTerminalPair())
        let screen = try CursesBackend(options: options(tty))
        defer { screen.close() }
        var canvas = Canvas(width: 80, height: 24)
        canvas.put(GraphemeClusterTests.family + " \u{1F1FA}\u{1F1F8} \u{202E}x\u{202C}|end", x: 0, y: 0)
        screen.present(canvas)
        let output = String(decoding: tty.drain(), as: UTF8.self)
        #expect(
            output.contains("Family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} Bank e\u{301} \u{1F1FA}\u{1F1F8} "),
            "\(output.debugDescription)"
        )
        #expect(output.contains("\u{FFFD}x\u{FFFD}|end"))
        for scalar in output.unicodeScalars {
            #expect(!(0x202A...0x202E).contains(scalar.value) && !(0x2066...0x2069).contains(scalar.value))
        }
    }
}
