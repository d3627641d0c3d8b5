#!/usr/bin/env bash
# The project's lint: swift-format with the repository's .swift-format, every
# finding an error. `bash scripts/lint.sh --fix` reformats the files in place
# first (what remains after that is for a person: e.g. a forEach to make a for-in).
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Fuzz/Harnesses Examples/Students Examples/Heroes)
if [ "${1:-}" = "--fix" ]; then
    swift format format --in-place --recursive --parallel "${paths[@]}"
fi
swift format lint --strict --recursive --parallel "${paths[@]}"
