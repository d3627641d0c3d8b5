import Testing

@testable import TerminalUI

/// The index sidebar shows every title when they fit, and otherwise keeps
/// evenly spread titles (always the first and last) with `•` between, as iOS does.
@Suite struct IndexSidebarTests {
    @Test func allTitlesShowWhenTheyFitCentredVertically() {
        let sidebar = IndexSidebar(titleCount: 5, lines: 11)
        #expect(!sidebar.isCompressed)
        #expect(sidebar.usedLines == 5)
        #expect(sidebar.firstLine == 3)
        #expect((0..<5).map { sidebar.slot(at: $0) } == (0..<5).map { .title($0) })
    }

    @Test func moreTitlesThanLinesAlternateKeptTitlesAndBullets() {
        let sidebar = IndexSidebar(titleCount: 26, lines: 9)
        #expect(sidebar.isCompressed)
        #expect(sidebar.usedLines == 9)
        let slots = (0..<9).map { sidebar.slot(at: $0)! }
        #expect(slots.first == .title(0))
        #expect(slots.last == .title(25))
        for (i, slot) in slots.enumerated() {
            if i % 2 == 0 {
                guard case .title = slot else {
                    Issue.record("line \(i) should be a title")
                    continue
                }
            } else {
                guard case .bullet = slot else {
                    Issue.record("line \(i) should be a bullet")
                    continue
                }
            }
        }
    }

    @Test func anEvenNumberOfLinesLeavesOneSpare() {
        let sidebar = IndexSidebar(titleCount: 30, lines: 10)
        #expect(sidebar.usedLines == 9)
        #expect(sidebar.firstLine == 0)
    }

    @Test func aBulletJumpsToTheMiddleOfTheTitlesItStandsFor() {
        let sidebar = IndexSidebar(titleCount: 26, lines: 5)  // A • M • Z
        #expect(sidebar.slot(at: 0) == .title(0))
        #expect(sidebar.slot(at: 2) == .title(13))
        #expect(sidebar.slot(at: 4) == .title(25))
        #expect(sidebar.titleIndex(atLine: 1) == 6)
        #expect(sidebar.titleIndex(atLine: 3) == 19)
    }

    @Test func degenerateSizesDrawNothingOrOneTitle() {
        #expect(IndexSidebar(titleCount: 0, lines: 10).usedLines == 0)
        #expect(IndexSidebar(titleCount: 10, lines: 0).usedLines == 0)
        let one = IndexSidebar(titleCount: 10, lines: 1)
        #expect(one.usedLines == 1)
        #expect(one.slot(at: 0) == .title(0))
    }
}
