#!/usr/bin/env bash
# Builds the three programs for release with the Swift runtime and Foundation linked in
# statically (`--static-swift-stdlib`), so they run on a machine without the toolchain,
# and with the commit they are built from in `--version`.
#
#   bash scripts/build-release.sh            # .build/release/{failedbanks,mystash,fetchedtable}
#   bash scripts/build-release.sh --print-bin-path
#
# The commit (`git rev-parse`, `-dirty` when tracked files have changes, `unknown` outside
# git) is written into Sources/CLIKit/BuildCommit.swift for the build and the file is put
# back afterwards, contents and time, so a later debug build does not recompile anything.
set -euo pipefail
cd "$(dirname "$0")/.."
programs=(failedbanks mystash fetchedtable)
flags=(-c release --static-swift-stdlib)
if [ "${1:-}" = "--print-bin-path" ]; then
    swift build "${flags[@]}" --show-bin-path
    exit 0
fi

stamp=Sources/CLIKit/BuildCommit.swift
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit-dirty"
fi
backup=$(mktemp)
cp -p "$stamp" "$backup"
restore() { cp -p "$backup" "$stamp" && rm -f "$backup"; }
trap restore EXIT
sed -i "s/^let buildCommit = .*/let buildCommit = \"$commit\"/" "$stamp"

for program in "${programs[@]}"; do
    swift build "${flags[@]}" --product "$program"
done
