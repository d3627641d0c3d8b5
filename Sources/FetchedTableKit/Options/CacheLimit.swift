/// `--cache-limit SIZE`: how many bytes the copies of server tables may take in the cache folder
/// (those of running sessions always stay): a number of bytes, or with a unit `K`, `M`, `G`, `T`
/// (powers of 1024, `B` optional: `1G`, `500 MB`, `1.5GB`). One gigabyte when not given.
///
///     try CacheLimit(parsing: "500M").bytes   // 524_288_000
package struct CacheLimit: Equatable, Sendable {
    /// The bound, in bytes.
    package var bytes: Int64

    /// 1 GB.
    package static let standard = CacheLimit(bytes: 1 << 30)

    /// A bound of `bytes`.
    package init(bytes: Int64) { self.bytes = bytes }

    /// Parses the option's value; throws a sentence naming it.
    package init(parsing text: String) throws(OptionError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        guard let match = trimmed.wholeMatch(of: #/([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)B?/#),
            let number = Double(match.output.1)
        else { throw OptionError("--cache-limit: \"\(text)\" is not a size (e.g. 1G, 500M, 2000000)") }
        let power = ["": 0, "K": 1, "M": 2, "G": 3, "T": 4][String(match.output.2)] ?? 0
        bytes = Int64(number * Double(1 << (10 * power)))
    }

    /// `1 GB`, `500 MB`, `12 bytes`: a size as a person reads it.
    package static func text(_ bytes: Int64) -> String {
        let units: [(Int64, String)] = [(1 << 40, "TB"), (1 << 30, "GB"), (1 << 20, "MB"), (1 << 10, "kB")]
        for (size, unit) in units where bytes >= size {
            let value = Double(bytes) / Double(size)
            return
                (value < 10 && value != value.rounded() ? String(format: "%.1f", value) : String(Int(value.rounded())))
                + " " + unit
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
