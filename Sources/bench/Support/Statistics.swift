/// Small statistics over repeated runs.
///
/// The benchmark reports medians: on a shared, noisy machine the median
/// ignores the odd run that lost its core to someone else's build.
///
///     Statistics.median([3, 1, 2])  // 2
enum Statistics {
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
