import Foundation

/// One header or row taking part in a running table animation, in viewport
/// lines: where it starts and ends, and how tall it is at each end.
///
/// Adjacent items share edges at both ends, and both edges are interpolated
/// and rounded the same way, so a collapsing or opening row never leaves a
/// hole between its neighbours.
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
        /// Inserted: its gap opens, and it is dim for the first two thirds.
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
        let top = AnimationCurve.line(AnimationCurve.lerp(fromY, toY, q))
        let bottom = AnimationCurve.line(AnimationCurve.lerp(fromY + fromHeight, toY + toHeight, q))
        return (top, max(0, bottom - top))
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
