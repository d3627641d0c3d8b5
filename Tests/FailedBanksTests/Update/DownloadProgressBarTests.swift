import Testing

@testable import FailedBanksKit

/// The download's progress line: the bytes so far, and, when the server said how many to expect,
/// "of" the total with a bar and the percentage, fitted to the terminal's width.
@Suite struct DownloadProgressBarTests {
    @Test func aKnownTotalGetsABarAndThePercentage() {
        let line = DownloadProgressBar.line(
            label: "www.fdic.gov",
            progress: .init(received: 12 * 1024, expected: 48 * 1024),
            width: 80
        )
        #expect(line == "www.fdic.gov: 12 KB of 48 KB [#######-----------------------] 25%")
    }

    @Test func anUnknownTotalIsTheBytesAloneAndANarrowTerminalCutsTheLine() {
        let unknown = DownloadProgressBar.line(label: "host", progress: .init(received: 812, expected: nil), width: 80)
        #expect(unknown == "host: 812 bytes")
        let narrow = DownloadProgressBar.line(
            label: "www.fdic.gov",
            progress: .init(received: 3 << 20, expected: 6 << 20),
            width: 20
        )
        #expect(narrow == "www.fdic.gov: 3.0 M", "cut to one column less than the width")
    }
}
