#!/usr/bin/env bash
# benchmarks/include_weight.sh <root> <work dir> <runs> <compiler>...: the include weight of every public
# header, measured in one run (scripts/bench.sh calls it; its output goes into the table).
#
# For each public header H (the umbrella etwctl/etwctl.hpp and every header under include/etwctl except
# detail/ and testing/), two one-line TUs:
#   etwctl   #include <H>
#   std      the standard and GSL headers H needs: the `#include <...>` lines of every etwctl header in
#            H's include closure (as the compiler resolves it), and nothing else
# each compiled with -std=c++20 -O2, once with -fsyntax-only and once with -c; the figure is the best
# (lowest) CPU time (user + sys) of <runs> compilations: the least disturbed by other users of the machine.
# Prints TSV: compiler \t header \t mode \t etwctl ms \t std ms \t std header list
set -euo pipefail
root=$1 work=$2 runs=$3
shift 3
mkdir -p "$work"

# BENCH_HEADERS (space-separated, e.g. "etwctl/etwctl.hpp etwctl/typed/set.hpp") limits the list.
headers=${BENCH_HEADERS:-}
[ -n "$headers" ] || headers=$(cd "$root/include" && find etwctl -name '*.hpp' ! -path 'etwctl/detail/*' ! -path 'etwctl/testing/*' | sort)

# best_ms <compiler> <file> <mode flag>: lowest CPU time (ms) of `runs` compilations.
best_ms() {
    local cxx=$1 file=$2 mode=$3 best= u s t
    for _ in $(seq "$runs"); do
        read -r u s < <({ TIMEFORMAT='%3U %3S'; time nice -n 10 "$cxx" -std=c++20 -O2 -I"$root/include" $mode "$file" \
            -o "$work/tu.o"; } 2>&1 >/dev/null)
        t=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')
        if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    echo "$best"
}

declare -A std_ms
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
        for mode in -fsyntax-only -c; do
            a=$(best_ms "$cxx" "$work/$tag.cpp" "$mode")
            key="$cxx|$mode|$names"
            if [ -z "${std_ms[$key]:-}" ]; then std_ms[$key]=$(best_ms "$cxx" "$work/$tag.std.cpp" "$mode"); fi
            printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$cxx" "$h" "$mode" "$a" "${std_ms[$key]}" "$names"
        done
    done
done
