#!/usr/bin/env bash
# The project's test command: builds everything (the end-to-end tests drive
# the built executables in tmux, found beside the test bundle: see
# Tests/TestSupport/BuiltProgram.swift), then runs every test target.
#
# On a machine that has tmux the end-to-end suites must run: a run in which
# one of them was skipped (no built program, tmux missing from the tests'
# PATH) fails, naming the skipped suites, even when everything else passed.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
swift test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -eq 0 ] && command -v tmux > /dev/null; then
    # Swift Testing reports a skip as `Suite|Test NAME skipped: "reason"`; the end-to-end
    # suites' reasons name tmux or the built program they need.
    skipped=$(grep -E '(Suite|Test) .* skipped: ".*(tmux|no built|the built|swift build|debug programs)' "$log" || true)
    if [ -n "$skipped" ]; then
        printf '%s\n' "$skipped"
        echo "test.sh: end-to-end tests were skipped on a machine that has tmux ($(printf '%s\n' "$skipped" | wc -l) above)"
        exit 1
    fi
fi
exit "$status"
