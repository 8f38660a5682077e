#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Validates the OpenAPI document printed by esign-schema with an independent validator from npm
# (@apidevtools/swagger-parser) and judges the request examples of the C++ tests with Ajv against
# its schemas. The packages (package.json, pinned by package-lock.json) are installed beforehand
# by install_npm_tools.sh into a directory outside the repository; this script installs nothing.
# Usage: tests/schema/validate_openapi.sh ESIGN_SCHEMA_BINARY ESIGN_TESTS_BINARY [NPM_DIR]
#   ESIGN_TESTS_BINARY: the Catch2 unit tests, which export the examples ("[export-examples]").
#   NPM_DIR defaults to ${ESIGN_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/esign-npm}.
# Validates the default document and the --strict one. Exits non-zero on any error.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage="usage: validate_openapi.sh ESIGN_SCHEMA_BINARY ESIGN_TESTS_BINARY [NPM_DIR]"
tool="${1:?$usage}"
tests="${2:?$usage}"
dir="${3:-${ESIGN_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/esign-npm}}"

command -v node >/dev/null || { echo "validate_openapi: node is required" >&2; exit 1; }
command -v npm >/dev/null || { echo "validate_openapi: npm is required" >&2; exit 1; }

if [ ! -d "$dir/node_modules" ] || ! cmp -s "$here/package-lock.json" "$dir/package-lock.json"; then
    echo "validate_openapi: the npm packages of package-lock.json are not in $dir;" \
         "run tests/schema/install_npm_tools.sh first" >&2
    exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$tool" > "$work/openapi.json"
"$tool" --strict > "$work/openapi-strict.json"
ESIGN_EXAMPLES_JSON="$work/examples.json" "$tests" "[export-examples]" > "$work/export.log" 2>&1 ||
    { cat "$work/export.log" >&2; echo "validate_openapi: exporting the examples failed" >&2; exit 1; }
node "$here/validate_openapi.mjs" "$dir" "$work/openapi.json" "$work/examples.json"
node "$here/validate_openapi.mjs" "$dir" "$work/openapi-strict.json" "$work/examples.json" strict
