#!/usr/bin/env bash
# scripts/bench_trace.sh - reading traces, measured (issue 32 item 6): every figure from this one run.
#
#   scripts/bench_trace.sh [-o FILE] [-d]   (default FILE: build/bench-trace-results.md; also printed)
#     -d  also puts the report into docs/performance.md, between its "bench-trace:begin" and
#         "bench-trace:end" markers (the text around them is kept)
#
# For each compiler (BENCH_COMPILERS, default "g++ clang++") it builds etwctl_bench_trace
# (benchmarks/bench_trace.cpp) at -O2 -DNDEBUG in ${BENCH_BUILD_PREFIX}<compiler> (default
# build/bench-<compiler>, the directories scripts/bench.sh uses, configured the same way), then
#   time          Google Benchmark, niced, BENCH_REPETITIONS (default 5) repetitions of every case on
#                 every input (the real trace, a generated 212 MiB uncompressed trace, a generated one of
#                 48 MiB of compressed buffers), the repetitions of all cases interleaved in a random
#                 order (a busy spell of the shared machine spreads over the cases instead of falling on
#                 one); the median of the repetitions, and their spread
#   instructions  callgrind on `etwctl_bench_trace --ir CASE INPUT` (one counted run after an uncounted
#                 one): instructions per event, deterministic, on the real trace and on a 16 MiB generated
#                 trace (BENCH_TRACE_IR="case/input ...", default below; BENCH_TRACE_IR=none skips it)
# and prints the tables (rates, ratios in one run, each goal with MET / NOT MET). Nothing here is a timed
# test: a goal NOT MET changes no exit status.
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/bench-trace-results.md"
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
min_time=${BENCH_TRACE_MIN_TIME:-0.5}
prefix=${BENCH_BUILD_PREFIX:-build/bench-}
ir_cases=${BENCH_TRACE_IR:-"touch/real decompress/real hand_walk/real walk/real dispatch_records/real stream/real dispatch/real hand_walk/small walk/small dispatch_records/small stream/small dispatch/small"}
run() { nice -n 10 "$@"; }

for tool in cmake ninja python3; do
    command -v "$tool" >/dev/null || { echo "bench_trace.sh: $tool is required" >&2; exit 1; }
done
if [ "$ir_cases" != none ] && ! command -v valgrind >/dev/null; then
    echo "bench_trace.sh: valgrind not found: no instruction counts" >&2
    ir_cases=none
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$out")"

meta="$work/meta.tsv" # key \t value
{
    printf 'cpu\t%s\n' "$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)"
    printf 'cores\t%s\n' "$(nproc)"
    printf 'load\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
    printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
    printf 'commit\t%s%s\n' "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')" \
        "$(git -C "$root" diff --quiet HEAD -- include benchmarks 2>/dev/null || echo ' + uncommitted changes')"
    printf 'reps\t%s\n' "$reps"
    printf 'min_time\t%s\n' "$min_time"
} >"$meta"

for cxx in $compilers; do
    command -v "$cxx" >/dev/null || { echo "bench_trace.sh: $cxx not found; skipped" >&2; continue; }
    tag=$(basename "$cxx" | tr -c 'a-zA-Z0-9\n' '-')
    printf 'compiler\t%s\t%s\t%s\n' "$tag" "$cxx" "$("$cxx" --version 2>/dev/null | head -1)" >>"$meta"
    dir="$root/$prefix$tag"
    echo "== $cxx: building etwctl_bench_trace in $prefix$tag" >&2
    run cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DETWCTL_BUILD_BENCHMARKS=ON -DETWCTL_BUILD_TESTS=OFF \
        -DETWCTL_BUILD_EXAMPLES=OFF -DETWCTL_INSTALL=OFF >/dev/null
    run cmake --build "$dir" -j "$jobs" --target etwctl_bench_trace >/dev/null
    bin="$dir/benchmarks/etwctl_bench_trace"

    echo "== $cxx: Google Benchmark ($reps repetitions; generates 260 MiB of traces first)" >&2
    run "$bin" --benchmark_repetitions="$reps" --benchmark_min_time="$min_time" --benchmark_enable_random_interleaving=true \
        --benchmark_out="$work/gb.$tag.json" --benchmark_out_format=json >/dev/null 2>"$work/gb.$tag.log" ||
        { cat "$work/gb.$tag.log" >&2; exit 1; }

    : >"$work/ir.$tag.tsv" # case/input \t instructions \t records
    if [ "$ir_cases" != none ]; then
        for ci in $ir_cases; do
            echo "== $cxx: callgrind $ci" >&2
            f="$work/cg.$tag.${ci/\//.}"
            line=$(run valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$f" \
                "$bin" --ir "${ci%%/*}" "${ci#*/}" 2>/dev/null)
            records=$(awk '{ for (i = 1; i < NF; ++i) if ($i == "records") print $(i + 1) }' <<<"$line")
            ir=$(awk '/^desc: Trigger: Client Request:/ { t = 1 } /^(summary|totals):/ && t { v = $2 } END { print v }' "$f".*)
            printf '%s\t%s\t%s\n' "$ci" "$ir" "$records" >>"$work/ir.$tag.tsv"
        done
    fi
done

python3 - "$meta" "$work" >"$out" <<'EOF'
import json, statistics, sys, os

meta_path, work = sys.argv[1], sys.argv[2]
meta, compilers = {}, []
for line in open(meta_path):
    parts = line.rstrip("\n").split("\t")
    if parts[0] == "compiler":
        compilers.append((parts[1], parts[2], parts[3]))
    else:
        meta[parts[0]] = parts[1]

INPUTS = [("real", "real trace (net.4.5.2.x86.etl, compressed)"),
          ("plain", "generated, 212 MiB uncompressed"),
          ("compressed", "generated, 48 MiB compressed")]
CASES = ["touch", "decompress", "hand_walk", "walk", "dispatch_records", "stream", "dispatch"]
GOAL_RATIO, GOAL_GAP_NS, GOAL_DECOMPRESS = 0.5, 10.0, 1.3e9

def verdict(ok):
    return "MET" if ok else "**NOT MET**"

def load(tag):
    """(case, input) -> medians and spread over the repetitions (CPU time)."""
    data = json.load(open(os.path.join(work, f"gb.{tag}.json")))
    runs = {}
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        case, inp = b["run_name"].split("/")[:2]
        runs.setdefault((case, inp), []).append(b)
    out = {}
    for key, rs in runs.items():
        per_event = [r["time_per_event"] * 1e9 for r in rs]
        wall_over_cpu = [r["real_time"] / r["cpu_time"] for r in rs if r["cpu_time"] > 0]
        med = statistics.median(per_event)
        out[key] = {
            "ns": med,
            "bps": statistics.median(r["bytes_per_second"] for r in rs),
            "eps": statistics.median(r["events_per_second"] for r in rs),
            "spread": (max(per_event) - min(per_event)) / med if med else 0.0,
            "wall": statistics.median(wall_over_cpu) if wall_over_cpu else 1.0,
            "n": len(rs),
            "bytes": rs[0]["bytes"], "events": rs[0]["events"], "file": rs[0]["file_bytes"],
        }
    return out

def load_ir(tag):
    ir = {}
    path = os.path.join(work, f"ir.{tag}.tsv")
    if os.path.exists(path):
        for line in open(path):
            ci, count, records = line.rstrip("\n").split("\t")
            if count and records:
                ir[ci] = int(count) / int(records)
    return ir

def mb(v): return f"{v / 1e6:,.0f}"
def gb(v): return f"{v / 1e9:.2f}"

print(f"Machine: {meta.get('cpu', '?')}, {meta.get('cores', '?')} cores (shared; runs niced; load average at the start "
      f"{meta.get('load', '?')}). Date: {meta.get('date', '?')}. Tree: {meta.get('commit', '?')}.")
print("Compilers: " + "; ".join(f"{c} = {n}" for _, c, n in compilers) + ". Build: -O2 -DNDEBUG. "
      "All figures below come from this one run.")
print()
print(f"Times: Google Benchmark, median of {meta.get('reps', '?')} repetitions (at least {meta.get('min_time', '?')} s each), "
      "CPU time. Every row of an input counts the same bytes (the decompressed record data: each buffer from "
      "its first byte to its end of data) and the same events (the records the walk reads), so ratios of "
      "rates are ratios of times. Decompression counts its output bytes. Instructions: callgrind, one run "
      "after an uncounted one, divided by the records. hand_walk: the best hand-written walk for the same job "
      "(benchmarks/bench_trace.cpp); dispatch_records: the typed dispatch over record_stream (each record as it "
      "is, a StackWalk record to on<\"StackWalk\">); dispatch: over event_stream (stacks attached to their events).")
for tag, cxx, _ in compilers:
    res, ir = load(tag), load_ir(tag)
    print()
    print(f"#### {cxx}")
    print()
    print("| input | goal: walk / touch >= 0.50x | the best hand-written walk / touch | walk / the best hand-written walk "
          "| goal: typed dispatch - walk <= 10 ns/event | with stacks attached: dispatch - walk | goal: decompression >= 1.3 GB/s of output |")
    print("|---|---|---|---|---|---|---|")
    for inp, label in INPUTS:
        t, h, w, dr, d, z = (res.get((c, inp)) for c in ("touch", "hand_walk", "walk", "dispatch_records", "dispatch", "decompress"))
        if not (t and h and w and dr and d):
            print(f"| {label} | not measured | | | | | |")
            continue
        ratio = w["bps"] / t["bps"]
        gap = dr["ns"] - w["ns"]
        dz = f"{gb(z['bps'])} GB/s: {verdict(z['bps'] >= GOAL_DECOMPRESS)}" if z else "(uncompressed)"
        print(f"| {label} | {mb(w['bps'])} / {mb(t['bps'])} MB/s = {ratio:.2f}x: {verdict(ratio >= GOAL_RATIO)} "
              f"| {h['bps'] / t['bps']:.2f}x | {w['bps'] / h['bps']:.2f}x "
              f"| {dr['ns']:.1f} - {w['ns']:.1f} = {gap:.1f} ns: {verdict(gap <= GOAL_GAP_NS)} "
              f"| {d['ns']:.1f} - {w['ns']:.1f} = {d['ns'] - w['ns']:.1f} ns | {dz} |")
    print()
    print("| input | case | MB/s | M events/s | ns/event | instructions/event | spread of the repetitions | wall / CPU time |")
    print("|---|---|---|---|---|---|---|---|")
    for inp, label in INPUTS:
        first = True
        for case in CASES:
            r = res.get((case, inp))
            if not r:
                continue
            instr = ir.get(f"{case}/{inp}")
            cell = f"{instr:,.1f}" if instr is not None else ""
            head = f"{label} ({mb(r['bytes'])} MB of data, {r['events'] / 1e6:.2f} M events)" if first else ""
            first = False
            print(f"| {head} | {case} | {mb(r['bps'])} | {r['eps'] / 1e6:.2f} | {r['ns']:.2f} | {cell} | "
                  f"{100 * r['spread']:.0f}% | {r['wall']:.2f} |")
    small = [(c, ir[f"{c}/small"]) for c in ("hand_walk", "walk", "dispatch_records", "stream", "dispatch") if f"{c}/small" in ir]
    if small:
        print()
        print("Instructions per event on a 16 MiB generated trace (the 212 MiB one's shape, small enough for "
              "callgrind): " + ", ".join(f"{c} {v:,.1f}" for c, v in small) + ".")
EOF
cat "$out"
echo "bench_trace.sh: written to $out" >&2
if [ "$doc" = 1 ]; then
    python3 - "$root/docs/performance.md" "$out" <<'EOF'
import sys
doc, report = sys.argv[1], open(sys.argv[2]).read().rstrip("\n")
text = open(doc).read()
begin, end = "<!-- bench-trace:begin -->", "<!-- bench-trace:end -->"
if begin not in text or end not in text:
    sys.exit("bench_trace.sh: docs/performance.md has no bench-trace:begin / bench-trace:end markers")
head, rest = text.split(begin, 1)
tail = rest.split(end, 1)[1]
open(doc, "w").write(head + begin + "\n" + report + "\n" + end + tail)
EOF
    echo "bench_trace.sh: docs/performance.md updated" >&2
fi
