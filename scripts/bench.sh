#!/usr/bin/env bash
# scripts/bench.sh - etwctl's performance table, measured in one run.
#
#   scripts/bench.sh [-o FILE]          (default FILE: build/bench-results.md; also printed)
#
# For each compiler (BENCH_COMPILERS, default "g++ clang++") it builds the benchmarks at -O2 in
# build/b-bench-<compiler>, then:
#   1. check_codegen.sh: the compile-time stack-walk call has no loop and calls only the kernel; the
#      enable-flags decode calls nothing;
#   2. callgrind: instructions per call of every case (deterministic), minus the empty case;
#   3. Google Benchmark: ns per call (median of BENCH_REPETITIONS runs), minus the empty case.
# Then the include cost: compile time of a TU with only etwctl/etwctl.hpp against a TU with only the
# standard headers etwctl includes (median of BENCH_COMPILE_RUNS), for g++, clang++ and, if
# installed, x86_64-w64-mingw32-g++-posix (also against <windows.h> + <evntrace.h>).
# Nothing here asserts a time: the numbers are for reading. Runs niced; BENCH_JOBS (default 2).
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/bench-results.md"
while [ $# -gt 0 ]; do
    case $1 in
    -o) out=$2; shift 2 ;;
    *) echo "usage: $0 [-o FILE]" >&2; exit 2 ;;
    esac
done
compilers=${BENCH_COMPILERS:-"g++ clang++"}
jobs=${BENCH_JOBS:-2}
reps=${BENCH_REPETITIONS:-5}
iterations=${BENCH_ITERATIONS:-1000}
compile_runs=${BENCH_COMPILE_RUNS:-7}
mingw=${BENCH_MINGW:-x86_64-w64-mingw32-g++-posix}
run() { nice -n 10 "$@"; }

for tool in cmake ninja valgrind objdump python3; do
    command -v "$tool" >/dev/null || { echo "bench.sh: $tool is required" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$out")"

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
cores=$(nproc)
version_of() { "$1" --version 2>/dev/null | head -1; }

# ---- per compiler: build, check the code, count instructions, time ------------------------------------
results="$work/results.tsv" # compiler \t case \t per \t ir \t ns
: >"$results"
codegen="$work/codegen.txt"
: >"$codegen"
for cxx in $compilers; do
    command -v "$cxx" >/dev/null || { echo "bench.sh: $cxx not found; skipped" >&2; continue; }
    tag=$(basename "$cxx" | tr -c 'a-zA-Z0-9\n' '-')
    dir="$root/build/b-bench-$tag"
    echo "== $cxx: building in build/b-bench-$tag" >&2
    run cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DETWCTL_BUILD_BENCHMARKS=ON -DETWCTL_BUILD_TESTS=OFF \
        -DETWCTL_BUILD_EXAMPLES=OFF -DETWCTL_INSTALL=OFF >/dev/null
    run cmake --build "$dir" -j "$jobs" --target etwctl_bench etwctl_bench_ir >/dev/null
    bin="$dir/benchmarks"

    echo "== $cxx: code checks" >&2
    { echo "$(version_of "$cxx"):"; sh "$root/benchmarks/check_codegen.sh" "$bin/etwctl_bench_ir" | sed 's/^/    /'; } \
        >>"$codegen" || true

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

    python3 - "$cxx" "$(version_of "$cxx")" "$iterations" "$work/ir.tsv" "$work/gb.csv" >>"$results" <<'EOF'
import csv, sys
cxx, version, iterations, ir_file, gb_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
ir = {}
for line in open(ir_file):
    name, value = line.rstrip("\n").split("\t")
    ir[name] = int(value.replace(",", "")) / iterations
ns = {}
rows = [l for l in open(gb_file) if l.startswith("name,") or l.startswith('"')]
for row in csv.DictReader(rows):  # medians with repetitions, else the single run
    name = row["name"]
    if name.endswith("_median"):
        ns[name[: -len("_median")]] = float(row["cpu_time"])
    elif not any(name.endswith(s) for s in ("_mean", "_stddev", "_cv")):
        ns.setdefault(name, float(row["cpu_time"]))
for name in ir:
    if name == "empty/raw":
        continue
    print("\t".join([version, name, f"{ir[name] - ir['empty/raw']:.1f}", f"{ns.get(name, 0) - ns.get('empty/raw', 0):.2f}",
                     f"{ir['empty/raw']:.1f}", f"{ns.get('empty/raw', 0):.2f}"]))
EOF
done

# ---- include cost -------------------------------------------------------------------------------------------
inc="$work/include.tsv"
: >"$inc"
heavy="$work/heavy.txt"
: >"$heavy"
printf '#include "etwctl/etwctl.hpp"\n' >"$work/etwctl_only.cpp"
# The standard headers etwctl's public headers include (as named in their #include lines).
std_headers=$(g++ -std=c++20 -I"$root/include" -MM "$work/etwctl_only.cpp" | tr ' \\' '\n\n' | grep '/etwctl/' |
    xargs grep -h '^#include <' | grep -v 'windows.h' | sort -u)
printf '%s\n' "$std_headers" >"$work/std_only.cpp"
printf '#include <windows.h>\n#include <evntrace.h>\n' >"$work/windows_only.cpp"
echo "$std_headers" | tr '\n' ' ' | sed 's/#include //g' >"$work/std_list.txt"

# median_ms <compiler> <file> [flags...]: median CPU time (user + sys, ms) of compile_runs compilations.
# CPU time, not wall time: on a shared machine the wall time mostly measures the other users.
median_ms() {
    local cxx=$1 file=$2; shift 2
    local t=() u s
    for _ in $(seq "$compile_runs"); do
        read -r u s < <({ TIMEFORMAT='%3U %3S'; time run "$cxx" -std=c++20 -O2 -I"$root/include" "$@" -c "$file" -o "$work/tu.o"; } 2>&1 >/dev/null)
        t+=($(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }'))
    done
    printf '%s\n' "${t[@]}" | sort -n | sed -n "$(((compile_runs + 1) / 2))p"
}
for cxx in g++ clang++; do
    command -v "$cxx" >/dev/null || continue
    echo "== include cost: $cxx" >&2
    a=$(median_ms "$cxx" "$work/etwctl_only.cpp")
    b=$(median_ms "$cxx" "$work/std_only.cpp")
    printf '%s\t%s\t%s\t%s\n' "$(version_of "$cxx")" "standard headers etwctl includes" "$a" "$b" >>"$inc"
done
if command -v "$mingw" >/dev/null; then
    echo "== include cost: $mingw" >&2
    # The cross compiler must not see the host's /usr/include: give it only the GSL headers, as the
    # cross build does (cmake/EtwctlDependencies.cmake).
    mkdir -p "$work/xinc"
    gsl=$(echo '#include <gsl/assert>' | g++ -std=c++20 -x c++ -H -fsyntax-only - 2>&1 | sed -n 's/^\. \(.*\)\/assert$/\1/p' | head -1)
    [ -n "$gsl" ] && ln -s "$gsl" "$work/xinc/gsl"
    mingw_ms() { median_ms "$mingw" "$1" -I"$work/xinc"; }
    a=$(mingw_ms "$work/etwctl_only.cpp")
    b=$(mingw_ms "$work/std_only.cpp")
    w=$(mingw_ms "$work/windows_only.cpp")
    printf '%s\t%s\t%s\t%s\n' "$(version_of "$mingw")" "standard headers etwctl includes" "$a" "$b" >>"$inc"
    printf '%s\t%s\t%s\t%s\n' "$(version_of "$mingw")" "<windows.h> + <evntrace.h>" "$a" "$w" >>"$inc"
fi
# Heavy standard headers anywhere in the include tree (g++ / libstdc++), with the first chain to each.
g++ -std=c++20 -I"$root/include" -H -fsyntax-only "$work/etwctl_only.cpp" 2>"$work/tree.txt" || true
for h in iostream ostream istream sstream fstream string vector map unordered_map format memory functional \
    algorithm locale regex; do
    python3 - "$work/tree.txt" "$h" >>"$heavy" <<'EOF'
import sys, re
tree, want = sys.argv[1], sys.argv[2]
stack = []
for line in open(tree):
    m = re.match(r"^(\.+) (.*)$", line.rstrip("\n"))
    if not m:
        continue
    depth, path = len(m.group(1)), m.group(2)
    stack = stack[: depth - 1] + [path]
    if path.endswith("/" + want):
        def short(p):
            i = p.find("include/etwctl/")
            if i >= 0:
                return p[i + len("include/"):]
            return "<" + re.sub(r"^.*/(c\+\+/[0-9]+|include)/", "", p) + ">"
        print(f"<{want}>: " + " -> ".join(short(p) for p in stack))
        break
EOF
done

# ---- the report -------------------------------------------------------------------------------------------
python3 - "$results" "$inc" "$codegen" "$heavy" "$cpu" "$cores" "$work/std_list.txt" >"$out" <<'EOF'
import sys
from collections import OrderedDict
results, inc, codegen, heavy, cpu, cores, std_list = sys.argv[1:8]
data = OrderedDict()  # compiler -> case -> (ir, ns)
base = {}
for line in open(results):
    comp, name, ir, ns, eir, ens = line.rstrip("\n").split("\t")
    data.setdefault(comp, OrderedDict())[name] = (float(ir), float(ns))
    base[comp] = (float(eir), float(ens))
comps = list(data)
per = {"stack_events": 256, "stack_hooks": 256}

def val(comp, name):
    return data[comp].get(name)

def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else "n/a"

# (label, case, baseline case)
comparisons = [
    ("set<stack_tracing>, compile-time hook_list (3 ids): typed / raw", "stack_const/typed", "stack_const/raw"),
    ("  same, hook_list declared by CTAD: typed / raw", "stack_const/typed_ctad", "stack_const/raw"),
    ("  compat, 3 CLASSIC_EVENT_IDs / raw hook ids", "stack_const/compat", "stack_const/raw"),
    ("256 run-time CLASSIC_EVENT_IDs: typed / linear search", "stack_events/typed", "stack_events/raw_linear"),
    ("256 run-time CLASSIC_EVENT_IDs: typed / heap SECHOST-style", "stack_events/typed", "stack_events/raw_heap"),
    ("256 run-time CLASSIC_EVENT_IDs: compat / linear search", "stack_events/compat", "stack_events/raw_linear"),
    ("256 run-time hook ids: typed / raw copy", "stack_hooks/typed", "stack_hooks/raw"),
    ("set<system_trace_enable_flags>: typed / raw", "group_mask/typed", "group_mask/raw"),
    ("  compat / raw", "group_mask/compat", "group_mask/raw"),
    ("set<pmc_counter_list> (2): typed / raw", "pmc_counters/typed", "pmc_counters/raw"),
    ("  compat / raw", "pmc_counters/compat", "pmc_counters/raw"),
    ("set<sampled_profile_interval>, timer: typed / raw", "interval_timer/typed", "interval_timer/raw"),
    ("  compat / raw", "interval_timer/compat", "interval_timer/raw"),
    ("set<sampled_profile_interval>, counter source: typed / raw", "interval_pmc/typed", "interval_pmc/raw"),
    ("  compat / raw", "interval_pmc/compat", "interval_pmc/raw"),
    ("enable-flags decode: enable_flags_of / hand-written", "enable_flags/typed", "enable_flags/raw"),
    ("  compat::get_trace_enable_flags / hand-written", "enable_flags/compat", "enable_flags/raw"),
    ("query<system_trace_enable_flags>: typed / raw", "query_mask/typed", "query_mask/raw"),
    ("  compat / raw", "query_mask/compat", "query_mask/raw"),
]
print(f"Machine: {cpu}, {cores} cores (shared; runs niced). Build: -O2 -DNDEBUG, Release.")
print()
print("### Ratios (lower is better; 1.00 = as fast as the hand-written equivalent)")
print()
head = "| comparison | " + " | ".join(f"{c}: instr. ratio | {c}: ns ratio" for c in comps) + " |"
print(head)
print("|" + "---|" * (1 + 2 * len(comps)))
for label, case, basecase in comparisons:
    cells = []
    for c in comps:
        a, b = val(c, case), val(c, basecase)
        cells.append(ratio(a and a[0], b and b[0]))
        cells.append(ratio(a and a[1], b and b[1]))
    print(f"| {label} | " + " | ".join(cells) + " |")
print()
print("### Absolute figures (per call; per event for the 256-event rows), empty-loop baseline subtracted")
print()
print("| case | " + " | ".join(f"{c}: instructions | {c}: ns" for c in comps) + " |")
print("|" + "---|" * (1 + 2 * len(comps)))
names = list(OrderedDict.fromkeys(n for c in comps for n in data[c]))
for n in names:
    div = per.get(n.split("/")[0], 1)
    cells = []
    for c in comps:
        v = val(c, n)
        cells.append(f"{v[0] / div:.1f}" if v else "n/a")
        cells.append(f"{v[1] / div:.2f}" if v else "n/a")
    unit = " (per event)" if div > 1 else ""
    print(f"| {n}{unit} | " + " | ".join(cells) + " |")
print()
print("Empty-loop baseline subtracted above: " + "; ".join(f"{c}: {base[c][0]:.1f} instructions, {base[c][1]:.2f} ns" for c in comps) + ".")
print()
print("### Generated code (objdump of the measured functions)")
print()
print("```")
print(open(codegen).read().rstrip())
print("```")
print()
print("### Include cost (CPU time, user + sys, to compile one TU with -std=c++20 -O2 -c; median of repeated runs)")
print()
print("| compiler | etwctl/etwctl.hpp only (ms) | compared with | that TU (ms) | ratio |")
print("|---|---|---|---|---|")
for line in open(inc):
    comp, what, a, b = line.rstrip("\n").split("\t")
    print(f"| {comp} | {a} | {what} | {b} | {int(a) / int(b):.2f} |")
print()
print("Standard headers etwctl's public headers include: " + open(std_list).read().strip())
print()
h = open(heavy).read().strip()
print("Heavy standard headers in the include tree (g++ / libstdc++, first path to each):")
print()
print("\n".join("- " + l for l in h.splitlines()) if h else "- none")
EOF
cat "$out"
echo "bench.sh: written to $out" >&2
