#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Installs the npm packages of the tests, each pinned by its package-lock.json, into a directory
# outside the repository, with `npm ci`. Run by .ci/run's setup, never by a test:
#   - the schema checks' (tests/schema/package.json) into NPM_DIR, where validate_openapi.sh
#     looks for them;
#   - the browser tests' (tests/browser/package.json: puppeteer-core, which drives Debian's
#     chromium and downloads no browser) into NPM_DIR/browser, where tests/browser/run.mjs
#     looks for them.
# Usage: tests/schema/install_npm_tools.sh [NPM_DIR]
#   NPM_DIR defaults to ${ESIGN_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/esign-npm}. A directory
#   that already holds its lock is left as it is.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="${1:-${ESIGN_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/esign-npm}}"

# install WHAT SOURCE_DIR TARGET_DIR
install() {
    local what=$1 source=$2 target=$3
    if [ -d "$target/node_modules" ] && cmp -s "$source/package-lock.json" "$target/package-lock.json"; then
        echo "npm tools ($what): up to date in $target"
        return
    fi
    mkdir -p "$target"
    cp "$source/package.json" "$source/package-lock.json" "$target/"
    # PUPPETEER_SKIP_DOWNLOAD: puppeteer-core downloads nothing, and no other package may either.
    PUPPETEER_SKIP_DOWNLOAD=1 npm ci --prefix "$target" --no-audit --no-fund --silent
    echo "npm tools ($what): installed in $target"
}

install schema "$here" "$dir"
install browser "$here/../browser" "$dir/browser"
