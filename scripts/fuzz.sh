#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Fuzz/Harnesses (with AddressSanitizer) and
# runs each for SECONDS (default 60) on its corpus in Fuzz/Corpus, which grows.
#   bash scripts/fuzz.sh            # CI: 60 s each
#   bash scripts/fuzz.sh 600        # the long form: 10 minutes each
#   bash scripts/fuzz.sh 60 csv     # one harness: csv, date, predicate or cache
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
only=${2:-}
out=.build/fuzz
mkdir -p "$out"
# The C module maps the modules import, and the built modules themselves.
includes=(-I Sources/CSQLite -I Sources/CScheduling -I "$out")
flags=(-parse-as-library -O -g -enable-testing -package-name fetchedresults -sanitize=fuzzer,address "${includes[@]}")

module() { # name, source folder
    local name=$1 folder=$2
    rm -f "$out/lib$name.a"   # an archive is appended to, never replaced: start afresh
    swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
        -emit-library -static -o "$out/lib$name.a" $(find "$folder" -name '*.swift' | sort)
}

harness() { # name, file, libraries...
    local name=$1 file=$2; shift 2
    local libs=()
    for lib in "$@"; do libs+=("$out/lib$lib.a"); done
    rm -f "$out/fuzz-$name"
    if ! swiftc -parse-as-library -O -g -package-name fetchedresults -sanitize=fuzzer,address "${includes[@]}" \
        "$file" "${libs[@]}" -lsqlite3 -o "$out/fuzz-$name" > "$out/link-$name.log" 2>&1; then
        grep -v "Cannot export local symbol" "$out/link-$name.log" | tail -20
        echo "fuzz-$name: build failed"; exit 1
    fi
}

wants() { [ -z "$only" ] || [ "$only" = "$1" ]; }
echo "building fuzz harnesses…"
module Timekeeping Sources/Timekeeping          # below SQLiteStore, CSVImport and TerminalUI
if wants csv || wants date; then
    module CSVImport Sources/CSVImport
    wants csv && harness csv Fuzz/Harnesses/CSVReaderFuzzer.swift CSVImport Timekeeping
    wants date && harness date Fuzz/Harnesses/DateParserFuzzer.swift CSVImport Timekeeping
fi
if wants predicate || wants cache; then
    module SQLiteStore Sources/SQLiteStore
    module TableIndexPath Sources/TableIndexPath
    module BaseDirectories Sources/BaseDirectories   # the results cache's folder
    module FetchedResults Sources/FetchedResults
    wants predicate && harness predicate Fuzz/Harnesses/PredicateParserFuzzer.swift FetchedResults BaseDirectories TableIndexPath SQLiteStore Timekeeping
    wants cache && harness cache Fuzz/Harnesses/ResultsCacheFuzzer.swift FetchedResults BaseDirectories TableIndexPath SQLiteStore Timekeeping
fi

# One fuzzer is one thread: FUZZ_JOBS of them (default: one per core) run at once, each for the
# full SECONDS, so the four take SECONDS × 2 on two cores instead of SECONDS × 4.
fuzz() { # name: runs that harness on its corpus, prints its report, fails when it found a crash
    local name=$1 corpus=Fuzz/Corpus/$1
    mkdir -p "$corpus" "$out/artifacts-$name"
    echo "fuzzing $name for $seconds s…"
    if ! "$out/fuzz-$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -artifact_prefix="$out/artifacts-$name/" -print_final_stats=1 "$corpus" 2> "$out/fuzz-$name.log"; then
        echo "fuzz-$name FAILED; crash input in $out/artifacts-$name/"; tail -40 "$out/fuzz-$name.log"; return 1
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$out/fuzz-$name.log" | sed "s/^/  $name: /" || true
}

jobs=${FUZZ_JOBS:-$(nproc)}
names=()
for name in csv date predicate cache; do wants "$name" && names+=("$name"); done
status=0
for ((first = 0; first < ${#names[@]}; first += jobs)); do
    batch=("${names[@]:first:jobs}")
    pids=()
    for name in "${batch[@]}"; do
        fuzz "$name" > "$out/report-$name" 2>&1 &
        pids+=($!)
    done
    for index in "${!batch[@]}"; do
        wait "${pids[$index]}" || status=1
        cat "$out/report-${batch[$index]}"
    done
done
exit $status
