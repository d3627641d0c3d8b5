import Testing

@testable import TerminalUI

/// The mapping from what `wget_wch` returns to `InputEvent` (curses key codes as numbers).
@Suite struct TerminalKeyDecodingTests {
    @Test func controlCharactersBecomeNamedKeysOrControlChords() {
        #expect(CursesKeyDecoder.event(character: 9) == .tab)
        #expect(CursesKeyDecoder.event(character: 10) == .enter)
        #expect(CursesKeyDecoder.event(character: 13) == .enter)
        #expect(CursesKeyDecoder.event(character: 27) == .escape)
        #expect(CursesKeyDecoder.event(character: 127) == .backspace)
        #expect(CursesKeyDecoder.event(character: 8) == .backspace)
        #expect(CursesKeyDecoder.event(character: 12) == .control("l"))
        #expect(CursesKeyDecoder.event(character: 1) == .control("a"))
        #expect(CursesKeyDecoder.event(character: 19) == .control("s"))
        #expect(CursesKeyDecoder.event(character: 0x9B) == nil)
    }

    @Test func printableCharactersIncludingWideOnesAreCharacters() {
        #expect(CursesKeyDecoder.event(character: 0x71) == .character("q"))
        #expect(CursesKeyDecoder.event(character: 0x65E5) == .character("日"))
        #expect(CursesKeyDecoder.event(character: 0x1F600) == .character("😀"))
        #expect(CursesKeyDecoder.event(character: 0xD800) == nil)  // a lone surrogate is no scalar
    }

    @Test func cursesKeyCodesBecomeKeys() {
        // Values of curses.h (octal there).
        #expect(CursesKeyDecoder.event(keyCode: 0o402) == .down)
        #expect(CursesKeyDecoder.event(keyCode: 0o403) == .up)
        #expect(CursesKeyDecoder.event(keyCode: 0o404) == .left)
        #expect(CursesKeyDecoder.event(keyCode: 0o405) == .right)
        #expect(CursesKeyDecoder.event(keyCode: 0o406) == .home)
        #expect(CursesKeyDecoder.event(keyCode: 0o550) == .end)
        #expect(CursesKeyDecoder.event(keyCode: 0o523) == .pageUp)
        #expect(CursesKeyDecoder.event(keyCode: 0o522) == .pageDown)
        #expect(CursesKeyDecoder.event(keyCode: 0o541) == .backTab)
        #expect(CursesKeyDecoder.event(keyCode: 0o512) == .delete)
        #expect(CursesKeyDecoder.event(keyCode: 0o513) == .insert)
        #expect(CursesKeyDecoder.event(keyCode: 0o407) == .backspace)
        #expect(CursesKeyDecoder.event(keyCode: 0o527) == .enter)
        #expect(CursesKeyDecoder.event(keyCode: 0o410 + 1) == .function(1))
        #expect(CursesKeyDecoder.event(keyCode: 0o410 + 12) == .function(12))
        #expect(CursesKeyDecoder.event(keyCode: 0o410 + 13) == nil)
    }
}
