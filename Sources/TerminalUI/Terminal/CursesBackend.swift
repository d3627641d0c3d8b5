import CNCurses
import Glibc
import Synchronization

/// The ncursesw `Backend`: the only code in the project that calls curses.
///
/// Taking the terminal over: `setlocale` first; a clear `TerminalError`
/// (before anything is written) when standard input or output is not a
/// terminal, `TERM` is unset or unknown, or the terminal cannot address the
/// cursor; `newterm` (never `initscr`, which exits on failure); cbreak,
/// noecho, nonl, keypad, a 25 ms ESC delay, hidden cursor, optional mouse
/// wheel and clicks, colours with the terminal's default background unless
/// `NO_COLOR` is set.
///
/// Giving it back: `close()` (also run by `deinit`) calls `endwin`. Signals
/// are handled so that every other exit path restores the terminal too:
/// SIGINT/SIGTERM/SIGHUP end the run loop (`terminationSignal`), Ctrl-Z
/// suspends and resumes with a full repaint, a window resize becomes
/// `.resize`, and a crash writes the saved reset strings before the process
/// dies (see `TerminalSignals`).
///
/// Frames: `present` copies only the canvas rows that changed since the last
/// frame into `stdscr`, then `wnoutrefresh` + one `doupdate`; ncurses diffs
/// against what the terminal shows and, because `idlok` is on, scrolls with
/// the terminal's scroll region when rows moved. It never calls `clear()`.
///
///     let backend: CursesBackend
///     do { backend = try CursesBackend() }
///     catch { print("cannot use the terminal: \(error)"); exit(1) }
///     let loop = TerminalRunLoop(backend: backend)
///     loop.push(browser)
///     let reason = loop.run()
///     backend.close()
///     exit(reason.exitStatus)    // 0, or 128 + signal number
public final class CursesBackend: TerminalBackend {
    /// How to take the terminal over. Defaults come from the environment.
    public struct Options: Sendable {
        /// The terminfo name; defaults to `$TERM` (nil or empty: refused).
        public var terminalType: String?
        /// Colours (accent, destructive); false when `NO_COLOR` is set and not empty.
        public var usesColor: Bool
        /// Report wheel and clicks. Never required: every action has a key.
        public var enablesMouse: Bool
        /// How long a lone ESC waits for the rest of an escape sequence.
        public var escapeDelayMilliseconds: Int
        /// The terminal's input (default standard input).
        public var inputDescriptor: Int32
        /// The terminal's output (default standard output).
        public var outputDescriptor: Int32

        /// Options from the environment (`TERM`, `NO_COLOR`), mouse on, 25 ms ESC delay, stdin/stdout.
        public init(
            terminalType: String? = CursesBackend.environment("TERM"),
            usesColor: Bool = (CursesBackend.environment("NO_COLOR") ?? "").isEmpty,
            enablesMouse: Bool = true,
            escapeDelayMilliseconds: Int = 25,
            inputDescriptor: Int32 = STDIN_FILENO,
            outputDescriptor: Int32 = STDOUT_FILENO
        ) {
            self.terminalType = terminalType
            self.usesColor = usesColor
            self.enablesMouse = enablesMouse
            self.escapeDelayMilliseconds = escapeDelayMilliseconds
            self.inputDescriptor = inputDescriptor
            self.outputDescriptor = outputDescriptor
        }
    }

    /// The value of an environment variable, nil when unset.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Columns of the terminal (updated on resize).
    public private(set) var width: Int
    /// Lines of the terminal (updated on resize).
    public private(set) var height: Int
    /// True between a successful `init` and `close()`.
    public private(set) var isActive: Bool
    /// Whether colour pairs are in use (false under `NO_COLOR` or on a monochrome terminal).
    public let usesColor: Bool
    /// The options the screen was made with.
    public let options: Options

    private let screen: OpaquePointer
    private let inputFile: UnsafeMutablePointer<FILE>
    private let outputFile: UnsafeMutablePointer<FILE>
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// The write end for other threads (``waker``): closed with the screen, never written after.
    private let wakeWriter: WakeWriter
    private var previous: Canvas?
    private var cursorVisible = false
    private var lastReportedSize: (width: Int, height: Int)
    private var inputClosed = false
    private var row: [cchar_t] = []
    private var attributeCache: [UInt16: (attr_t, Int16)] = [:]

    nonisolated(unsafe) private static var activeInstance = false

    /// Takes over the terminal. Throws `TerminalError` (terminal untouched) when it cannot.
    public init(options: Options = Options()) throws {
        guard !CursesBackend.activeInstance else { throw TerminalError.alreadyActive }
        self.options = options
        CursesBackend.selectLocale()

        let input = options.inputDescriptor
        let output = options.outputDescriptor
        guard isatty(input) == 1 else {
            throw TerminalError.notATerminal(stream: input == STDIN_FILENO ? "standard input" : "input")
        }
        guard isatty(output) == 1 else {
            throw TerminalError.notATerminal(stream: output == STDOUT_FILENO ? "standard output" : "output")
        }
        guard let type = options.terminalType, !type.isEmpty else { throw TerminalError.terminalTypeNotSet }
        var addressable: Int32 = 0
        switch cnc_probe_terminal(type, output, &addressable) {
        case 0: throw TerminalError.unknownTerminalType(type)
        case -1: throw TerminalError.noTerminfoDatabase(terminalType: type)
        default: if addressable == 0 { throw TerminalError.cannotAddressCursor(terminalType: type) }
        }

        var shellModes = termios()
        _ = tcgetattr(output, &shellModes)

        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw TerminalError.initializationFailed(terminalType: type) }
        for fd in pipeEnds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        wakeWriter = WakeWriter(descriptor: pipeEnds[1])

        // Before newterm: ncurses installs its own handlers only over default dispositions.
        TerminalSignals.install(wakeDescriptor: wakeWrite)
        // The size comes from the terminal (TIOCGWINSZ), not from stale
        // LINES/COLUMNS. (use_env(false) would be wrong: it makes ncurses take
        // terminfo's 80×24 and skip the ioctl altogether.)
        use_env(true)
        use_tioctl(true)

        guard let inFile = fdopen(dup(input), "r"), let outFile = fdopen(dup(output), "w") else {
            TerminalSignals.uninstall()
            Glibc.close(pipeEnds[0])
            Glibc.close(pipeEnds[1])
            throw TerminalError.initializationFailed(terminalType: type)
        }
        guard let newScreen = newterm(type, outFile, inFile) else {
            TerminalSignals.uninstall()
            fclose(inFile)
            fclose(outFile)
            Glibc.close(pipeEnds[0])
            Glibc.close(pipeEnds[1])
            throw TerminalError.initializationFailed(terminalType: type)
        }
        screen = newScreen
        inputFile = inFile
        outputFile = outFile
        CursesBackend.activeInstance = true
        isActive = true

        let window = cnc_stdscr()
        cbreak()
        noecho()
        nonl()
        intrflush(window, false)
        keypad(window, true)
        cnc_set_escdelay(Int32(options.escapeDelayMilliseconds))
        curs_set(0)
        leaveok(window, true)
        // idlok lets doupdate scroll moved rows with the scroll region / line
        // insert-delete instead of rewriting them. scrollok stays off: the
        // window itself must never scroll when the bottom-right cell is written.
        idlok(window, true)
        scrollok(window, false)
        // cbreak leaves XON/XOFF flow control on, so the terminal would swallow
        // Ctrl-S (a form's save key) and Ctrl-Q. Off in the program's mode only:
        // def_prog_mode records it, and endwin (and the crash handler, which
        // holds the shell's modes saved above) puts the user's setting back.
        var programModes = termios()
        if tcgetattr(input, &programModes) == 0 {
            programModes.c_iflag &= ~tcflag_t(IXON | IXOFF)
            _ = tcsetattr(input, TCSANOW, &programModes)
            def_prog_mode()
        }

        var colors = false
        if options.usesColor && has_colors() {
            start_color()
            let background: Int16 = use_default_colors() == OK ? -1 : Int16(COLOR_BLACK)
            init_pair(1, Int16(COLOR_CYAN), background)  // accent
            init_pair(2, Int16(COLOR_RED), background)  // destructive
            colors = true
        }
        usesColor = colors

        if options.enablesMouse {
            let mask = cnc_button1_pressed() | cnc_button4_pressed() | cnc_button5_pressed()
            _ = mousemask(mask, nil)
            _ = mouseinterval(0)
        }

        width = Int(cnc_getmaxx(window))
        height = Int(cnc_getmaxy(window))
        lastReportedSize = (width, height)

        // What a crash handler writes: mouse off, keypad off, attributes off, cursor on, main screen.
        var restore: [UInt8] = []
        if options.enablesMouse && cnc_tigetstr("kmous") != nil {
            restore += Array("\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l".utf8)
        }
        for capability in ["rmkx", "sgr0", "cnorm", "rmcup"] {
            if let value = cnc_tigetstr(capability) {
                restore += UnsafeBufferPointer(
                    start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self),
                    count: strlen(value)
                )
            }
        }
        TerminalSignals.arm(descriptor: output, modes: shellModes, restoreSequence: restore)
    }

    deinit { close() }

    /// Gives the terminal back (`endwin`), restores signal dispositions. Idempotent.
    public func close() {
        guard isActive else { return }
        isActive = false
        _ = TerminalSignals.disarm()
        curs_set(1)
        endwin()
        delscreen(screen)
        fclose(inputFile)
        fclose(outputFile)
        TerminalSignals.uninstall()
        wakeWriter.invalidate()
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
        CursesBackend.activeInstance = false
    }

    // MARK: - Frames

    /// Shows `canvas`: rows that changed since the last frame go to `stdscr`, then
    /// `wnoutrefresh` + one `doupdate`. The terminal cursor is shown at `canvas.cursor`
    /// when set (a text field), hidden otherwise.
    public func present(_ canvas: Canvas) {
        guard isActive else { return }
        let window = cnc_stdscr()
        let columns = min(canvas.width, width)
        let lines = min(canvas.height, height)
        let comparable = previous.map { $0.width == canvas.width && $0.height == canvas.height } ?? false
        if canvas.width < width || canvas.height < height {
            // A frame drawn for an older, smaller size: blank what it does not cover
            // (werase only changes curses' picture; doupdate still sends differences).
            werase(window)
            previous = nil
        }
        for y in 0..<lines {
            let start = y * canvas.width
            if comparable, let previous, canvas.width >= width, canvas.height >= height,
                canvas.cells[start..<(start + columns)] == previous.cells[start..<(start + columns)]
            {
                continue
            }
            fillRow(from: canvas, y: y, columns: columns)
            row.withUnsafeBufferPointer { buffer in
                _ = mvwadd_wchnstr(window, Int32(y), 0, buffer.baseAddress, Int32(buffer.count))
            }
        }
        if let cursor = canvas.cursor, cursor.x >= 0, cursor.x < width, cursor.y >= 0, cursor.y < height {
            if !cursorVisible {
                curs_set(1)
                leaveok(window, false)
                cursorVisible = true
            }
            wmove(window, Int32(cursor.y), Int32(cursor.x))
        } else if cursorVisible {
            curs_set(0)
            leaveok(window, true)
            cursorVisible = false
        }
        wnoutrefresh(window)
        doupdate()
        previous = canvas
    }

    /// One canvas row as curses cells. Continuation cells are left out: curses
    /// extends a wide character over the next cell itself.
    ///
    /// A cell's whole grapheme cluster goes into its `cchar_t` (`cursesText`):
    /// the terminal composes it, and curses counts the cell by the width of its
    /// first character, so its cursor bookkeeping and the terminal's agree.
    private func fillRow(from canvas: Canvas, y: Int, columns: Int) {
        row.removeAll(keepingCapacity: true)
        var x = 0
        var text: [wchar_t] = []
        while x < columns {
            let cell = canvas[x, y]
            let (attrs, pair) = curses(cell.attributes)
            if cell.isContinuation {
                // An orphan right half (its left half was overwritten): a blank.
                row.append(makeCell([0x20], attrs, pair))
                x += 1
                continue
            }
            let wide = x + 1 < canvas.width && canvas[x + 1, y].isContinuation
            CursesBackend.cursesText(cell.text, into: &text)
            let cursesWidth = Int(cnc_wcwidth(text[0]))
            let cellWidth = wide ? 2 : 1
            if cursesWidth == cellWidth {
                if wide && x + 1 >= columns {
                    // A wide character cut by the right edge of a smaller screen.
                    row.append(makeCell([0x20], attrs, pair))
                    x += 1
                    continue
                }
                row.append(makeCell(text, attrs, pair))
            } else if cursesWidth == 1 && wide && text.count == 2 && x + 1 < columns
                && text.allSatisfy({ (0x1F1E6...0x1F1FF).contains(UInt32(bitPattern: $0)) })
            {
                // A flag: two regional indicators, one a cell for curses (each is
                // narrow to it), written one after the other so the terminal joins them.
                row.append(makeCell([text[0]], attrs, pair))
                row.append(makeCell([text[1]], attrs, pair))
            } else if cursesWidth == 1 && wide {
                // The C library thinks it narrower than we do (e.g. "❤️"):
                // draw the base character and blank the cell we reserved.
                row.append(makeCell([text[0]], attrs, pair))
                if x + 1 < columns { row.append(makeCell([0x20], attrs, pair)) }
            } else {
                // Unprintable in this locale, or wider than the canvas allowed.
                row.append(makeCell([0x3F], attrs, pair))
                if wide && x + 1 < columns { row.append(makeCell([0x20], attrs, pair)) }
            }
            x += cellWidth
        }
    }

    /// The characters of one cell as curses stores them: the whole cluster when it has
    /// at most `CCHARW_MAX` (5) scalars. A longer one (a family of four, a ZWJ sequence
    /// with skin tones) keeps its longest prefix that ends before a zero-width joiner
    /// — whole emoji, so the terminal still draws one two-cell emoji there — and a
    /// cluster without a joiner its first five scalars. Control characters never get
    /// here (the canvas holds placeholders); one that did would be dropped.
    static func cursesText(_ cluster: String, into text: inout [wchar_t]) {
        let capacity = 5  // CCHARW_MAX in <curses.h>
        text.removeAll(keepingCapacity: true)
        var lastJoinerCut: Int?
        var truncated = false
        for scalar in cluster.unicodeScalars {
            if CellText.isTerminalControl(scalar) { continue }
            if text.count == capacity {
                truncated = true
                if scalar.value == 0x200D { lastJoinerCut = capacity }  // the five are whole emoji
                break
            }
            if scalar.value == 0x200D { lastJoinerCut = text.count }
            text.append(wchar_t(bitPattern: scalar.value))
        }
        if truncated {
            if let cut = lastJoinerCut, cut > 0 {
                text.removeSubrange(cut...)
            }
        } else if text.last == 0x200D && text.count > 1 {
            text.removeLast()  // a dangling joiner would join whatever is drawn next
        }
        if text.isEmpty { text = [0x20] }
    }

    /// A curses cell holding all of `text` (its first character and up to four
    /// combining ones) with the attributes. `setcchar` alone would keep only the
    /// characters up to the next spacing one and drop the rest of a ZWJ sequence.
    private func makeCell(_ text: [wchar_t], _ attrs: attr_t, _ pair: Int16) -> cchar_t {
        var cell = cchar_t()
        let base: [wchar_t] = [text[0], 0]
        _ = setcchar(&cell, base, attrs, pair, nil)
        if text.count > 1 {
            withUnsafeMutableBytes(of: &cell.chars) { raw in
                let chars = raw.bindMemory(to: wchar_t.self)
                for (i, character) in text.enumerated() where i < chars.count { chars[i] = character }
            }
        }
        return cell
    }

    private func curses(_ attributes: CellAttributes) -> (attr_t, Int16) {
        if let cached = attributeCache[attributes.rawValue] { return cached }
        var attrs = cnc_a_normal()
        if attributes.contains(.bold) { attrs |= cnc_a_bold() }
        if attributes.contains(.dim) { attrs |= cnc_a_dim() }
        if attributes.contains(.reverse) { attrs |= cnc_a_reverse() }
        if attributes.contains(.underline) { attrs |= cnc_a_underline() }
        var pair: Int16 = 0
        if usesColor {
            if attributes.contains(.destructive) { pair = 2 } else if attributes.contains(.accent) { pair = 1 }
        }
        attributeCache[attributes.rawValue] = (attrs, pair)
        return (attrs, pair)
    }

    /// Ctrl-L: `clearok(curscr)` so the next `present` repaints every cell.
    public func redrawAll() {
        guard isActive else { return }
        clearok(cnc_curscr(), true)
        previous = nil
    }

    // MARK: - Input

    /// SIGINT, SIGTERM or SIGHUP once one arrived (SIGHUP too when the terminal hung up).
    public var terminationSignal: Int32? {
        for signo in TerminalSignals.terminationSignals where TerminalSignals.isPending(signo) { return signo }
        return inputClosed ? SIGHUP : nil
    }

    /// Writes a byte to the self-pipe `nextEvent` waits on, from any thread: the run loop's
    /// ``RunLoopMailbox`` calls it after each post. Does nothing once the screen is closed.
    public var waker: (@Sendable () -> Void)? {
        let writer = wakeWriter
        return { writer.wake() }
    }

    /// Waits up to `timeoutMilliseconds` (nil: until something happens) for a key,
    /// mouse or resize event. Returns nil on timeout, when a termination signal
    /// arrived (see `terminationSignal`), and when ``waker`` woke it. Ctrl-Z suspends
    /// inside this call and returns `.resize` after `fg`, so the loop redraws everything.
    public func nextEvent(timeoutMilliseconds: Int?) -> InputEvent? {
        guard isActive else { return nil }
        let window = cnc_stdscr()
        let deadline = timeoutMilliseconds.map { CursesBackend.milliseconds() + $0 }
        var woken = false
        while true {
            if let event = handleControlSignals() { return event }
            if terminationSignal != nil { return nil }

            // Whatever curses has already buffered, or is readable now.
            wtimeout(window, 0)
            var character: wint_t = 0
            let status = wget_wch(window, &character)
            if status == KEY_CODE_YES {
                if let event = decode(keyCode: Int32(character)) { return event }
                continue
            } else if status == OK {
                if let event = CursesKeyDecoder.event(character: UInt32(character)) { return event }
                continue
            }
            // Woken (a post, or a signal already acted on above) and no key waiting.
            if woken { return nil }

            var wait: Int32 = -1
            if let deadline {
                let remaining = deadline - CursesBackend.milliseconds()
                if remaining <= 0 { return nil }
                wait = Int32(min(remaining, Int(Int32.max)))
            }
            var fds = [
                pollfd(fd: options.inputDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, wait)
            if ready < 0 { continue }  // EINTR: a signal; look at the flags
            if ready == 0 { return nil }  // timeout
            if fds[1].revents != 0 {
                drainWakePipe()
                woken = true
            }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && fds[0].revents & Int16(POLLIN) == 0 {
                inputClosed = true  // the terminal went away
                return nil
            }
        }
    }

    private func decode(keyCode: Int32) -> InputEvent? {
        switch keyCode {
        case KEY_RESIZE:
            width = Int(cnc_getmaxx(cnc_stdscr()))
            height = Int(cnc_getmaxy(cnc_stdscr()))
            previous = nil
            if lastReportedSize == (width, height) { return nil }  // already reported
            lastReportedSize = (width, height)
            return .resize(width: width, height: height)
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            let x = Int(event.x)
            let y = Int(event.y)
            if event.bstate & cnc_button4_pressed() != 0 { return .mouseWheel(up: true, x: x, y: y) }
            if event.bstate & cnc_button5_pressed() != 0 { return .mouseWheel(up: false, x: x, y: y) }
            if event.bstate & (cnc_button1_pressed() | cnc_button1_clicked()) != 0 { return .mouseClick(x: x, y: y) }
            return nil
        default:
            return CursesKeyDecoder.event(keyCode: keyCode)
        }
    }

    /// SIGTSTP, SIGCONT, SIGWINCH, recorded by the handlers, acted on here on the loop's thread.
    private func handleControlSignals() -> InputEvent? {
        if TerminalSignals.take(SIGTSTP) {
            suspend()
            return resizedOrRepaint()
        }
        if TerminalSignals.take(SIGCONT) {
            // Continued after a stop we did not arrange (kill -STOP): modes may be the shell's.
            reset_prog_mode()
            return resizedOrRepaint()
        }
        if TerminalSignals.take(SIGWINCH) {
            return resizedOrRepaint(repaint: false)
        }
        return nil
    }

    /// Ctrl-Z: give the terminal back, stop, and take it again when continued.
    private func suspend() {
        _ = TerminalSignals.disarm()
        endwin()
        var ours = sigaction()
        cnc_sigaction_handler(SIGTSTP, nil, 0, &ours)  // default: stop
        cnc_unblock_signal(SIGTSTP)
        raise(SIGTSTP)
        // … stopped until `fg` …
        cnc_sigaction_restore(SIGTSTP, &ours)
        _ = TerminalSignals.take(SIGCONT)
        TerminalSignals.rearm(descriptor: options.outputDescriptor)
        doupdate()  // after endwin, the next update puts curses back in program mode
    }

    /// Applies the terminal's current size; returns `.resize` so the loop relayouts
    /// (even when the size did not change, if `repaint`: the picture was lost).
    private func resizedOrRepaint(repaint: Bool = true) -> InputEvent? {
        var size = winsize()
        if ioctl(options.outputDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0,
            Int(size.ws_row) != height || Int(size.ws_col) != width
        {
            resizeterm(Int32(size.ws_row), Int32(size.ws_col))
        }
        width = Int(cnc_getmaxx(cnc_stdscr()))
        height = Int(cnc_getmaxy(cnc_stdscr()))
        let changed = lastReportedSize != (width, height)
        if repaint { redrawAll() } else if changed { previous = nil }
        guard changed || repaint else { return nil }
        lastReportedSize = (width, height)
        return .resize(width: width, height: height)
    }

    /// The self-pipe's write end as other threads see it: a byte written only while the
    /// screen is open (after `close()` the descriptor number may belong to another file).
    private final class WakeWriter: Sendable {
        private let descriptor: Mutex<Int32>

        init(descriptor: Int32) { self.descriptor = Mutex(descriptor) }

        func wake() {
            descriptor.withLock { fd in
                guard fd >= 0 else { return }
                var byte: UInt8 = 1
                _ = write(fd, &byte, 1)  // full (EAGAIN): a wake is already pending
            }
        }

        func invalidate() { descriptor.withLock { $0 = -1 } }
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    private static func milliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }

    /// `setlocale(LC_ALL, "")`; when that leaves a non-UTF-8 character type
    /// (LANG unset in a service or tmux), C.UTF-8 so wide characters still print.
    private static func selectLocale() {
        setlocale(LC_ALL, "")
        if cnc_codeset_is_utf8() == 0 { setlocale(LC_CTYPE, "C.UTF-8") }
    }
}
