#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# esign-schema's command line as its --help (and man page) states it: --help exit 0 on stdout,
# a bad command line exit 2 with the text on stderr, an unknown PATH or NAME exit 1, and one
# JSON document on stdout for no argument, a PATH (with and without --response) and each kind
# of NAME.
#   bash tests/schema/command_line.sh ESIGN_SCHEMA_BINARY
set -uo pipefail
[[ $# -eq 1 ]] || { echo "usage: command_line.sh ESIGN_SCHEMA_BINARY" >&2; exit 2; }
schema=$1
failures=0
fail() { echo "FAILED: $*" >&2; failures=$((failures + 1)); }

# expect STATUS STDOUT_PATTERN STDERR_PATTERN ARGS...: the exit status, and a line of each stream
# matching its pattern ('' for an empty stream).
expect() {
    local status=$1 out_pattern=$2 err_pattern=$3
    shift 3
    local out err rc
    out=$("$schema" "$@" 2>/tmp/esign-schema-err.$$)
    rc=$?
    err=$(cat /tmp/esign-schema-err.$$)
    rm -f /tmp/esign-schema-err.$$
    [[ $rc -eq $status ]] || fail "esign-schema $*: exit status $rc, not $status"
    if [[ -z $out_pattern ]]; then [[ -z $out ]] || fail "esign-schema $*: wrote on stdout: ${out:0:80}"
    else grep -qE -- "$out_pattern" <<<"$out" || fail "esign-schema $*: stdout has no line matching $out_pattern"; fi
    if [[ -z $err_pattern ]]; then [[ -z $err ]] || fail "esign-schema $*: wrote on stderr: ${err:0:80}"
    else grep -qE -- "$err_pattern" <<<"$err" || fail "esign-schema $*: stderr has no line matching $err_pattern"; fi
}

expect 0 '^usage: esign-schema ' '' --help
expect 0 '^usage: esign-schema ' '' -h
expect 0 '^options:$' '' --help
expect 2 '' '^usage: esign-schema ' --no-such-option
expect 2 '' '^usage: esign-schema ' /public/envelope/get EnvelopeGetRequest
expect 1 '' 'unknown operation path or type: NoSuchType' NoSuchType
expect 1 '' 'unknown operation path or type: /public/nope' /public/nope
expect 0 '^\{"openapi":"3\.1' ''
expect 0 '^\{' '' /public/envelope/get
expect 0 '^\{' '' --response --strict /public/envelope/get
expect 0 '^\{' '' EnvelopeGetRequest
expect 0 '^\{' '' EnvelopeGetResponse
expect 0 '^\{' '' ErrorBody
expect 0 '^  "' '' --pretty ErrorBody
# --response changes the document: the response of envelope/get is not its request.
# (The right side quoted: unquoted, [[ ]] reads it as a pattern.)
[[ $("$schema" /public/envelope/get) != "$("$schema" --response /public/envelope/get)" ]] ||
    fail "--response gave the request's schema"
[[ $("$schema" --response /public/envelope/get) == "$("$schema" EnvelopeGetResponse)" ]] ||
    fail "--response PATH and the response's NAME differ"
[[ $("$schema" /public/envelope/get) != "$("$schema" --strict /public/envelope/get)" ]] ||
    fail "--strict changed nothing"

if ((failures)); then echo "command_line.sh: $failures failed" >&2; exit 1; fi
echo "command_line.sh: passed"
