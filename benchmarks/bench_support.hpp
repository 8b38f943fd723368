// Shared by the benchmark executables: a do-nothing kernel double, opaque inputs and the table of
// measured cases.
//
// Every case is a non-inlined function `bool f()` (true = the call succeeded) defined in cases.cpp.
// Both measuring programs call the same functions through the same function pointer:
//   etwctl_bench        Google Benchmark: ns per call
//   etwctl_bench_ir     callgrind driver: instructions per call (deterministic)
// so the two columns of the table describe the same machine code. The "empty" case is the baseline
// (the indirect call and the loop); scripts/bench.sh subtracts it from every other case.
#pragma once

#include <cstddef>
#include <cstdint>

#include "etwctl/group_mask.hpp"
#include "etwctl/types.hpp"

namespace etwctl_bench {

/// A kernel that accepts everything and does nothing. Its members are defined in kernel_double.cpp,
/// a separate translation unit (no LTO), so the compiler must build every request in memory and make
/// a real call, exactly as with the real kernel, and can assume nothing about what the call reads.
struct null_kernel {
    std::int32_t nt_set_system_information(std::uint32_t cls, void const* in, std::uint32_t length) noexcept;
    std::int32_t nt_query_system_information(std::uint32_t cls, void* out, std::uint32_t length,
                                             std::uint32_t* returned) noexcept;
    std::int32_t nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) noexcept;
    std::int32_t nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) noexcept;
    std::int32_t nt_trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                                  std::uint32_t out_length, std::uint32_t* returned) noexcept;
    std::uint32_t event_set_information(std::uint64_t reg, std::uint32_t cls, void const* in,
                                        std::uint32_t length) noexcept;
};

/// The SDK's GUID and CLASSIC_EVENT_ID (evntrace.h) as Windows lays them out (ULONG = 4 bytes).
struct sdk_guid {
    std::uint32_t Data1;
    std::uint16_t Data2;
    std::uint16_t Data3;
    std::uint8_t Data4[8];
};
struct sdk_classic_event_id {
    sdk_guid EventGuid;
    std::uint8_t Type;
    std::uint8_t Reserved[7];
};
static_assert(sizeof(sdk_classic_event_id) == 24);

/// Number of events in the run-time list cases (the kernel's maximum for stack tracing).
inline constexpr std::size_t runtime_events = 256;

// Inputs, defined in kernel_double.cpp: the measured code cannot see their values.
extern null_kernel kernel;
extern std::uint64_t session;              ///< the NT Kernel Logger's handle
extern std::uint64_t enable_handle;        ///< a TRACE_ENABLE_CONTEXT as a provider callback receives it
extern std::uint32_t interval;             ///< a profile interval
extern etwctl::profile_source pmc_source;  ///< a hardware counter source
extern etwctl::profile_source counters[2]; ///< two hardware counters
extern etwctl::group_mask mask;            ///< a group mask with bits in Masks[0], [1] and [2]
extern etwctl::classic_event_id events[runtime_events];   ///< 256 CLASSIC_EVENT_IDs over all 31 groups
extern etwctl::classic_event_id few_events[3];            ///< CSwitch, ReadyThread, SampledProfile
extern etwctl::hook_id hooks[runtime_events];             ///< the same 256 events as hook ids
extern sdk_classic_event_id sdk_events[runtime_events];   ///< the same 256 events in the SDK's layout
void fill_inputs() noexcept;

/// One measured function.
struct bench_case {
    char const* name;   ///< "<row>/<variant>", e.g. "stack_const/typed"
    bool (*fn)();
    unsigned per_call;  ///< events per call: the table reports per-event figures when > 1
};
extern bench_case const cases[];
extern std::size_t const case_count;

} // namespace etwctl_bench
