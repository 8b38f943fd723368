#!/usr/bin/env bash
# scripts/bench_consume.sh - consuming live, measured (issue 33 item 7): trace::consume's EVENT_RECORD
# path against a hand-written EVENT_RECORD callback on the same records (benchmarks/bench_consume.cpp).
#
#   scripts/bench_consume.sh [BUILD_DIR]   (default build/bench-g++, configured like scripts/bench.sh's)
#
# Builds etwctl_bench_consume at -O2 -DNDEBUG, then prints
#   time          Google Benchmark, niced, BENCH_REPETITIONS (default 5) repetitions, the medians
#   instructions  callgrind on `etwctl_bench_consume --ir CASE INPUT` (one counted run after an uncounted
#                 one): instructions per record, deterministic; and the ratios: consume / held (the goal,
#                 <= 1.1: held delivers what consume delivers, each event complete with its stack, in
#                 arrival order), consume / paired (the same checksum, nothing held), and where consume's
#                 instructions go: held / paired (holding), held_typed / held (etwctl's records and typed
#                 dispatch in a hand-written engine), consume / held_typed (consume's own engine)
# Nothing here is a timed test: a goal NOT MET changes no exit status.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build/bench-g++}
reps=${BENCH_REPETITIONS:-5}
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DETWCTL_BUILD_BENCHMARKS=ON -DETWCTL_BUILD_TESTS=OFF -DETWCTL_BUILD_EXAMPLES=OFF -DETWCTL_BUILD_TOOL=OFF >/dev/null
cmake --build "$dir" -j "${BENCH_JOBS:-2}" --target etwctl_bench_consume >/dev/null
bin="$dir/benchmarks/etwctl_bench_consume"
echo "## time (median of $reps)"
nice -n 10 "$bin" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_counters_tabular=true --benchmark_min_time="${BENCH_CONSUME_MIN_TIME:-0.5}" 2>/dev/null | grep -E "Benchmark|median"
command -v valgrind >/dev/null || { echo "valgrind not found: no instruction counts"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "## instructions per record (callgrind)"
for input in real generated; do
    declare -A ir=()
    for c in raw paired held held_typed consume; do
        records=$(valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$work/cg.$c.$input" \
                  "$bin" --ir "$c" "$input" 2>"$work/err" | sed -n 's/^records \([0-9]*\).*/\1/p')
        total=$(sed -n 's/^==[0-9]*== I *refs: *//p' "$work/err" | tr -d ,)
        ir[$c]=$(python3 -c "print(f'{$total / $records:.1f}')")
        echo "$c/$input: ${ir[$c]}"
    done
    python3 -c "
c, t, h, p, r = ${ir[consume]}, ${ir[held_typed]}, ${ir[held]}, ${ir[paired]}, ${ir[raw]}
print(f'consume / held on $input: {c / h:.2f}x (goal <= 1.1, the same delivery: {\"MET\" if c / h <= 1.1 else \"NOT MET\"})')
print(f'consume / paired on $input: {c / p:.2f}x (the same checksum, nothing held)')
print(f'  held / paired {h / p:.2f}x (holding by hand), held_typed / held {t / h:.2f}x (etwctl events by hand), consume / held_typed {c / t:.2f}x (consume engine)')
print(f'consume / raw on $input: {c / r:.2f}x (raw pairs no stack: not the same work)')"
done
