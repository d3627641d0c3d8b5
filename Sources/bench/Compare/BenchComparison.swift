import CLIKit
import Foundation

/// `bench --compare BEFORE.json AFTER.json`: every key the two runs share, its
/// change, and the ratios that got worse by more than a tenth.
///
/// A ratio is a key ending in `_ratio` (lower is better: ours against a
/// reference measured in the same run) or `_speedup` (higher is better). Other
/// keys (seconds, milliseconds, megabytes) are printed with their change but
/// never flagged: between runs they move with the machine, the ratios much less.
///
///     let comparison = try BenchComparison(before: oldJSON, after: newJSON)
///     print(comparison.text)
///     exit(comparison.worsened.isEmpty ? 0 : 1)
struct BenchComparison {
    /// One key present in both runs.
    struct Row: Equatable {
        var key: String
        var before: Double?
        var after: Double?
        /// `after ÷ before − 1` when both are numbers and `before` is not 0.
        var change: Double? {
            guard let before, let after, before != 0 else { return nil }
            return after / before - 1
        }
        /// Whether the key is a ratio judged by `--compare`.
        var isRatio: Bool { BenchComparison.direction(of: key) != nil }
        /// True when the ratio moved the wrong way by more than ``BenchComparison/tolerance``.
        var worsened: Bool {
            guard let change, let direction = BenchComparison.direction(of: key) else { return false }
            switch direction {
            case .lowerIsBetter: return change > BenchComparison.tolerance
            case .higherIsBetter: return change < -BenchComparison.tolerance
            }
        }
    }

    enum Direction { case lowerIsBetter, higherIsBetter }

    /// How much worse a ratio may get before it is flagged (10 %).
    static let tolerance = 0.10

    /// Why a run's JSON could not be read (the message names the file).
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    let rows: [Row]

    /// The rows that worsened, in key order.
    var worsened: [Row] { rows.filter(\.worsened) }

    /// Compares two runs' JSON objects (`name` is how each is called in messages).
    init(before: Data, after: Data, beforeName: String = "BEFORE", afterName: String = "AFTER") throws {
        let old = try BenchComparison.figures(before, name: beforeName)
        let new = try BenchComparison.figures(after, name: afterName)
        let known = BenchResults.keys + BenchResults.genericKeys
        let shared = Set(old.keys).intersection(new.keys)
        let ordered = known.filter(shared.contains) + shared.subtracting(known).sorted()
        rows = ordered.map { Row(key: $0, before: old[$0]!, after: new[$0]!) }
    }

    /// Reads both files and compares them.
    init(beforePath: String, afterPath: String) throws {
        func read(_ path: String) throws -> Data {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ReadError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            return data
        }
        try self.init(before: read(beforePath), after: read(afterPath), beforeName: beforePath, afterName: afterPath)
    }

    static func direction(of key: String) -> Direction? {
        if key.hasSuffix("_ratio") { return .lowerIsBetter }
        if key.hasSuffix("_speedup") { return .higherIsBetter }
        return nil
    }

    /// The numbers (or nulls) of one flat JSON object.
    private static func figures(_ data: Data, name: String) throws -> [String: Double?] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ReadError(description: "\(name) is not JSON: \(error.localizedDescription)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw ReadError(description: "\(name) is not a JSON object of bench figures")
        }
        var figures: [String: Double?] = [:]
        for (key, value) in dictionary {
            if value is NSNull {
                figures[key] = .some(nil)
            } else if let number = value as? NSNumber {
                figures[key] = number.doubleValue
            }
        }
        return figures
    }

    /// The printed comparison: one line per shared key, then a summary line.
    var text: String {
        let width = max(12, rows.map(\.key.count).max() ?? 0)
        var lines = [
            "key".padding(toLength: width, withPad: " ", startingAt: 0) + "      before       after    change"
        ]
        for row in rows {
            let change = row.change.map { String(format: "%+8.1f %%", $0 * 100) } ?? "       —  "
            let mark = row.worsened ? "  WORSE (ratio > 10 %)" : ""
            lines.append(
                row.key.padding(toLength: width, withPad: " ", startingAt: 0)
                    + "  " + BenchComparison.cell(row.before) + "  " + BenchComparison.cell(row.after)
                    + "  " + change + mark
            )
        }
        let judged = rows.filter(\.isRatio).count
        let bad = worsened.map(\.key)
        lines.append(
            bad.isEmpty
                ? "\(rows.count) shared keys; no ratio of \(judged) worsened by more than 10 %"
                : "\(rows.count) shared keys; \(bad.count) of \(judged) ratios worsened by more than 10 %: "
                    + bad.joined(separator: ", ")
        )
        return lines.joined(separator: "\n")
    }

    private static func cell(_ value: Double?) -> String {
        guard let value else { return "null".leftPadded(to: 10) }
        let text = value == value.rounded() && abs(value) < 1e12 ? String(Int(value)) : String(format: "%.4g", value)
        return text.leftPadded(to: 10)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

extension BenchComparison {
    /// `bench --compare BEFORE.json AFTER.json`: prints the comparison; 0 when no
    /// ratio worsened by more than 10 %, 1 when one did, 64 for a wrong command
    /// line, 66 for a file that cannot be read as a run's JSON.
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2 else {
            writeStandardError("bench: --compare takes two files: bench --compare BEFORE.json AFTER.json\n")
            return ExitStatus.usage
        }
        do {
            let comparison = try BenchComparison(beforePath: arguments[0], afterPath: arguments[1])
            print(comparison.text)
            return comparison.worsened.isEmpty ? ExitStatus.ok : ExitStatus.failure
        } catch {
            writeStandardError("bench: \(error)\n")
            return ExitStatus.noInput
        }
    }
}
