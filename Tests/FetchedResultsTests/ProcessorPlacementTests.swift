import Foundation
import Testing

@testable import FetchedResults

/// The helper thread of a split read leaves the processor of the thread that woke it.
@Suite struct ProcessorPlacementTests {
    static let processors = ProcessInfo.processInfo.activeProcessorCount

    @Test(.enabled(if: processors >= 2, "one processor: there is nowhere else to go"))
    func leavingAProcessorMovesTheThreadOffItAndRestoringLetsItBack() throws {
        // The thread may move between asking where it runs and leaving: try a few times.
        var placement: ProcessorPlacement?
        var left: Int32 = -1
        for _ in 0..<100 where placement == nil {
            left = ProcessorPlacement.current
            placement = ProcessorPlacement.leave(left)
        }
        let moved = try #require(placement, "the thread never left processor \(left)")
        for _ in 0..<1000 { #expect(ProcessorPlacement.current != left) }
        moved.restore()
        // Allowed everywhere again: a second leave finds a processor to go to as well.
        var again: ProcessorPlacement?
        for _ in 0..<100 where again == nil { again = ProcessorPlacement.leave(ProcessorPlacement.current) }
        #expect(again != nil)
        again?.restore()
    }

    @Test func leavingAProcessorTheThreadIsNotOnChangesNothing() {
        #expect(ProcessorPlacement.leave(-1) == nil)
        #expect(ProcessorPlacement.leave(4096) == nil)
        #expect(ProcessorPlacement.current >= 0)
    }
}
