#!/usr/bin/env bash
# Installs the system libraries and tools the project needs on Debian
# (the Swift toolchain itself is assumed). Safe to run again.
set -euo pipefail
packages=(libsqlite3-dev libncurses-dev libsodium-dev libssl-dev libzxcvbn-dev zlib1g-dev sqlite3 tmux postgresql libpq-dev libicu-dev
    libcurl4-openssl-dev dpkg-dev lintian man-db zsh fish)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq "${missing[@]}"
fi
