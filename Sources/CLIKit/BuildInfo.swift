/// The version of the programs and the commit they were built from, as `--version` prints them.
///
/// The commit is `unknown` in a plain `swift build`; `scripts/package-deb.sh` and
/// `scripts/install.sh` write `git rev-parse` into `BuildCommit.swift` for their build
/// and put the file back afterwards.
///
///     BuildInfo.versionLine(program: "books")   // "books 1.0.0 (commit 3f2c9e1a0b4d)"
package enum BuildInfo {
    /// The release version, shared by the three programs and their Debian package.
    package static let version = "1.0.0"
    /// The abbreviated commit the binary was built from (`-dirty` when the tree had changes), or `unknown`.
    package static let commit = buildCommit

    /// The line `--version` prints.
    package static func versionLine(program: String) -> String {
        "\(program) \(version) (commit \(commit))"
    }
}
