/// Timing of the table view's row animations.
///
/// Durations stay within 150–300 ms (long enough to see what moved, short
/// enough never to be waited for); the curve eases in and out.
///
///     let q = AnimationCurve.easeInOut(0.5)   // 0.5
enum AnimationCurve {
    /// Smoothstep: 0 at 0, 1 at 1, flat at both ends.
    static func easeInOut(_ p: Double) -> Double {
        let t = max(0, min(1, p))
        return t * t * (3 - 2 * t)
    }

    /// Linear interpolation between two line positions.
    static func lerp(_ a: Int, _ b: Int, _ q: Double) -> Double {
        Double(a) + Double(b - a) * q
    }

    /// Rounds a fractional line position; halves go down, so that a row moving by
    /// one line moves at the midpoint of the animation.
    static func line(_ value: Double) -> Int {
        Int((value - 0.5).rounded(.up))
    }

    /// The line of an edge travelling from line `from` to line `to`, at eased progress `q`.
    ///
    /// An edge moving down (a gap opening above it, the rows below sliding down) is
    /// rounded up and one line on from the first frame, so that an inserted row shows
    /// at once (its first line, then the rest as the gap grows); any other edge rounds
    /// as ``line(_:)`` (a closing gap keeps its lines until half of each is passed).
    /// The line depends only on the distance travelled and `q`, so edges shared by
    /// neighbours stay shared, and rows moving by the same distance move together.
    ///
    ///     AnimationCurve.edge(from: 3, to: 4, 0)     // 4: the opening line, at once
    ///     AnimationCurve.edge(from: 3, to: 5, 0.25)  // 4: a 2-line gap, one line open
    ///     AnimationCurve.edge(from: 5, to: 3, 0.25)  // 5: a closing gap, still whole
    static func edge(from: Int, to: Int, _ q: Double) -> Int {
        guard to > from else { return line(lerp(from, to, q)) }
        let travelled = Int((Double(to - from) * max(0, min(1, q))).rounded(.up))
        return from + min(to - from, max(1, travelled))
    }
}
