#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# CTest client_example: esign-client-example against a reference server started here, on a
# free port. Passes when the example exits 0 and says that the envelope was sent.
#   run_against_server.sh SERVER EXAMPLE
set -euo pipefail
server=$1 example=$2
out=$(mktemp)
"$server" --listen 127.0.0.1:0 >"$out" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$out"' EXIT
url=""
for _ in $(seq 100); do
    url=$(sed -n 's/^listening on \(http[s]*:\/\/[^ ]*\).*/\1/p' "$out" | head -n 1)
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "$url" ] || { echo "the server did not say where it listens:"; cat "$out"; exit 1; }
answer=$("$example" "$url")
echo "$answer"
grep -q "sent" <<<"$answer"
