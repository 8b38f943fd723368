// Twin of pmc_report_discarded.fail.cpp: the report is looked at.
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

bool configure(test_kernel& k, etwctl::session_handle session) {
    etwctl::pmc_counter const counters[] = {etwctl::pmc_counter::named("TotalCycles")};
    etwctl::pmc_report const report = etwctl::setup_pmc(k, session, counters, etwctl::stack_walk<"CSwitch">);
    return report.ok();
}
