#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Runs every built libFuzzer harness for a while on a copy of its seed corpus.
#
#   fuzz/run.sh BUILD_DIR SECONDS
#
# For each executable esign_fuzz_<name> found under BUILD_DIR (the replay programs
# esign_fuzz_replay_* are skipped), copies fuzz/corpus/<name>/ to a temporary directory
# (so the checked-in corpus stays small), then runs the harness for SECONDS with
# fuzz/<name>.dict when there is one, ESIGN_FUZZ_JOBS harnesses at a time (default: one per
# core). Builds nothing. A harness that finds a crash, a leak,
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
    local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1
                -artifact_prefix="$artifacts/")
    if [ -f "$here/$name.dict" ]; then args+=(-dict="$here/$name.dict"); fi
    echo "=== $target: ${seconds}s on $(ls "$work/corpus" | wc -l) seed(s)"
    local status=0
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
