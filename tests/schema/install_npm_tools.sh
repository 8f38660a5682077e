#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Installs the npm packages of the schema checks (package.json, pinned by package-lock.json) into a
# directory outside the repository, with `npm ci`. Run by .ci/run's setup, never by a test.
# Usage: tests/schema/install_npm_tools.sh [NPM_DIR]
#   NPM_DIR defaults to ${ESIGN_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/esign-npm}, where
#   validate_openapi.sh looks for them. Does nothing when that directory already holds this lock.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="${1:-${ESIGN_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/esign-npm}}"

if [ -d "$dir/node_modules" ] && cmp -s "$here/package-lock.json" "$dir/package-lock.json"; then
    echo "npm tools: up to date in $dir"
    exit 0
fi
mkdir -p "$dir"
cp "$here/package.json" "$here/package-lock.json" "$dir/"
npm ci --prefix "$dir" --no-audit --no-fund --silent
echo "npm tools: installed in $dir"
