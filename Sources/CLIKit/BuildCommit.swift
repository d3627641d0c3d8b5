// Rewritten by scripts/stamp-commit.sh for a packaged build, then put back; keep it one line of code.
let buildCommit = "unknown"
