// Rewritten by scripts/build-release.sh for a packaged build, then put back; keep it one line of code.
let buildCommit = "unknown"
