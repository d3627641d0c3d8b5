import FetchedResultsScripts
import Testing

/// The two escaped forms of text, which share one loop and differ in what they escape: a
/// person's (every control character, C1 and DEL too, as `\u{…}`) and JSON's (quotes, and C0
/// as `\u00XX`).
@Suite struct EscapingTests {
    @Test func displayTextEscapesTheBackslashAndEveryControlCharacter() {
        #expect(
            DisplayText.escapingControls("a\\b\u{0}\t\n\r\u{1B}\u{7F}\u{85}é\"")
                == "a\\\\b\\0\\t\\n\\r\\u{1B}\\u{7F}\\u{85}é\""
        )
        #expect(DisplayText.escapingControls("plain é") == "plain é")
    }

    @Test func jsonStringsEscapeQuotesBackslashesAndTheC0Characters() {
        #expect(JSONText.string("a\\b\u{0}\t\n\r\u{1B}\u{7F}é\"") == "\"a\\\\b\\u0000\\t\\n\\r\\u001b\u{7F}é\\\"\"")
        #expect(JSONText.string("") == "\"\"")
    }
}
