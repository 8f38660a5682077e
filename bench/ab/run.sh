#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Decoding as two trees of esign build it, in one program (ab_decode.cpp), e.g. main before a
# change and the working tree after:
#   git worktree add --detach /tmp/esign-old main
#   bash bench/ab/run.sh /tmp/esign-old . --benchmark_repetitions=5
# Arguments after the two trees go to Google Benchmark; random interleaving and medians only are
# the default. Builds with g++ -O3 (the bench preset's Release flags) into build/ab/.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
old=$(cd "$1" && pwd)
new=$(cd "$2" && pwd)
shift 2
out=$here/../../build/ab
mkdir -p "$out"
cxx=(g++ -std=c++20 -O3 -DNDEBUG -Wall -Wextra -Wpedantic)
has_read_into() { grep -q 'read_into' "$1/include/esign/json/decode.hpp" && echo 1 || echo 0; }
"${cxx[@]}" -I"$old/include" -Design=esign_ab_old -DESIGN_AB_NAMESPACE=esign_ab_old \
    -DESIGN_AB_HAS_READ_INTO="$(has_read_into "$old")" -c "$here/variant.cpp" -o "$out/old.o" &
"${cxx[@]}" -I"$new/include" -Design=esign_ab_new -DESIGN_AB_NAMESPACE=esign_ab_new \
    -DESIGN_AB_HAS_READ_INTO="$(has_read_into "$new")" -c "$here/variant.cpp" -o "$out/new.o" &
"${cxx[@]}" -c "$here/ab_decode.cpp" -o "$out/ab_decode.o" &
wait %1 && wait %2 && wait %3
"${cxx[@]}" "$out/ab_decode.o" "$out/old.o" "$out/new.o" -o "$out/esign_ab_decode" \
    -lbenchmark -lboost_json -lfmt -pthread
"$out/esign_ab_decode" --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true \
    --benchmark_repetitions=5 "$@"
