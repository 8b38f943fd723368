// Profiling at 8 kHz for a scope without leaving the machine at 8 kHz. The sampled-profile interval is
// global: a tool that sets it and exits (or resets it to 1 ms) changes every other profiler. The guard
// captures the interval that was there, sets the new one, and puts the captured one back; a restore
// that fails is reported to the caller, never thrown and never lost.
#include <cstdio>
#include <memory>

#include "etwctl/etwctl.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    using namespace etwctl;
    auto machine = std::make_unique<sim::kernel>();
    session_handle const session{machine->start_kernel_logger()};
    auto& k = *machine;

    // Someone else's profiler already runs the timer at 2 ms.
    if (set<sampled_profile_interval>(k, profile_interval{20000})) return 1;

    std::error_code restore_failure;
    {
        interval_guard fast(k, timer_interval<1250>, report_to(restore_failure)); // 8 kHz
        if (fast.error()) {
            std::printf("cannot set the interval: %s\n", fast.error().message().c_str());
            return 1;
        }
        std::printf("while tracing: timer interval %u (was %u)\n", query<sampled_profile_interval>(k).value().count(),
                    fast.saved().count());

        // Sample on cache misses as well, for this session only; the kernel cannot say which sources
        // the session sampled before, so the guard restores the configuration the caller states
        // (by default: the timer alone).
        // The counter's id comes from this machine's profile-source list, by name, at run time.
        auto const cache_misses = find_profile_source(k, "CacheMisses");
        if (!cache_misses) {
            std::printf("no CacheMisses source here: %s\n", cache_misses.error().message().c_str());
            return 1;
        }
        profile_source_setting const sources[] = {{profile_source::time, {}}, {*cache_misses, profile_interval{8192}}};
        profile_source_guard sampling(k, session, sources);
        if (sampling.error()) return 1;
        std::printf("sources configured: %zu, cache-miss interval %u\n", k.profile_config().size(),
                    k.interval(static_cast<std::uint32_t>(*cache_misses)));
    } // both restored here, in reverse order of construction

    std::printf("after the scope: timer interval %u, restore %s\n", query<sampled_profile_interval>(k).value().count(),
                restore_failure ? restore_failure.message().c_str() : "ok");
    return query<sampled_profile_interval>(k).value() == profile_interval{20000} && !restore_failure ? 0 : 1;
}
