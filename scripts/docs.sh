#!/usr/bin/env bash
# Builds the DocC archives of the library modules with the toolchain's own
# `docc` (no package plugin): `swift package dump-symbol-graph` extracts symbol
# graphs from the debug build's modules, `docc convert`
# turns each module's graphs and its catalog (Sources/<Module>/<Module>.docc)
# into .build/docs/<Module>.doccarchive. Then it checks that every public
# symbol has a documentation comment, and fails naming those that do not.
# Last, every ```swift block of the articles is compiled (scripts/doc-snippets.py:
# a throwaway package that depends on this one by path, one program per article).
#   bash scripts/docs.sh                 # all library modules
#   bash scripts/docs.sh FetchedResults  # one
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(${@:-BaseDirectories SQLiteStore CSVImport BulkImport FetchedResults TerminalUI FetchedResultsScripts FetchedResultsUI TableIndexPath PostgreSQLClient PostgreSQLChangeFeed PostgreSQLReplica})
out=.build/docs
mkdir -p "$out"

echo "== symbol graphs"
# Extracted from the debug build's modules (`swift build`, which this brings up to date: no
# second build of the library with other flags), into .build/<triple>/symbolgraph.
swift package dump-symbol-graph --minimum-access-level public > "$out/symbol-graphs.log" 2>&1 \
    || { tail -30 "$out/symbol-graphs.log"; echo "docs: extracting the symbol graphs failed"; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$out/symbol-graphs.log")
[ -d "$graphs" ] || { tail -5 "$out/symbol-graphs.log"; echo "docs: no symbol graph folder in the output above"; exit 1; }

status=0
for m in "${modules[@]}"; do
    echo "== $m"
    one=$(mktemp -d)
    cp "$graphs/$m.symbols.json" "$one/"
    cp "$graphs/$m"@*.symbols.json "$one/" 2>/dev/null || true
    catalog=Sources/$m/$m.docc
    [ -d "$catalog" ] || { echo "docs: $catalog is missing"; status=1; continue; }
    rm -rf "$out/$m.doccarchive"
    if ! docc convert "$catalog" --additional-symbol-graph-dir "$one" \
        --fallback-display-name "$m" --fallback-bundle-identifier "fetchedtable.$m" \
        --output-path "$out/$m.doccarchive" --warnings-as-errors > "$out/$m.log" 2>&1; then
        grep -E "warning|error" "$out/$m.log" | head -40; echo "docs: $m: docc reported problems"; status=1
    fi
    python3 scripts/undocumented-symbols.py "$one"/*.json || status=1
    rm -rf "$one"
done
echo "== the articles' Swift blocks"
python3 scripts/doc-snippets.py "${modules[@]}" || status=1
[ $status -eq 0 ] && echo "docs: archives in $out"
exit $status
