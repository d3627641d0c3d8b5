import CLIKit
@_spi(Benchmark) import TerminalUI

/// `bench --child scroll-tty [--rows N]`: a subtitle-style table (the app's
/// Date tab shape, see ``SyntheticBankSource``) drawn full-screen through
/// `CursesBackend`, reacting to keys until `q`.
///
/// The parent runs it under a pseudo-terminal and counts the bytes one ↓
/// past the bottom of the screen makes ncurses write: the one-row scroll of
/// the scroll-bytes benchmark. Only the table is on screen, so every byte is the table's.
enum ScrollTerminalChild {
    static let spec = CommandSpec(
        name: "bench --child scroll-tty",
        summary: "A full-screen table for the scroll-bytes measurement.",
        usage: "[--rows N]",
        options: [OptionSpec("--rows", value: "N", help: "rows in the table (default 10000)")]
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            let rows = parsed.value("--rows").flatMap { Int($0) } ?? 10_000
            let source = SyntheticBankSource(rows: max(1, rows))
            let table = TableView(rowHeight: TableCell.Style.subtitle.lineCount)
            table.dataSource = source
            table.animatesUpdates = false
            let screen: CursesBackend
            do {
                screen = try CursesBackend(options: CursesBackend.Options(enablesMouse: false))
            } catch {
                printError("\(error)")
                return ExitStatus.usage
            }
            defer { screen.close() }
            let clock = MonotonicClock()
            var canvas = Canvas(width: screen.width, height: screen.height)
            while true {
                if canvas.width != screen.width || canvas.height != screen.height {
                    canvas = Canvas(width: screen.width, height: screen.height)
                }
                table.render(into: &canvas, at: clock.now)
                screen.present(canvas)
                guard let event = screen.nextEvent(timeoutMilliseconds: nil) else { break }
                if event == .character("q") { break }
                table.handle(event)
            }
            return ExitStatus.ok
        }
    }
}
