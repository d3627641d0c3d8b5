import Dispatch
import Foundation
import Glibc
import TerminalUI

/// How long a result posted by another thread takes to reach the terminal: a
/// `TerminalRunLoop` on a `CursesBackend` over a pseudo-terminal (this process plays the
/// terminal, reading the master side), idle — waiting for a key, with no ticker and no
/// timeout — while a worker thread posts a closure (`TerminalRunLoop.poster`) that changes
/// what a view shows. Timed from just before the post until the frame that shows the change
/// has been presented (`doupdate` returned: `afterNextFrame`). Between posts the worker waits
/// 2 ms, so that each post finds the loop asleep in `poll`. Key: `post_to_frame_ms`.
struct PostToFrameBenchmark {
    let runner: BenchRunner

    func run() throws {
        let posts = runner.configuration.runs(small: 200, large: 400)
        let terminal = try PostTerminal()
        defer { terminal.close() }
        let times = try terminal.measure(posts: posts)
        runner.results.setMedian("post_to_frame_ms", of: times, scale: 1000)
    }

    /// One line of text, what the posted closures change.
    final class LineView: View {
        var line = "waiting"
        func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
            canvas.put(line, x: frame.x, y: frame.y)
        }
    }

    /// The pseudo-terminal and the curses screen on its slave side; a thread drains the master.
    final class PostTerminal {
        private let master: Int32
        private let slave: Int32
        private let screen: CursesBackend
        private let draining = DispatchGroup()

        init() throws {
            var master: Int32 = -1
            var slave: Int32 = -1
            var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
            guard openpty(&master, &slave, nil, nil, &size) == 0 else {
                throw PseudoTerminal.Failure(description: "openpty failed: \(String(cString: strerror(errno)))")
            }
            (self.master, self.slave) = (master, slave)
            screen = try CursesBackend(
                options: CursesBackend.Options(
                    terminalType: "xterm-256color",
                    usesColor: false,
                    enablesMouse: false,
                    inputDescriptor: slave,
                    outputDescriptor: slave
                )
            )
            // What curses writes must be read, or a full pty would block the frames.
            let reading = master
            DispatchQueue.global().async(group: draining) {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while read(reading, &buffer, buffer.count) > 0 {}
            }
        }

        /// `posts` posts, one after the other; each one's seconds from post to presented frame.
        func measure(posts: Int) throws -> [Double] {
            let loop = TerminalRunLoop(backend: screen)
            loop.unhandledEventHandler = { _ in .ignored }
            let view = LineView()
            loop.push(view)
            let shown = DispatchSemaphore(value: 0)
            var times: [Double] = []
            let show = loop.poster { [unowned loop, unowned view] (post: (index: Int, postedAt: Double)) in
                view.line = "post \(post.index)"
                loop.afterNextFrame {
                    times.append(MonotonicClock.seconds() - post.postedAt)
                    if times.count == posts { loop.quit() }
                    shown.signal()
                }
            }
            let worker = Thread {
                for index in 0..<posts {
                    usleep(2_000)  // the loop is back in poll, waiting for a key
                    show((index, MonotonicClock.seconds()))
                    // A frame lost would stop the run here: the deadline lets it end (and say so).
                    if shown.wait(timeout: .now() + 10) == .timedOut { return }
                }
            }
            worker.start()
            let deadline = loop.addTicker(every: 60) { [unowned loop] _ in loop.quit() }
            _ = loop.run()
            loop.removeTicker(deadline)
            guard times.count == posts else {
                throw PseudoTerminal.Failure(description: "post to frame: \(times.count) of \(posts) posts were shown")
            }
            return times
        }

        func close() {
            screen.close()
            Glibc.close(slave)
            draining.wait()  // the master reads EIO once no slave descriptor is open
            Glibc.close(master)
        }
    }
}
