#!/usr/bin/env bash
# Builds the DocC archives of the library modules with the toolchain's own
# `docc` (no package plugin): swift-symbolgraph-extract reads symbol graphs
# from the debug build's modules, `docc convert`
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
# Extracted from the debug build's modules (`swift build`: the one the tests use, so no second
# build of the library with other flags) by the toolchain's swift-symbolgraph-extract, with what
# the compiler's -emit-symbol-graph wrote: no inherited comments, and the symbols of the modules
# a module re-exports (`@_exported import`), so its catalog can link them.
swift build > "$out/debug-build.log" 2>&1 || { tail -30 "$out/debug-build.log"; echo "docs: swift build failed"; exit 1; }
bin=$(swift build --show-bin-path)
triple=$(basename "$(dirname "$bin")")
graphs=$out/symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs"
c_modules=()
for map in Sources/*/module.modulemap; do
    c_modules+=(-Xcc "-fmodule-map-file=$PWD/$map" -I "$PWD/$(dirname "$map")")
done
# C targets (CICU): the module maps SwiftPM made for them in the build.
for map in "$bin"/*.build/module.modulemap; do
    [ -f "$map" ] && c_modules+=(-Xcc "-fmodule-map-file=$map")
done
for m in "${modules[@]}"; do
    reexported=$({ grep -rhoE '^@_exported import [A-Za-z_]+' "Sources/$m" || true; } | awk '{print $3}' | sort -u | paste -sd, -)
    swift-symbolgraph-extract -module-name "$m" -target "$triple" -I "$bin/Modules" -module-cache-path "$bin/ModuleCache" \
        "${c_modules[@]}" -minimum-access-level public -skip-inherited-docs \
        ${reexported:+"-experimental-allowed-reexported-modules=$reexported"} -output-dir "$graphs" \
        > "$out/$m-graph.log" 2>&1 || { tail -20 "$out/$m-graph.log"; echo "docs: extracting $m's symbol graph failed"; exit 1; }
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
