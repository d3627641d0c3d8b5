import Foundation

/// One header or row taking part in a running table animation, in viewport
/// lines: where it starts and ends, and how tall it is at each end.
///
/// Adjacent items share edges at both ends, and both edges are interpolated
/// and rounded the same way (``AnimationCurve/edge(from:to:_:)``), so a
/// collapsing or opening row never leaves a hole between its neighbours. An
/// opening row's lower edge moves down, so it is one line high from the first
/// frame: an inserted row shows at once, dim, while the rows below slide down.
struct AnimatedItem {
    enum Content {
        case header(String)
        case row(TableCell)
    }

    enum Effect {
        /// Survives in place (or just shifts with its neighbours).
        case none
        /// Deleted: drawn dim while its height shrinks to 0.
        case fadeOut
        /// Inserted: its gap opens from its first line (shown from the first frame),
        /// and it is dim for the first two thirds.
        case fadeIn
        /// Reloaded: reverse and bold in the first half.
        case flash
        /// Moved: travels from its old line to its new one, drawn on top.
        case move
    }

    var content: Content
    var effect: Effect
    var fromY: Int
    var toY: Int
    var fromHeight: Int
    var toHeight: Int
    /// The row's index path after the update (nil for deleted rows and headers).
    var newIndexPath: IndexPath?
    /// The header title of the section the item belongs to (for the sticky header).
    var sectionTitle: String?

    /// Top line and height at eased progress `q`.
    func frame(at q: Double) -> (top: Int, height: Int) {
        let top = edge(from: fromY, to: toY, q)
        let bottom = edge(from: fromY + fromHeight, to: toY + toHeight, q)
        return (top, max(0, bottom - top))
    }

    /// One of its edges at eased progress `q`. A moving row travels on its own, above the others:
    /// it opens no gap, so its edges round as plain lines.
    private func edge(from: Int, to: Int, _ q: Double) -> Int {
        guard effect != .move else { return AnimationCurve.line(AnimationCurve.lerp(from, to, q)) }
        return AnimationCurve.edge(from: from, to: to, q)
    }

    /// Attributes the effect adds at eased progress `q`.
    func effectAttributes(at q: Double) -> CellAttributes {
        switch effect {
        case .none, .move: return []
        case .fadeOut: return .dim
        case .fadeIn: return q < 0.67 ? .dim : []
        case .flash: return q < 0.5 ? [.reverse, .bold] : []
        }
    }
}
