#!/usr/bin/env bash
# The project's test command: builds everything (the end-to-end tests drive
# the built executables in tmux), then runs every test target.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build
swift test "$@"
