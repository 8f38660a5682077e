#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Runs every built libFuzzer harness on its whole seed corpus, then for a while on new inputs.
#
#   fuzz/run.sh BUILD_DIR SECONDS
#
# For each executable esign_fuzz_<name> found under BUILD_DIR (the replay programs
# esign_fuzz_replay_* are skipped):
#   1. runs every file of fuzz/corpus/<name>/ once, whole (files given to libFuzzer one by one
#      are not cut to -max_len: a 200 KB seed runs as 200 KB);
#   2. copies the corpus to a temporary directory (so the checked-in corpus stays small) and
#      fuzzes for SECONDS with fuzz/<name>.dict when there is one, with -max_len set to what the
#      harness reads: the `esign_fuzz_max_len = N` of its source (inputs longer than that it
#      refuses), 4096 where it declares none.
# ESIGN_FUZZ_JOBS harnesses at a time (default: one per core). Builds nothing. A harness that finds a crash, a leak,
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

# One harness: its report on stdout, exit status non-zero when it found something.
run_one() {
    local exe=$1 target name work artifacts
    target=$(basename "$exe")
    name=${target#esign_fuzz_}
    name=${name#fuzz_}
    work=$(mktemp -d)
    mkdir -p "$work/corpus"
    if [ -d "$here/corpus/$name" ]; then cp -r "$here/corpus/$name/." "$work/corpus/"; fi
    artifacts="$build_dir/fuzz-artifacts/$name"
    mkdir -p "$artifacts"
    local max_len=4096 declared
    declared=$(sed -n 's/.*esign_fuzz_max_len = \([0-9][0-9]*\).*/\1/p' "$here/fuzz_$name.cpp" 2>/dev/null | head -n 1)
    if [ -n "$declared" ]; then max_len=$declared; fi
    local status=0
    local seeds=()
    mapfile -t seeds < <(find "$work/corpus" -type f | sort)
    if [ ${#seeds[@]} -gt 0 ]; then
        echo "=== $target: every seed whole (${#seeds[@]} files, the largest $(wc -c <"$(ls -S "${seeds[@]}" | head -n 1)") bytes)"
        if ! "$exe" -timeout=60 -rss_limit_mb=2048 -artifact_prefix="$artifacts/" "${seeds[@]}" >"$work/seeds.log" 2>&1; then
            status=1
            echo "!!! $target failed on a seed; last lines of its log:"
            tail -n 60 "$work/seeds.log"
            rm -rf "$work"
            return $status
        fi
        local ran
        ran=$(grep -c '^Running: ' "$work/seeds.log" || true)
        if [ "$ran" -ne ${#seeds[@]} ]; then
            echo "!!! $target ran $ran of ${#seeds[@]} seeds"
            rm -rf "$work"
            return 1
        fi
        echo "    ran $ran seeds whole"
    fi
    local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1
                -artifact_prefix="$artifacts/")
    if [ -f "$here/$name.dict" ]; then args+=(-dict="$here/$name.dict"); fi
    echo "=== $target: ${seconds}s on $(ls "$work/corpus" | wc -l) seed(s), inputs up to $max_len bytes"
    if "$exe" "${args[@]}" "$work/corpus" >"$work/log" 2>&1; then
        grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$work/log" | sed 's/^/    /'
    else
        status=$?
        echo "!!! $target failed (exit $status); last lines of its log:"
        tail -n 60 "$work/log"
        echo "!!! artifacts in $artifacts:"
        ls -l "$artifacts"
    fi
    rm -rf "$work"
    return $status
}

# ESIGN_FUZZ_JOBS harnesses at a time (default: one per core); each report is printed whole
# when its harness ends.
jobs=${ESIGN_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
reports=$(mktemp -d)
failed=0
i=0
for exe in "${harnesses[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    ( run_one "$exe" >"$reports/$i.log" 2>&1; echo $? >"$reports/$i.status" ) &
    i=$((i + 1))
done
wait
for ((k = 0; k < i; ++k)); do
    cat "$reports/$k.log"
    if [ "$(cat "$reports/$k.status" 2>/dev/null || echo 1)" != 0 ]; then failed=1; fi
done
rm -rf "$reports"
exit $failed
