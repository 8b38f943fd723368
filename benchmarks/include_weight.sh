#!/usr/bin/env bash
# benchmarks/include_weight.sh <root> <work dir> <runs> <compiler>...: the include weight of every public
# header, measured in one run (scripts/bench.sh calls it; its output goes into the table).
#
# For each public header H (the umbrella etwctl/etwctl.hpp and every header under include/etwctl except
# detail/ and testing/), two one-line TUs:
#   etwctl   #include <H>
#   std      the standard and GSL headers H needs: the `#include <...>` lines of every etwctl header in
#            H's include closure (as the compiler resolves it), and nothing else
# each compiled with -std=c++20 -O2, once with -fsyntax-only and once with -c; the two TUs are compiled
# in turn, <runs> times each, and the figure of each is its best (lowest) CPU time (user + sys): the least
# disturbed by other users of the machine, with both sides measured through the same spells. The umbrella,
# the row with the goal, is compiled BENCH_UMBRELLA_RUNS times (default 11, never fewer than <runs>): on a
# shared machine the best of more runs is nearer the undisturbed time, on both sides of the ratio. With
# BENCH_UMBRELLA_IR=1 the umbrella's two TUs are also counted in compiler instructions, in both modes
# (callgrind: exact and repeatable, where the CPU times of a shared machine are not), as the modes
# "instructions -fsyntax-only" and "instructions -c".
# Prints TSV: compiler \t header \t mode \t etwctl \t std \t std header list \t runs
# (ms of CPU time; for the instruction modes, millions of instructions)
set -euo pipefail
root=$1 work=$2 runs=$3
shift 3
mkdir -p "$work"

# BENCH_HEADERS (space-separated, e.g. "etwctl/etwctl.hpp etwctl/typed/set.hpp") limits the list.
headers=${BENCH_HEADERS:-}
[ -n "$headers" ] || headers=$(cd "$root/include" && find etwctl -name '*.hpp' ! -path 'etwctl/detail/*' ! -path 'etwctl/testing/*' | sort)

umbrella_runs=${BENCH_UMBRELLA_RUNS:-11}
[ "$umbrella_runs" -ge "$runs" ] || umbrella_runs=$runs

# cpu_ms <compiler> <file> <mode flag>: CPU time (ms) of one compilation.
cpu_ms() {
    local u s
    read -r u s < <({ TIMEFORMAT='%3U %3S'; time nice -n 10 "$1" -std=c++20 -O2 -I"$root/include" $3 "$2" \
        -o "$work/tu.o"; } 2>&1 >/dev/null)
    awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }'
}
# best_pair_ms <compiler> <file A> <file B> <mode flag> <n>: "A B", the lowest CPU time (ms) of each over n
# compilations taken in turn (A B A B ...), so that a slow spell of the shared machine meets both alike.
best_pair_ms() {
    local cxx=$1 a=$2 b=$3 mode=$4 n=$5 best_a= best_b= t
    for _ in $(seq "$n"); do
        t=$(cpu_ms "$cxx" "$a" "$mode")
        if [ -z "$best_a" ] || [ "$t" -lt "$best_a" ]; then best_a=$t; fi
        t=$(cpu_ms "$cxx" "$b" "$mode")
        if [ -z "$best_b" ] || [ "$t" -lt "$best_b" ]; then best_b=$t; fi
    done
    echo "$best_a $best_b"
}

# instructions_m <compiler> <file> <mode flag>: millions of instructions of one compilation, the compiler
# driver and its children summed (callgrind; address randomisation off where setarch can).
instructions_m() {
    local norand=() d
    setarch "$(uname -m)" -R true 2>/dev/null && norand=(setarch "$(uname -m)" -R)
    d=$(mktemp -d "$work/cg.XXXXXX")
    "${norand[@]}" valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$d/cg.%p" \
        "$1" -std=c++20 -O2 -I"$root/include" $3 "$2" -o "$d/tu.o" >/dev/null 2>"$d/log"
    grep -h 'Collected' "$d/log" | awk '{ s += $4 } END { printf "%.0f", s / 1e6 }'
    rm -rf "$d"
}

for cxx in "$@"; do
    command -v "$cxx" >/dev/null || continue
    for h in $headers; do
        tag=$(echo "$h" | tr '/.' '__')
        printf '#include "%s"\n' "$h" >"$work/$tag.cpp"
        # Skip a header that does not compile here (e.g. one that needs <windows.h>).
        "$cxx" -std=c++20 -I"$root/include" -fsyntax-only "$work/$tag.cpp" 2>/dev/null || continue
        list=$("$cxx" -std=c++20 -I"$root/include" -MM "$work/$tag.cpp" | tr ' \\' '\n\n' | grep '/include/etwctl/' |
            xargs grep -h '^#include <' | sed 's/[[:space:]]*\/\/.*//' | sort -u |
            while read -r line; do # keep only what exists here (no <windows.h> on Linux)
                printf '%s\n' "$line" | "$cxx" -std=c++20 -x c++ -fsyntax-only - 2>/dev/null && printf '%s\n' "$line"
            done)
        printf '%s\n' "$list" >"$work/$tag.std.cpp"
        names=$(printf '%s' "$list" | sed 's/#include //' | tr '\n' ' ')
        n=$runs
        [ "$h" != etwctl/etwctl.hpp ] || n=$umbrella_runs
        for mode in -fsyntax-only -c; do
            read -r a b < <(best_pair_ms "$cxx" "$work/$tag.cpp" "$work/$tag.std.cpp" "$mode" "$n")
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$cxx" "$h" "$mode" "$a" "$b" "$names" "$n"
        done
        if [ "$h" = etwctl/etwctl.hpp ] && [ "${BENCH_UMBRELLA_IR:-0}" = 1 ]; then
            for mode in -fsyntax-only -c; do
                printf '%s\t%s\tinstructions %s\t%s\t%s\t%s\t1\n' "$cxx" "$h" "$mode" \
                    "$(instructions_m "$cxx" "$work/$tag.cpp" "$mode")" "$(instructions_m "$cxx" "$work/$tag.std.cpp" "$mode")" "$names"
            done
        fi
    done
done
