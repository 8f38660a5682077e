#!/usr/bin/env bash
# Validates the OpenAPI document printed by esign-schema with an independent validator from npm
# (@apidevtools/swagger-parser, installed into a cache directory, never into the repository).
# Usage: tests/schema/validate_openapi.sh ESIGN_SCHEMA_BINARY [NPM_DIR]
#   NPM_DIR defaults to ${ESIGN_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/esign-npm}.
# Validates the default document and the --strict one. Exits non-zero on any error.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tool="${1:?usage: validate_openapi.sh ESIGN_SCHEMA_BINARY [NPM_DIR]}"
dir="${2:-${ESIGN_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/esign-npm}}"
validator="@apidevtools/swagger-parser@10.1.1"

command -v node >/dev/null || { echo "validate_openapi: node is required" >&2; exit 1; }
command -v npm >/dev/null || { echo "validate_openapi: npm is required" >&2; exit 1; }

if [ ! -f "$dir/node_modules/@apidevtools/swagger-parser/package.json" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --silent "$validator" >&2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$tool" > "$work/openapi.json"
"$tool" --strict > "$work/openapi-strict.json"
node "$here/validate_openapi.mjs" "$dir" "$work/openapi.json"
node "$here/validate_openapi.mjs" "$dir" "$work/openapi-strict.json" strict
