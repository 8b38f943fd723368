// expect: ignoring (return value|temporary).*nodiscard
// expect-gcc: profile_source_guard
// Misuse: a profile-source guard written as a temporary configures the session and puts the old
// configuration back at once. Its constructor is [[nodiscard]]: with -Werror this does not compile.
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

void use_counters(test_kernel& k, etwctl::session_handle session) {
    etwctl::profile_source_setting const settings[] = {{etwctl::profile_source::time, {}}};
    etwctl::basic_profile_source_guard<test_kernel>(k, session, settings);
}
