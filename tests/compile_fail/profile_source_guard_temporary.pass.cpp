// Twin of profile_source_guard_temporary.fail.cpp: the guard is a named object.
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

bool use_counters(test_kernel& k, etwctl::session_handle session) {
    etwctl::profile_source_setting const settings[] = {{etwctl::profile_source::time, {}}};
    etwctl::basic_profile_source_guard<test_kernel> sources(k, session, settings);
    return !sources.error();
}
