#!/usr/bin/env bash
# Installs failedbanks, mystash and fetchedtable from source under a prefix (default ~/.local),
# with the same files the Debian package has: PREFIX/bin, man pages in PREFIX/share/man/man1,
# completions (bash: PREFIX/share/bash-completion/completions, zsh: PREFIX/share/zsh/site-functions,
# fish: PREFIX/share/fish/vendor_completions.d), README and copyright in
# PREFIX/share/doc/fetchedtable-tools, the bundled FDIC list in PREFIX/share/fetchedtable-tools.
# Every file and folder it makes is written to PREFIX/share/fetchedtable-tools/install-manifest,
# and --uninstall removes exactly those (a folder only when it is empty).
#
#   bash scripts/install.sh [--prefix DIR] [--bin-dir DIR]   # --bin-dir: binaries already built
#   bash scripts/install.sh --uninstall [--prefix DIR]
#
# zsh reads PREFIX/share/zsh/site-functions once it is in $fpath (add
# `fpath=(~/.local/share/zsh/site-functions $fpath)` before compinit in ~/.zshrc).
set -euo pipefail
cd "$(dirname "$0")/.."
programs=(failedbanks mystash fetchedtable)
prefix="$HOME/.local"
bin_dir=""
uninstall=0
while [ $# -gt 0 ]; do
    case "$1" in
    --prefix) prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --bin-dir) bin_dir=$(cd "$2" && pwd); shift 2 ;;
    --uninstall) uninstall=1; shift ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (try --help)" >&2; exit 64 ;;
    esac
done
prefix=$(realpath -m -- "$prefix")
share=$prefix/share
manifest=$share/fetchedtable-tools/install-manifest

remove_installed() {
    # Files first, then the folders this install made, deepest first, each only when empty.
    local dirs entry dir
    dirs=$(mktemp)
    { grep '^d ' "$manifest" || true; } | sed 's/^d //' | sort -r >"$dirs"
    while IFS= read -r entry; do
        case "$entry" in
        f\ *) rm -f -- "${entry#f }" ;;
        esac
    done <"$manifest"
    rm -f -- "$manifest"
    while IFS= read -r dir; do
        rmdir -- "$dir" 2>/dev/null || true
    done <"$dirs"
    rm -f -- "$dirs"
}

if [ "$uninstall" = 1 ]; then
    if [ ! -f "$manifest" ]; then
        echo "install.sh: nothing installed under $prefix (no $manifest)" >&2
        exit 66
    fi
    remove_installed
    echo "removed fetchedtable-tools from $prefix"
    exit 0
fi

if [ -z "$bin_dir" ]; then
    bash scripts/build-release.sh
    bin_dir=$(bash scripts/build-release.sh --print-bin-path)
fi
for program in "${programs[@]}"; do
    [ -x "$bin_dir/$program" ] || { echo "install.sh: no $bin_dir/$program (build it first)" >&2; exit 66; }
done

# A second install replaces the first: what it installed goes, then the new files come.
if [ -f "$manifest" ]; then remove_installed; fi

entries=()
make_dir() {
    # Records each folder this install creates (not the ones that were there before).
    local dir=$1 missing=()
    while [ ! -d "$dir" ]; do
        missing+=("$dir")
        dir=$(dirname "$dir")
    done
    local index
    for ((index = ${#missing[@]} - 1; index >= 0; index--)); do
        mkdir -- "${missing[index]}"
        entries+=("d ${missing[index]}")
    done
}
put() {
    # put MODE DESTINATION < contents
    local mode=$1 destination=$2
    make_dir "$(dirname "$destination")"
    cat >"$destination"
    chmod "$mode" "$destination"
    entries+=("f $destination")
}

for program in "${programs[@]}"; do
    put 0755 "$prefix/bin/$program" <"$bin_dir/$program"
done
for program in "${programs[@]}"; do
    run=$prefix/bin/$program
    # Process substitution, not a pipe: put must run in this shell to record what it wrote.
    put 0644 "$share/man/man1/$program.1.gz" < <("$run" --generate man | gzip -9n)
    put 0644 "$share/bash-completion/completions/$program" < <("$run" --generate bash)
    put 0644 "$share/zsh/site-functions/_$program" < <("$run" --generate zsh)
    put 0644 "$share/fish/vendor_completions.d/$program.fish" < <("$run" --generate fish)
done
put 0644 "$share/doc/fetchedtable-tools/README.md" <README.md
put 0644 "$share/doc/fetchedtable-tools/copyright" <packaging/copyright
put 0644 "$share/fetchedtable-tools/banklist.csv" <Data/banklist.csv
make_dir "$(dirname "$manifest")"
entries+=("f $manifest")
printf '%s\n' "${entries[@]}" >"$manifest"
echo "installed fetchedtable-tools under $prefix (${#entries[@]} entries in $manifest)"
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) echo "note: $prefix/bin is not on PATH" ;;
esac
