import Foundation
import TestSupport
import Testing

/// Text that is hard on a terminal, in a real one: bank names made of grapheme
/// clusters and bidirectional controls, and a 10,000-character paste into `/`.
@Suite(
    .serialized,
    .enabled(
        if: BrowserFixture.isAvailable,
        Comment(rawValue: BrowserFixture.unavailableReason ?? "")
    )
)
struct TextInputEndToEndTests {
    /// Whether `screen` holds `text` scalar for scalar (String's `contains` would
    /// call "é" and "e" + U+0301 equal, and the test is about which one is drawn).
    private func showsExactly(_ screen: String, _ text: String) -> Bool {
        let haystack = Array(screen.unicodeScalars)
        let needle = Array(text.unicodeScalars)
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    @Test func aNameWithAZWJEmojiAndACombiningMarkIsDrawnWholeAndBidiControlsAsPlaceholders() throws {
        let fixture = try BrowserFixture()
        defer { fixture.remove() }
        let facts = try StoreFacts(fixture)
        let newest = facts.byDate[0]
        let second = facts.byDate[1]
        // "Family 👨‍👩‍👧 Bank é" (e + U+0301), then a right-to-left override and its pop.
        try fixture.sql(
            """
            UPDATE failed_bank_info SET name = 'Family ' || char(0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467)
              || ' Bank e' || char(0x301) || ' ' || char(0x202E) || 'kcaB' || char(0x202C)
            WHERE id = \(newest.id);
            UPDATE failed_bank_info SET name = 'Plain Test Bank' WHERE id = \(second.id);
            """
        )
        let tmux = try fixture.launch()
        defer { tmux.close() }
        let family = "Family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} Bank e\u{301} \u{FFFD}kcaB\u{FFFD}"
        let screen = try tmux.waitUntil("the family bank", timeout: 10) { self.showsExactly($0, family) }
        for scalar in screen.unicodeScalars {
            #expect(
                !(0x202A...0x202E).contains(scalar.value) && !(0x2066...0x2069).contains(scalar.value),
                "a bidirectional control reached the terminal"
            )
        }
        // The rest of the row stays in place: the accessory "›" is in the same column
        // as on a plain row (the ZWJ family takes two cells, the accent none).
        let lines = screen.lines
        let familyLine = try #require(lines.first { self.showsExactly($0, family) })
        let plainLine = try #require(lines.first { $0.contains("Plain Test Bank") }, "\(screen)")
        func accessoryColumn(_ line: String, wide: Int) -> Int? {
            line.firstIndex(of: "›").map { line.distance(from: line.startIndex, to: $0) + wide }
        }
        let familyColumn = try #require(accessoryColumn(familyLine, wide: 1), "\(familyLine)")
        #expect(familyColumn == accessoryColumn(plainLine, wide: 0), "\(familyLine)\n\(plainLine)")
        tmux.send("q")
        #expect(fixture.exitStatus(timeout: 10) == 0)
    }

    @Test func aTenThousandCharacterPasteIntoSearchLeavesTheAppAnsweringKeys() throws {
        let fixture = try BrowserFixture()
        defer { fixture.remove() }
        let facts = try StoreFacts(fixture)
        let total = facts.byDate.count
        let tmux = try fixture.launch()
        defer { tmux.close() }
        try tmux.waitFor("1/\(total)", timeout: 10)
        tmux.send("/")
        try tmux.waitUntil("the search line") { $0.lines.last?.hasPrefix("/") == true }

        // 10,000 characters through tmux's paste buffer (what a terminal's paste sends).
        // Letters, and an end that appears nowhere else: the bar shows it once all has arrived.
        let pasted = String((0..<9_990).map { i in Character(Unicode.Scalar(UInt8(97 + (i * 7) % 26))) }) + "9876543210"
        let file = fixture.directory.appendingPathComponent("paste.txt")
        try pasted.write(to: file, atomically: true, encoding: .utf8)
        try ProcessRunner.run(tmux.tmux, ["-L", tmux.socket, "load-buffer", file.path])
        try ProcessRunner.run(tmux.tmux, ["-L", tmux.socket, "paste-buffer", "-t", tmux.target])
        // The search ran on the whole paste: the bar shows its end and "no match".
        try tmux.waitUntil("the pasted text searched", timeout: 20) { screen in
            guard let last = screen.lines.last else { return false }
            return last.contains("no match") && last.contains(String(pasted.suffix(24)))
        }

        // The next keys are answered: Esc closes the search, j moves. (That the paste is one
        // search, not one per character, is ListScreenTests' searchCount rule; no clock here.)
        tmux.send("Escape")
        try tmux.waitUntil("Esc to close the search") { $0.lines.last?.hasPrefix("/") == false }
        tmux.send("j")
        try tmux.waitFor("2/\(total)")
        tmux.send("q")
        #expect(fixture.exitStatus(timeout: 10) == 0)
    }
}
