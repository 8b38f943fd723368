// Instruction counts under callgrind:
//   valgrind --tool=callgrind --collect-atstart=no ./etwctl_bench_ir [iterations]
// For each case: one warm-up call (first-call costs such as lazy binding are not counted), then
// collection is switched on for `iterations` calls and the counts are dumped under the case's name
// ("desc: Trigger: Client Request: <name>" in each callgrind.out.*.N file). scripts/bench.sh divides
// by the iteration count and subtracts the "empty" case (the loop and the indirect call).
// Outside valgrind the client requests do nothing and the program just runs the loops.
#include <cstdio>
#include <cstdlib>

#include "bench_support.hpp"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define ETWCTL_BENCH_HAVE_CALLGRIND 1
#else
#define ETWCTL_BENCH_HAVE_CALLGRIND 0
#endif

int main(int argc, char** argv) {
    long const iterations = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1000;
    if (iterations <= 0) return 2;
    etwctl_bench::fill_inputs();
    bool all_ok = true;
    for (std::size_t i = 0; i < etwctl_bench::case_count; ++i) {
        auto const& c = etwctl_bench::cases[i];
        bool (*volatile fn)() = c.fn;
        all_ok = fn() && all_ok; // warm-up, not counted
#if ETWCTL_BENCH_HAVE_CALLGRIND
        CALLGRIND_ZERO_STATS;
        CALLGRIND_TOGGLE_COLLECT;
#endif
        for (long n = 0; n < iterations; ++n) all_ok = fn() && all_ok;
#if ETWCTL_BENCH_HAVE_CALLGRIND
        CALLGRIND_TOGGLE_COLLECT;
        CALLGRIND_DUMP_STATS_AT(c.name);
#endif
    }
    std::printf("%zu cases x %ld iterations%s\n", etwctl_bench::case_count, iterations,
                all_ok ? "" : " (a case reported failure)");
    return all_ok ? 0 : 1;
}
