import Foundation
import TestSupport
import Testing

/// A row holding one long unbroken word (a 400 KB base64 data URL): its detail opens, scrolls
/// and closes in a real terminal — the wrap is linear and laid out a frame at a time, so keys
/// (`q` among them) are answered while it goes on.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableLongValueEndToEndTests {
    @Test func theDetailOfARowWithA400KBWordOpensScrollsAndQuits() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("pixels.sqlite").path
        // 'data:image/png;base64,' and 400,000 characters without a space.
        try fixture.sql(
            """
            CREATE TABLE pixel (id INTEGER PRIMARY KEY, name TEXT, data TEXT);
            INSERT INTO pixel VALUES (1, 'dot', 'data:image/png;base64,' || replace(hex(zeroblob(200000)), '00', 'QU'));
            """,
            database: path
        )
        let tmux = try fixture.launch([path, "--table", "pixel", "--title", "name"])
        defer { tmux.close() }
        try tmux.waitUntil("the list", timeout: 10) { $0.contains("dot") && $0.contains("1/1") }
        tmux.send("Enter")
        // The detail screen (its own status line), the value's first line beside its label.
        let detail = try tmux.waitUntil("the detail with the value's first line", timeout: 30) {
            $0.contains("↑/↓ scroll") && $0.contains("data:image/png;base64,QUQU")
        }
        #expect(detail.screenLines.contains { $0.contains("data") && $0.contains("base64,QUQU") }, "\(detail)")
        tmux.send("PageDown")
        tmux.send("End")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0, "the browser did not quit from the detail: \(tmux.capture())")
    }
}
