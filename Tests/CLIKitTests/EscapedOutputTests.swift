import CLIKit
import Testing

/// Issue 37.7: one escaping policy for every program's stdout and stderr — what a terminal would act
/// on (control characters, line separators, bidirectional overrides) reaches it as a visible escape.
/// `printError` and `writeStandardError` use it: the binaries' tests check what reaches stderr
/// (`TableDataTests.namesFromTheFileAndOptionValuesReachStandardErrorEscaped`).
@Suite struct EscapedOutputTests {
    @Test func controlsSeparatorsAndOverridesAreEscapedTextIsNot() {
        #expect(EscapedOutput.escapingControls("plain café 日本 🏦") == "plain café 日本 🏦")
        #expect(EscapedOutput.escapingControls("evil\u{1B}]52;c;aGk=\u{7}") == "evil\\u{1B}]52;c;aGk=\\u{7}")
        #expect(EscapedOutput.escapingControls("a\\b\tc\nd\r\u{0}") == "a\\\\b\\tc\\nd\\r\\0")
        #expect(
            EscapedOutput.escapingControls("abc\u{202E}fed\u{2028}x\u{2066}y") == "abc\\u{202E}fed\\u{2028}x\\u{2066}y"
        )
        #expect(EscapedOutput.escapingControls("c1\u{9B}31m\u{7F}") == "c1\\u{9B}31m\\u{7F}")
        #expect(EscapedOutput.escapingEachLine("one\u{1B}\ntwo") == "one\\u{1B}\ntwo")
    }
}
