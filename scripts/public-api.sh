#!/usr/bin/env bash
# Prints the public surface of each library module and app kit: the number of
# public (and open) declarations another package sees, counted from the
# compiler's symbol graphs (the same build and scratch folder as scripts/docs.sh,
# so one warms the other; incremental after the first run). Synthesized members
# (memberwise initializers, protocol default implementations shown on a
# conforming type) are not declarations and are not counted; extensions a
# module adds to another module's types are (the `Module@Other` graphs).
#   bash scripts/public-api.sh              # the table: module, public declarations
#   bash scripts/public-api.sh SQLiteStore  # one module, and the list of its public declarations
# Deterministic: the counts depend only on the sources.
set -euo pipefail
cd "$(dirname "$0")/.."
libraries=(BaseDirectories Timekeeping TableIndexPath SQLiteStore CSVImport BulkImport FetchedResults TerminalUI
    FetchedResultsScripts FetchedResultsUI CLIKit PostgreSQLClient PostgreSQLChangeFeed PostgreSQLReplica)
kits=(FailedBanksKit MyStashKit FetchedTableKit)
scratch=.build/docs-build
graphs=.build/symbol-graphs
mkdir -p "$graphs"

# One build of every target but the tests: each module compiled writes its graphs.
# A module the incremental build does not recompile keeps the graph it wrote last.
swift build --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public > "$scratch.log" 2>&1 \
    || { tail -30 "$scratch.log"; echo "public-api: the build failed"; exit 1; }

count() { # MODULE [--list]: public declarations in the module's graphs
    python3 - "$graphs" "$@" <<'EOF'
import glob, json, os, sys
graphs, module, listing = sys.argv[1], sys.argv[2], len(sys.argv) > 3
files = [os.path.join(graphs, module + ".symbols.json")] + sorted(glob.glob(os.path.join(graphs, module + "@*.symbols.json")))
names = set()
for path in files:
    if not os.path.exists(path):
        sys.exit(f"public-api: {path} is missing")
    for symbol in json.load(open(path))["symbols"]:
        precise = symbol["identifier"]["precise"]
        if symbol.get("accessLevel") in ("public", "open") and "::SYNTHESIZED::" not in precise:
            names.add((".".join(symbol["pathComponents"]), symbol["kind"]["displayName"], precise))
if listing:
    for title, kind, _ in sorted(names):
        print(f"  {title} ({kind})")
print(len(names))
EOF
}

if [ $# -gt 0 ]; then
    for m in "$@"; do echo "== $m"; count "$m" --list; done
    exit 0
fi
printf "%-22s %s\n" "module" "public"
for m in "${libraries[@]}" "${kits[@]}"; do printf "%-22s %s\n" "$m" "$(count "$m")"; done
