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
}
