// expect: ignoring return(ed)? value of (type|function).*nodiscard
// expect-gcc: pmc_report
// expect-clang: pmc_report
// Misuse: setup_pmc's report thrown away, so a failed setup goes unseen. pmc_report is [[nodiscard]]:
// with the strict flags (-Werror) this does not compile.
#include <cstdint>

#include "etwctl/etwctl.hpp"

// A kernel declared, not defined (-fsyntax-only): these tests need no simulated kernel.
struct test_kernel {
    std::int32_t nt_set_system_information(std::uint32_t, void const*, std::uint32_t) noexcept;
    std::int32_t nt_query_system_information(std::uint32_t, void*, std::uint32_t, std::uint32_t*) noexcept;
    std::int32_t nt_set_interval_profile(std::uint32_t, std::uint32_t) noexcept;
    std::int32_t nt_query_interval_profile(std::uint32_t, std::uint32_t*) noexcept;
    std::int32_t nt_trace_control(std::uint32_t, void const*, std::uint32_t, void*, std::uint32_t, std::uint32_t*) noexcept;
    std::uint32_t event_set_information(std::uint64_t, std::uint32_t, void const*, std::uint32_t) noexcept;
};

void configure(test_kernel& k, etwctl::session_handle session) {
    etwctl::pmc_counter const counters[] = {etwctl::pmc_counter::named("TotalCycles")};
    etwctl::setup_pmc(k, session, counters, etwctl::stack_walk<"CSwitch">);
}
