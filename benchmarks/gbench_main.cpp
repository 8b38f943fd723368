// Google Benchmark over the case table: ns per call of each measured function, called through the
// same function pointer the callgrind driver uses.
#include <benchmark/benchmark.h>

#include "bench_support.hpp"

int main(int argc, char** argv) {
    etwctl_bench::fill_inputs();
    for (std::size_t i = 0; i < etwctl_bench::case_count; ++i) {
        auto const& c = etwctl_bench::cases[i];
        benchmark::RegisterBenchmark(c.name, [fn = c.fn](benchmark::State& state) {
            for (auto _ : state) benchmark::DoNotOptimize(fn());
        });
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
