/// Which index titles the sidebar shows in a given number of lines.
///
/// When every title fits, each gets a line. Otherwise, as iOS does, it keeps
/// `k = (lines + 1) / 2` titles evenly spread from the first to the last and
/// puts a `•` between each pair, standing for the titles left out. Computed
/// per line without allocating, so drawing it costs O(lines).
struct IndexSidebar {
    enum Slot: Equatable {
        case title(Int)
        /// Stands for the titles strictly between two kept ones; a click on it
        /// jumps to `target`, the middle of that range.
        case bullet(target: Int)
    }

    let titleCount: Int
    let lines: Int

    var isCompressed: Bool { titleCount > lines }
    private var keptCount: Int { isCompressed ? (lines + 1) / 2 : titleCount }

    /// Lines actually used (at most `lines`).
    var usedLines: Int {
        guard titleCount > 0, lines > 0 else { return 0 }
        return isCompressed ? max(1, 2 * keptCount - 1) : titleCount
    }

    /// The line (relative to the sidebar's frame) of the first slot: centred, as iOS does.
    var firstLine: Int { (lines - usedLines) / 2 }

    /// Index of the `j`-th kept title.
    private func kept(_ j: Int) -> Int {
        let k = keptCount
        guard k > 1 else { return 0 }
        return (j * (titleCount - 1) + (k - 1) / 2) / (k - 1)
    }

    /// The slot at `line` of the used lines (0-based from `firstLine`).
    func slot(at line: Int) -> Slot? {
        guard line >= 0, line < usedLines else { return nil }
        guard isCompressed else { return .title(line) }
        if line % 2 == 0 { return .title(kept(line / 2)) }
        let low = kept(line / 2)
        let high = kept(line / 2 + 1)
        return .bullet(target: (low + high) / 2)
    }

    /// The title a click at `line` (relative to the sidebar's frame) jumps to.
    func titleIndex(atLine line: Int) -> Int? {
        switch slot(at: line - firstLine) {
        case .title(let i): return i
        case .bullet(let target): return target
        case nil: return nil
        }
    }
}
