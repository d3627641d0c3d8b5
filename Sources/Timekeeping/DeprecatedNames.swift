/// The former name of ``TimeSource``, kept for one release.
///
/// It still shadows the standard library's `Clock` for code that imports this
/// module; spell `TimeSource` (or `Swift.Clock` for the standard one).
@available(*, deprecated, renamed: "TimeSource")
public typealias Clock = TimeSource
