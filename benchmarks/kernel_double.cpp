// The do-nothing kernel and the benchmark inputs, in their own translation unit so the measured code
// can neither inline the kernel nor constant-fold the inputs.
#include "bench_support.hpp"

#include <cstring>

#include "etwctl/enable_context.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/names/groups.hpp"

namespace etwctl_bench {

static_assert(etwctl::kernel<null_kernel>);

namespace {
/// Tells the compiler the pointed-to memory is read (and may be written): the request must exist.
inline void touch(void const* p) noexcept { asm volatile("" : : "r"(p) : "memory"); }
} // namespace

std::int32_t null_kernel::nt_set_system_information(std::uint32_t, void const* in, std::uint32_t) noexcept {
    touch(in);
    return 0;
}
std::int32_t null_kernel::nt_query_system_information(std::uint32_t, void* out, std::uint32_t length,
                                                      std::uint32_t* returned) noexcept {
    touch(out);
    *returned = length;
    return 0;
}
std::int32_t null_kernel::nt_set_interval_profile(std::uint32_t, std::uint32_t) noexcept { return 0; }
std::int32_t null_kernel::nt_query_interval_profile(std::uint32_t, std::uint32_t* value) noexcept {
    *value = 10000;
    return 0;
}
std::int32_t null_kernel::nt_trace_control(std::uint32_t, void const* in, std::uint32_t, void* out, std::uint32_t,
                                           std::uint32_t* returned) noexcept {
    touch(in);
    touch(out);
    *returned = 0;
    return 0;
}
std::uint32_t null_kernel::event_set_information(std::uint64_t, std::uint32_t, void const* in, std::uint32_t) noexcept {
    touch(in);
    return 0;
}

null_kernel kernel;
std::uint64_t session = 0xFFFF;
std::uint64_t enable_handle = 0;
std::uint32_t interval = 0;
etwctl::profile_source pmc_source = etwctl::profile_source::time;
etwctl::profile_source counters[2] = {};
etwctl::group_mask mask;
etwctl::classic_event_id events[runtime_events];
etwctl::classic_event_id few_events[3];
etwctl::hook_id hooks[runtime_events];
sdk_classic_event_id sdk_events[runtime_events];

namespace {
etwctl::classic_event_id make_event(std::uint8_t group, std::uint8_t type) noexcept {
    etwctl::classic_event_id e{};
    e.event_guid = etwctl::kernel_group_by_id(group)->event_guid;
    e.type = type;
    return e;
}
} // namespace

void fill_inputs() noexcept {
    session = 0xFFFF;
    enable_handle = etwctl::enable_context::make(etwctl::logger_id{5}, 4, 0x00010203U).handle;
    interval = 10000;
    pmc_source = etwctl::profile_source::total_cycles;
    counters[0] = etwctl::profile_source::total_cycles;
    counters[1] = etwctl::profile_source::cache_misses;
    mask = etwctl::group_mask{};
    mask.masks[0] = 0x00000003U;
    mask.masks[1] = 0x00000006U;
    mask.masks[2] = 0x00000040U;
    for (std::size_t i = 0; i < runtime_events; ++i) {
        // 7 and 31 are coprime: the groups cycle through all 31, so a linear search meets every position.
        auto const group = static_cast<std::uint8_t>((i * 7) % etwctl::kernel_group_count);
        auto const type = static_cast<std::uint8_t>(i & 0x3F);
        events[i] = make_event(group, type);
        hooks[i] = etwctl::hook_id(group, type);
        std::memcpy(&sdk_events[i].EventGuid, &events[i].event_guid, 16);
        sdk_events[i].Type = type;
    }
    few_events[0] = make_event(0x05, 0x24); // Thread/CSwitch
    few_events[1] = make_event(0x05, 0x32); // Thread/ReadyThread
    few_events[2] = make_event(0x0F, 0x2E); // PerfInfo/SampledProfile
}

} // namespace etwctl_bench
