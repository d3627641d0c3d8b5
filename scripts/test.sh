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
# The failing tests by function name, and the suites (named as their files) of
# those recorded under a display name.
failed=$( { grep -oE '✘ Test [A-Za-z0-9_]+\(' "$log" | sed -e 's/^✘ Test //' -e 's/($//'
            grep -E '^✘ Test ".*recorded an issue at ' "$log" | grep -oE 'at [A-Za-z0-9_+]+\.swift:' | sed -e 's/^at //' -e 's/\.swift:$//'
          } | sort -u | paste -sd'|' -)
if [ -z "$failed" ]; then echo "test.sh: swift test failed without a failing test (build or crash)"; exit 1; fi
echo "test.sh: retrying once, on their own, the tests that failed: $failed"
swift test --skip-build --filter "$failed"
