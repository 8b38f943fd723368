#!/usr/bin/env bash
# scripts/bench.sh - etwctl's performance table: every figure from this one run.
#
#   scripts/bench.sh [-o FILE] [-d]     (default FILE: build/bench-results.md; also printed)
#     -d  also puts the report into docs/performance.md, between its "bench:begin" and "bench:end"
#         markers (the text around them, the method and the notes, is kept)
#
# For each compiler (BENCH_COMPILERS, default "g++ clang++") it builds benchmarks/ at -O2 -DNDEBUG in
# ${BENCH_BUILD_PREFIX}<compiler> (default build/bench-<compiler>), then measures
#   instructions  callgrind on etwctl_bench_ir: instructions per call (per event for the 256-event rows),
#                 minus the empty case; deterministic
#   time          Google Benchmark on etwctl_bench (the same functions): median of BENCH_REPETITIONS, minus
#                 the empty case; a figure under the timer's resolution is shown as such, never negative
#   code          bytes of each measured function plus everything it calls (except the kernel double),
#                 from the linked benchmark program; and the linked .text of two minimal programs, one
#                 typed set<stack_tracing> call and the same request by hand (benchmarks/size_programs.cpp)
#   include       benchmarks/include_weight.sh: every public header against the standard + GSL headers it
#                 needs, -fsyntax-only and -c, best of BENCH_COMPILE_RUNS (the umbrella: of BENCH_UMBRELLA_RUNS,
#                 default 11, and its compiler instructions too unless BENCH_UMBRELLA_IR=0)
#   codegen       benchmarks/check_codegen.sh (no loop, no call where there must be none) and the
#                 disassembly of the run-time encoding loops
# and prints ONE table (benchmarks/bench_report.py) with each ratio and its goal. A ratio above its
# goal prints "REGRESSION: ..." after the table (instructions, bytes and include weight only: ns are
# too noisy on a shared machine to judge); the exit status stays 0 unless BENCH_STRICT=1.
# Nothing here is a timed test. Runs niced; BENCH_JOBS (default 2).
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/bench-results.md"
doc=0
while [ $# -gt 0 ]; do
    case $1 in
    -o) out=$2; shift 2 ;;
    -d) doc=1; shift ;;
    *) echo "usage: $0 [-o FILE] [-d]" >&2; exit 2 ;;
    esac
done
compilers=${BENCH_COMPILERS:-"g++ clang++"}
jobs=${BENCH_JOBS:-2}
reps=${BENCH_REPETITIONS:-5}
iterations=${BENCH_ITERATIONS:-1000}
compile_runs=${BENCH_COMPILE_RUNS:-5}
prefix=${BENCH_BUILD_PREFIX:-build/bench-}
run() { nice -n 10 "$@"; }

for tool in cmake ninja valgrind objdump nm size python3; do
    command -v "$tool" >/dev/null || { echo "bench.sh: $tool is required" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$out")"
version_of() { "$1" --version 2>/dev/null | head -1; }

meta="$work/meta.tsv" # key \t value
{
    printf 'cpu\t%s\n' "$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)"
    printf 'cores\t%s\n' "$(nproc)"
    printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
    printf 'commit\t%s%s\n' "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')" \
        "$(git -C "$root" diff --quiet HEAD -- include benchmarks 2>/dev/null || echo ' + uncommitted changes')"
    printf 'iterations\t%s\n' "$iterations"
    printf 'reps\t%s\n' "$reps"
    printf 'compile_runs\t%s\n' "$compile_runs"
} >"$meta"

results="$work/results.tsv" # compiler \t case \t instructions \t ns   (empty case subtracted)
sizes="$work/sizes.tsv"     # compiler \t what \t bytes
codegen="$work/codegen.txt"
loops="$work/loops.txt"
compiler_names=()
: >"$results" >"$sizes" >"$codegen" >"$loops"
for cxx in $compilers; do
    command -v "$cxx" >/dev/null || { echo "bench.sh: $cxx not found; skipped" >&2; continue; }
    name=$(version_of "$cxx")
    compiler_names+=("$cxx")
    printf 'compiler\t%s\t%s\n' "$cxx" "$name" >>"$meta"
    tag=$(basename "$cxx" | tr -c 'a-zA-Z0-9\n' '-')
    dir="$root/$prefix$tag"
    echo "== $cxx: building in $prefix$tag" >&2
    run cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DETWCTL_BUILD_BENCHMARKS=ON -DETWCTL_BUILD_TESTS=OFF \
        -DETWCTL_BUILD_EXAMPLES=OFF -DETWCTL_INSTALL=OFF >/dev/null
    run cmake --build "$dir" -j "$jobs" --target etwctl_bench etwctl_bench_ir etwctl_size_typed etwctl_size_raw >/dev/null
    bin="$dir/benchmarks"

    echo "== $cxx: code checks" >&2
    { echo "$name:"; sh "$root/benchmarks/check_codegen.sh" "$bin/etwctl_bench_ir" | sed 's/^/    /'; } >>"$codegen" || true
    objdump -d -C --no-show-raw-insn "$bin/etwctl_bench_ir" >"$work/dis.txt"
    nm -C -S --defined-only "$bin/etwctl_bench_ir" >"$work/nm.txt"
    python3 "$root/benchmarks/bench_report.py" sizes "$cxx" "$work/dis.txt" "$work/nm.txt" "$loops" >>"$sizes"
    for prog in typed raw; do
        printf '%s\tprogram/%s\t%s\n' "$cxx" "$prog" \
            "$(size -A "$bin/etwctl_size_$prog" | awk '$1 == ".text" { print $2 }')" >>"$sizes"
    done

    echo "== $cxx: callgrind" >&2
    rm -rf "$work/cg" && mkdir "$work/cg"
    run valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$work/cg/out" \
        "$bin/etwctl_bench_ir" "$iterations" >/dev/null 2>"$work/cg/log"
    for f in "$work"/cg/out.*; do
        awk '/^desc: Trigger: Client Request: /{sub(/^desc: Trigger: Client Request: /, ""); name = $0}
             /^(summary|totals):/{ir = $2} END {print name "\t" ir}' "$f"
    done | sort -u >"$work/ir.tsv"

    echo "== $cxx: Google Benchmark ($reps repetitions)" >&2
    run "$bin/etwctl_bench" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
        --benchmark_min_time=0.1 --benchmark_format=csv 2>/dev/null >"$work/gb.csv"
    python3 "$root/benchmarks/bench_report.py" results "$cxx" "$iterations" "$work/ir.tsv" "$work/gb.csv" >>"$results"
done

echo "== include weight (best of $compile_runs; takes a while)" >&2
inc_compilers=()
for cxx in "${compiler_names[@]}"; do inc_compilers+=("$cxx"); done
BENCH_UMBRELLA_IR=${BENCH_UMBRELLA_IR:-1} bash "$root/benchmarks/include_weight.sh" "$root" "$work/inc" "$compile_runs" "${inc_compilers[@]}" >"$work/include.tsv"

python3 "$root/benchmarks/bench_report.py" report "$meta" "$results" "$sizes" "$work/include.tsv" "$codegen" \
    "$loops" >"$out"
cat "$out"
echo "bench.sh: written to $out" >&2
if [ "$doc" = 1 ]; then
    python3 - "$root/docs/performance.md" "$out" <<'EOF'
import sys
doc, report = sys.argv[1], open(sys.argv[2]).read().rstrip("\n")
text = open(doc).read()
begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
if begin not in text or end not in text:
    sys.exit("bench.sh: docs/performance.md has no bench:begin / bench:end markers")
head, rest = text.split(begin, 1)
tail = rest.split(end, 1)[1]
open(doc, "w").write(head + begin + "\n" + report + "\n" + end + tail)
EOF
    echo "bench.sh: docs/performance.md updated" >&2
fi
if [ "${BENCH_STRICT:-0}" = 1 ] && grep -q '^REGRESSION' "$out"; then exit 3; fi
