// EtwGetTraceEnableFlags and TraceLoggingSetInformation / EventSetInformation.
#include "sim_fixture.hpp"

using namespace etwctl;
using namespace etwctl_test;

TEST_CASE("get_trace_enable_flags: the high 32 bits of a valid TRACE_ENABLE_CONTEXT") {
    std::uint32_t error = 12345;
    CHECK(compat::get_trace_enable_flags(0x0000000500040005ULL, &error) == 5);
    CHECK(error == 0);
    CHECK(compat::get_trace_enable_flags(0xDEADBEEF0000FFFFULL, &error) == 0xDEADBEEFU); // NT Kernel Logger
    CHECK(error == 0);
    CHECK(compat::get_trace_enable_flags(0x1234567800000000ULL | 63, &error) == 0x12345678U);
    CHECK(error == 0);
    CHECK(compat::get_trace_enable_flags(0x0000000000000000ULL, nullptr) == 0); // error may be NULL
}

TEST_CASE("get_trace_enable_flags: zero handle and logger ids >= 64 (but 0xFFFF) -> 0 with ERROR_INVALID_HANDLE") {
    std::uint32_t error = 0;
    CHECK(compat::get_trace_enable_flags(0, &error) == 0);
    CHECK(error == win32::invalid_handle);
    error = 0;
    CHECK(compat::get_trace_enable_flags(0xFFFFFFFF00000040ULL, &error) == 0); // logger 64
    CHECK(error == win32::invalid_handle);
    error = 0;
    CHECK(compat::get_trace_enable_flags(0x000000010000FFFEULL, &error) == 0);
    CHECK(error == win32::invalid_handle);
    // Zero logger id with flags is a valid context (logger 0 exists).
    CHECK(compat::get_trace_enable_flags(0x0000000100000000ULL, &error) == 1);
    CHECK(error == 0);
}

TEST_CASE("enable_context decodes at compile time and agrees with get_trace_enable_flags") {
    constexpr enable_context c{0x0000AB12'3405'0007ULL};
    static_assert(c.logger_id().value == 7 && c.level() == 5 && c.internal_flag() == 0x34 && c.enable_flags() == 0xAB12);
    static_assert(enable_context::make(kernel_logger, 4, 0x10).handle == 0x000000100004FFFFULL);
    for (std::uint64_t h : {0ULL, 1ULL, 0x40ULL, 0x3FULL, 0xFFFFULL, 0x123456789ABCDEF0ULL, 0xFFFFFFFFFFFFFFFFULL}) {
        std::uint32_t error = 0;
        std::uint32_t const flags = compat::get_trace_enable_flags(h, &error);
        enable_context const ctx{h};
        CAPTURE(h);
        CHECK(ctx.valid() == (error == 0));
        CHECK(flags == (ctx.valid() ? ctx.enable_flags() : 0U));
        CHECK(enable_flags_of(h) == flags);
    }
}

TEST_CASE("tracelogging_set_information: policy 'disabled' returns HRESULT_FROM_WIN32(ERROR_NOT_SUPPORTED) without a call") {
    machine m;
    auto const reg = m.k.register_provider();
    auto const traits = make_provider_traits("P");
    std::int32_t const hr = compat::tracelogging_set_information<event_set_information_policy::disabled>(
        m.k, reg, 2, traits.bytes, traits.size());
    CHECK(static_cast<std::uint32_t>(hr) == 0x80070032U);
    CHECK(m.k.request_count() == 0);
    CHECK_FALSE(m.k.traits_set(reg));
}

TEST_CASE("tracelogging_set_information: 'dynamic' checks availability; 'direct' calls") {
    machine m;
    auto const reg = m.k.register_provider();
    unsigned char const yes = 1;
    m.k.set_available(kernel_function::event_set_information, false);
    CHECK(static_cast<std::uint32_t>(compat::tracelogging_set_information<event_set_information_policy::dynamic>(m.k, reg, 3, &yes, 1)) ==
          0x80070032U);
    CHECK(m.k.request_count() == 0);
    // direct: calls; a missing export surfaces as the kernel layer's ERROR_PROC_NOT_FOUND.
    CHECK(static_cast<std::uint32_t>(compat::tracelogging_set_information<event_set_information_policy::direct>(m.k, reg, 3, &yes, 1)) ==
          0x8007007FU);
    m.k.set_available(kernel_function::event_set_information, true);
    CHECK(compat::tracelogging_set_information<event_set_information_policy::dynamic>(m.k, reg, 3, &yes, 1) == 0);
    CHECK(m.k.uses_descriptor_type(reg));
    // With no ETWCTL_HAVE_EVENT_SET_INFORMATION, every supported target (Windows 8+) calls directly.
    static_assert(default_event_set_information_policy == event_set_information_policy::direct);
}

TEST_CASE("EventSetInformation's checks, as HRESULTs") {
    machine m;
    auto const reg = m.k.register_provider();
    auto hr = [&](std::uint32_t cls, void const* info, std::uint32_t len, std::uint64_t handle = 0) {
        return static_cast<std::uint32_t>(compat::tracelogging_set_information(m.k, handle ? handle : reg, cls, info, len));
    };
    unsigned char const b[4] = {1, 0, 0, 0};
    CHECK(hr(0, nullptr, 0) == 0); // binary tracking
    CHECK(m.k.binary_tracked(reg));
    CHECK(hr(0, b, 1) == 0x80070057U);
    CHECK(hr(1, b, 1) == 0x80070032U); // reserved class
    CHECK(hr(4, nullptr, 0) == 0x80070032U);
    CHECK(hr(99, b, 1) == 0x80070032U);
    CHECK(hr(2, nullptr, 3) == 0x80070057U);
    CHECK(hr(2, b, 2) == 0x80070057U);
    CHECK(hr(2, b, 0x10000) == 0x80070057U);
    CHECK(hr(3, nullptr, 1) == 0x80070057U);
    CHECK(hr(3, b, 2) == 0x80070057U);
    unsigned char const two = 2;
    CHECK(hr(3, &two, 1) == 0x80070057U); // the kernel refuses a BOOLEAN other than 0/1
    CHECK(hr(3, b, 1, 0xBAD) == 0x80070006U); // unknown registration handle
    CHECK(hr(3, b, 1) == 0);
}

TEST_CASE("provider traits: well-formed once per registration; malformed -> ERROR_FILE_CORRUPT; classic refused") {
    machine m;
    auto const reg = m.k.register_provider();
    auto hr = [&](std::uint64_t r, void const* info, std::uint32_t len) {
        return static_cast<std::uint32_t>(compat::tracelogging_set_information(m.k, r, 2, info, len));
    };
    unsigned char bad_size[4] = {5, 0, 'A', 0};       // size field 5 != length 4
    unsigned char no_nul[4] = {4, 0, 'A', 'B'};        // name without NUL
    unsigned char bad_trait[6] = {6, 0, 0, 2, 0, 1};   // trait of size 2 (< 3)
    CHECK(hr(reg, bad_size, 4) == 0x80070570U);        // HRESULT_FROM_WIN32(ERROR_FILE_CORRUPT 1392)
    CHECK(hr(reg, no_nul, 4) == 0x80070570U);
    CHECK(hr(reg, bad_trait, 6) == 0x80070570U);
    auto const traits = make_provider_traits("Engine", guid::from_string("4f50731a-89cf-4782-b3e0-dce8c90476ba"));
    CHECK(hr(reg, traits.bytes, traits.size()) == 0);
    CHECK(m.k.traits_set(reg));
    CHECK(m.k.uses_descriptor_type(reg)); // traits also turn on EVENT_DATA_DESCRIPTOR.Type
    CHECK(hr(reg, traits.bytes, traits.size()) == 0x8007001FU); // once: ERROR_GEN_FAILURE
    auto const classic = m.k.register_provider(sim::provider_kind::classic);
    CHECK(hr(classic, traits.bytes, traits.size()) == 0x80070057U);
    unsigned char const minimal[3] = {3, 0, 0}; // empty name, no traits: the smallest valid blob
    CHECK(hr(m.k.register_provider(), minimal, 3) == 0);
}
