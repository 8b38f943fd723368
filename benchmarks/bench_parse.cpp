// Google Benchmark: run-time parse_kernel_flags / parse_stack_walk cost per name as the list grows
// (issue 12: the duplicate check used to re-parse every earlier name, so the cost per name grew with
// the list). Each row reports ns_per_name; it should stay flat from 10 names to the cap
// (limits::max_parse_names = 1024). Above the cap the rows measure the refusal: one pass over the text
// for too many names (within limits::max_parse_length), a length comparison for a text over 64 KiB.
//   etwctl_bench_parse --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "etwctl/names/parse.hpp"

namespace {

/// "0x1+0x2+...": distinct PERF values within mask 0 (each name a table miss, then a hex parse).
std::string hex_flags(std::size_t n) {
    std::string s;
    char buf[16];
    for (std::size_t i = 0; i < n; ++i) {
        if (i) s += '+';
        s.append(buf, static_cast<std::size_t>(std::snprintf(buf, sizeof buf, "0x%X", static_cast<unsigned>(i + 1))));
    }
    return s;
}
/// "0x3000+0x3001+...": distinct hook ids.
std::string hex_hooks(std::size_t n) {
    std::string s;
    char buf[16];
    for (std::size_t i = 0; i < n; ++i) {
        if (i) s += '+';
        s.append(buf, static_cast<std::size_t>(std::snprintf(buf, sizeof buf, "0x%04X", static_cast<unsigned>(0x3000 + i))));
    }
    return s;
}
void per_name(benchmark::State& state, std::size_t names) {
    state.counters["names"] = static_cast<double>(names);
    state.counters["ns_per_name"] =
        benchmark::Counter(static_cast<double>(names), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void parse_kernel_flags_hex(benchmark::State& state) {
    auto const n = static_cast<std::size_t>(state.range(0));
    std::string const text = hex_flags(n);
    etwctl::rule expected = n > etwctl::limits::max_parse_names ? etwctl::rule::parse_too_many_names : etwctl::rule::ok;
    if (text.size() > etwctl::limits::max_parse_length) expected = etwctl::rule::parse_input_too_long;
    for (auto _ : state) {
        etwctl::group_mask m;
        etwctl::rule const r = etwctl::parse_kernel_flags(text, m);
        if (r != expected) state.SkipWithError("unexpected parse result");
        benchmark::DoNotOptimize(m);
    }
    per_name(state, n);
}
BENCHMARK(parse_kernel_flags_hex)->Arg(10)->Arg(100)->Arg(1000)->Arg(1024)->Arg(5000)->Arg(10000)->Arg(100000);

void parse_kernel_flags_xperf_names(benchmark::State& state) {
    std::string text;
    std::size_t n = 0;
    for (auto const& f : etwctl::xperf_kernel_flag_table<>) {
        if (n) text += '+';
        text += f.name;
        ++n;
    }
    for (auto _ : state) {
        etwctl::group_mask m;
        if (etwctl::parse_kernel_flags(text, m) != etwctl::rule::ok) state.SkipWithError("unexpected parse result");
        benchmark::DoNotOptimize(m);
    }
    per_name(state, n);
}
BENCHMARK(parse_kernel_flags_xperf_names);

void parse_stack_walk_hex(benchmark::State& state) {
    auto const n = static_cast<std::size_t>(state.range(0));
    std::string const text = hex_hooks(n);
    etwctl::hook_id ids[etwctl::limits::max_stack_tracing_events];
    etwctl::rule expected = n > etwctl::limits::max_stack_tracing_events ? etwctl::rule::parse_too_many_names : etwctl::rule::ok;
    if (text.size() > etwctl::limits::max_parse_length) expected = etwctl::rule::parse_input_too_long;
    for (auto _ : state) {
        std::size_t count = 0;
        if (etwctl::parse_stack_walk(text, ids, count) != expected) state.SkipWithError("unexpected parse result");
        benchmark::DoNotOptimize(ids);
        benchmark::DoNotOptimize(count);
    }
    per_name(state, n);
}
BENCHMARK(parse_stack_walk_hex)->Arg(10)->Arg(100)->Arg(256)->Arg(1000)->Arg(5000)->Arg(10000)->Arg(100000);

} // namespace

BENCHMARK_MAIN();
