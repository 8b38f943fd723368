// Twin of interval_guard_temporary.fail.cpp: the guard is a named object that lives for the scope.
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

bool profile_fast(test_kernel& k) {
    etwctl::interval_guard fast(k, etwctl::timer_interval<1250>);
    // ... profile ...
    return !fast.error();
}
