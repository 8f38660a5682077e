#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Runs every built libFuzzer harness for a while on a copy of its seed corpus.
#
#   fuzz/run.sh BUILD_DIR SECONDS
#
# For each executable esign_fuzz_<name> found under BUILD_DIR (the replay programs
# esign_fuzz_replay_* are skipped), copies fuzz/corpus/<name>/ to a temporary directory
# (so the checked-in corpus stays small), then runs the harness for SECONDS with
# fuzz/<name>.dict when there is one. Builds nothing. A harness that finds a crash, a leak,
# a timeout or an out-of-memory exits non-zero; this script then reports it, keeps the
# artifact under BUILD_DIR/fuzz-artifacts/<name>/ and exits non-zero after running all.
# <name> may also carry a "fuzz_" prefix (esign_fuzz_fuzz_decode → corpus fuzz/corpus/decode).
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD_DIR SECONDS" >&2
    exit 2
fi
build_dir=$1
seconds=$2
here=$(cd "$(dirname "$0")" && pwd)

mapfile -t harnesses < <(find "$build_dir" -type f -perm -u+x -name 'esign_fuzz_*' ! -name 'esign_fuzz_replay_*' | sort)
if [ ${#harnesses[@]} -eq 0 ]; then
    echo "run.sh: no esign_fuzz_* executable under $build_dir (configure with the clang-fuzz preset)" >&2
    exit 2
fi

failed=0
for exe in "${harnesses[@]}"; do
    target=$(basename "$exe")
    name=${target#esign_fuzz_}
    name=${name#fuzz_}
    work=$(mktemp -d)
    mkdir -p "$work/corpus"
    if [ -d "$here/corpus/$name" ]; then cp -r "$here/corpus/$name/." "$work/corpus/"; fi
    artifacts="$build_dir/fuzz-artifacts/$name"
    mkdir -p "$artifacts"
    args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1
          -artifact_prefix="$artifacts/")
    if [ -f "$here/$name.dict" ]; then args+=(-dict="$here/$name.dict"); fi
    echo "=== $target: ${seconds}s on $(ls "$work/corpus" | wc -l) seed(s)"
    if "$exe" "${args[@]}" "$work/corpus" >"$work/log" 2>&1; then
        grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$work/log" | sed 's/^/    /'
    else
        status=$?
        failed=1
        echo "!!! $target failed (exit $status); last lines of its log:"
        tail -n 60 "$work/log"
        echo "!!! artifacts in $artifacts:"
        ls -l "$artifacts"
    fi
    rm -rf "$work"
done
exit $failed
