#!/usr/bin/env bash
# The project's test command: builds everything (the end-to-end tests drive
# the built executables in tmux), then runs every test target.
#
# A test that fails is run once more on its own, and the command fails only
# if it fails again. Some end-to-end tests still flake under heavy load (a
# known defect, tracked in issue 13's note); the retry is printed, so a flake
# is visible in the log, while a test that really fails still fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build
mkdir -p .build
log=.build/test-run.log
if swift test "$@" 2>&1 | tee "$log"; then exit 0; fi
failed=$(grep -oE '✘ Test [A-Za-z0-9_]+\(' "$log" | sed -e 's/^✘ Test //' -e 's/($//' | sort -u | paste -sd'|' -)
if [ -z "$failed" ]; then echo "test.sh: swift test failed without a failing test (build or crash)"; exit 1; fi
echo "test.sh: retrying once, on their own, the tests that failed: $failed"
swift test --skip-build --filter "$failed"
