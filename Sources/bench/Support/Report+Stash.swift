extension Report {
    /// The lines of the `stash` group: `mystash import` of an export the stash already holds.
    static var stashLines: [Line] {
        [
            .information(
                "mystash import into an empty stash, 100k entries",
                key: "stash_import100k_s",
                unit: .seconds
            ),
            .atMost(
                10,
                "mystash re-import of its own export, 100k entries",
                key: "stash_reimport100k_s",
                unit: .seconds,
                target: "≤ 10 s"
            ),
            .information(
                "re-import CPU time (user + system)",
                key: "stash_reimport100k_cpu_s",
                unit: .seconds
            ),
        ]
    }
}
