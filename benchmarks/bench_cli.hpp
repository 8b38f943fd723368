// The trace benchmarks' main (bench_trace.cpp, bench_consume.cpp): `--ir CASE INPUT` runs one case once,
// for callgrind's instruction count (the scripts read its Ir per record); anything else registers the
// cases and runs Google Benchmark with the given flags.
#pragma once

#include <string>
#include <string_view>

#include <benchmark/benchmark.h>

namespace etwctl_bench {

using ir_case = int (*)(std::string_view case_name, std::string const& input_name);

inline int trace_bench_main(int argc, char** argv, ir_case instructions, void (*register_all)()) {
    if (argc == 4 && std::string_view(argv[1]) == "--ir") return instructions(argv[2], argv[3]);
    register_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

} // namespace etwctl_bench
