#!/usr/bin/env bash
# Builds the DocC archives of the library modules with the toolchain's own
# `docc` (no package plugin): the compiler writes symbol graphs, `docc convert`
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
scratch=.build/docs-build
graphs=.build/symbol-graphs
out=.build/docs
# Not emptied between runs: a module the incremental build does not recompile
# emits no graph, and keeps the one of the run that last compiled it.
mkdir -p "$graphs" "$out"

echo "== symbol graphs"
for m in "${modules[@]}"; do
    swift build --scratch-path "$scratch" --target "$m" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
        -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public > "$scratch.log" 2>&1 \
        || { tail -30 "$scratch.log"; echo "docs: building $m failed"; exit 1; }
done

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
