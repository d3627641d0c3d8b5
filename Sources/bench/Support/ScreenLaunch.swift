import Foundation
import Timekeeping

/// A program launched under a pseudo-terminal as a person runs it (`TERM=xterm-256color`), with
/// an empty cache folder (`XDG_CACHE_HOME`) unless it keeps one: what the screen benchmarks
/// (generic, query, postgres) time, written once.
///
///     let launch = ScreenLaunch(command: command + [database, "--query", sql])
///     let (tty, seconds) = try runner.time(launch, until: ScreenWait(lastRow, pressing: ScreenWait.lastRowKeys,
///         timeout: 300, "the query's last row"))
struct ScreenLaunch {
    /// The command line, arguments included.
    var command: [String]
    /// Its environment besides `TERM` and `XDG_CACHE_HOME` (PostgreSQL's `PGHOST`, `TZ`…).
    var environment: [String: String] = [:]
    var rows: UInt16 = 24
    var columns: UInt16 = 80
    /// A cache folder used as it is; nil: the run's `fetchedtable-xdg-cache`, emptied before each launch.
    var keptCache: String? = nil
}

/// What a timed launch waits for: one of `patterns` written to the terminal, for at most `timeout`
/// seconds; with `keys`, those pressed every 0.1 s until then
/// (``PseudoTerminal/sendUntilAny(_:shows:timeout:)``, at most 0.1 s late). `what` names it in the
/// error ("did not show `what` within `timeout` s").
struct ScreenWait {
    var patterns: [[UInt8]]
    var keys: [UInt8]?
    var timeout: Double
    var what: String

    init(_ patterns: [[UInt8]], pressing keys: [UInt8]? = nil, timeout: Double, _ what: String) {
        self.patterns = patterns
        self.keys = keys
        self.timeout = timeout
        self.what = what
    }

    /// `G` (the last row) and Ctrl-L (a full repaint, so a row's text arrives whole).
    static let lastRowKeys: [UInt8] = Array("G".utf8) + [0x0c]
    /// Home (`khome` of `TERM=xterm-256color`, `ESC O H`: the first row) and Ctrl-L.
    static let firstRowKeys: [UInt8] = [0x1b, 0x4f, 0x48, 0x0c]
}

extension BenchRunner {
    /// Starts `launch` under a pseudo-terminal.
    func start(_ launch: ScreenLaunch) throws -> PseudoTerminal {
        let cache = launch.keptCache ?? workspace.path("fetchedtable-xdg-cache")
        if launch.keptCache == nil {
            try? FileManager.default.removeItem(atPath: cache)
            mkdir(cache, 0o755)
        }
        var environment = launch.environment
        environment["TERM"] = "xterm-256color"
        environment["XDG_CACHE_HOME"] = cache
        return try PseudoTerminal(launch.command, environment: environment, rows: launch.rows, columns: launch.columns)
    }

    /// Starts `launch` and waits for `wait`: the running program's terminal, and the seconds from
    /// just before its spawn until the text showed. At the timeout the program is ended and the
    /// error says what it wrote.
    func time(
        _ launch: ScreenLaunch,
        until wait: ScreenWait,
        program: String = "fetchedtable"
    ) throws -> (tty: PseudoTerminal, seconds: Double) {
        let tty = try start(launch)
        return (tty, try tty.seconds(until: wait, program: program))
    }

    /// A warm-up launch and then `runs` timed ones (``time(_:until:program:)``), each ended with `q`
    /// (an exit other than 0 goes to `problems`) and logged as `log(run, seconds)`, `run` being
    /// "warm-up", "1", "2"…; the timed launches' seconds.
    func timedLaunches(
        _ launch: ScreenLaunch,
        until wait: ScreenWait,
        runs: Int,
        problems: inout [String],
        log line: (_ run: String, _ seconds: Double) -> String
    ) throws -> [Double] {
        var times: [Double] = []
        for index in 0...runs {  // 0: warm-up
            let (tty, seconds) = try time(launch, until: wait)
            if index > 0 { times.append(seconds) }
            log(line(index == 0 ? "warm-up" : String(index), seconds))
            tty.quit("fetchedtable", problems: &problems)
        }
        return times
    }
}

extension PseudoTerminal {
    /// The seconds from just before the spawn until `wait`'s text showed; at its timeout `program`
    /// is ended and the error says what it wrote (``failure(_:_:)``).
    func seconds(until wait: ScreenWait, program: String = "fetchedtable") throws -> Double {
        let shown: Double?
        if let keys = wait.keys {
            shown = sendUntilAny(keys, shows: wait.patterns, timeout: wait.timeout)
        } else {
            shown = waitForAny(wait.patterns, timeout: wait.timeout)?.time
        }
        guard let shown else {
            throw failure(program, "did not show \(wait.what) within \(String(format: "%g", wait.timeout)) s")
        }
        return shown - startTime
    }
}
