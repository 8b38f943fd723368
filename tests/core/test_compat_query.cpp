// TraceQueryInformation (SECHOST of Windows 10): checks, return-length rules, kernel requests, output placement.
#include "sim_fixture.hpp"

using namespace etwctl;
using namespace etwctl_test;

namespace {
std::uint32_t query(machine& m, std::uint64_t session, std::uint32_t cls, void* info, std::uint32_t len, std::uint32_t* ret) {
    return compat::trace_query_information(m.k, session, cls, info, len, ret);
}
constexpr std::uint32_t untouched = 0xA5A5A5A5U;
} // namespace

TEST_CASE("query: only classes 4, 5, 7, 0xB and 0xE are supported; others are ERROR_NOT_SUPPORTED") {
    machine m;
    std::uint32_t buf[64];
    for (std::uint32_t cls = 0; cls < 64; ++cls) {
        bool const supported = cls == 4 || cls == 5 || cls == 7 || cls == 11 || cls == 14;
        if (supported) continue;
        std::uint32_t ret = untouched;
        CAPTURE(cls);
        CHECK(query(m, 0, cls, buf, sizeof buf, &ret) == win32::not_supported);
        CHECK(ret == untouched);
    }
    CHECK(m.k.request_count() == 0);
}

TEST_CASE("query TraceSystemTraceEnableFlagsInfo (4): ReturnLength 32, ERROR_BAD_LENGTH when smaller") {
    machine m;
    std::uint32_t set_masks[8] = {0x7, 0x606};
    REQUIRE(compat::trace_set_information(m.k, m.kernel_session, 4, set_masks, sizeof set_masks) == 0);
    m.k.clear_requests();

    std::uint32_t out[10];
    std::fill(std::begin(out), std::end(out), untouched);
    std::uint32_t ret = 0;
    CHECK(query(m, m.kernel_session, 4, out, 31, &ret) == win32::bad_length);
    CHECK(ret == 32);
    CHECK(out[0] == untouched);
    CHECK(m.k.request_count() == 0);

    REQUIRE(query(m, m.kernel_session, 4, out, 40, &ret) == win32::success);
    CHECK(ret == 32);
    // The kernel reports the Masks[0] alias bits of PROFILE, CSWITCH and DISPATCHER (0x606 in Masks[1]).
    CHECK(out[0] == (0x7U | 0x10U | 0x800U | 0x01000000U));
    CHECK(out[1] == 0x606U);
    CHECK(out[8] == untouched);             // nothing past the 32 bytes
    CHECK(out[9] == untouched);
    auto const& r = m.k.last_request();
    CHECK(r.function == kernel_function::nt_query_system_information);
    CHECK(r.length == 0x30);
    CHECK(u32_at(r.bytes, 0) == 0x01);
    CHECK(u64_at(r.bytes, 8) == 0xFFFF);

    CHECK(query(m, m.kernel_session, 4, out, 32, nullptr) == win32::success); // ReturnLength may be NULL
    CHECK(query(m, m.kernel_session, 4, nullptr, 32, &ret) == win32::invalid_parameter);
    CHECK(query(m, 0x77, 4, out, 32, &ret) == win32::wmi_instance_not_found);
}

TEST_CASE("query TraceSampledProfileIntervalInfo (5): session 0, exactly 8 bytes, Source in, Interval out") {
    machine m;
    trace_profile_interval tpi{0, untouched};
    std::uint32_t ret = untouched;
    CHECK(query(m, 5, 5, &tpi, 8, &ret) == win32::invalid_parameter);
    CHECK(ret == untouched); // the session check comes before ReturnLength is set
    CHECK(query(m, 0, 5, &tpi, 9, &ret) == win32::bad_length);
    CHECK(ret == 8);
    CHECK(query(m, 0, 5, &tpi, 4, &ret) == win32::bad_length);
    CHECK(m.k.request_count() == 0);

    SUBCASE("ProfileTime -> kernel class 3") {
        REQUIRE(query(m, 0, 5, &tpi, 8, &ret) == win32::success);
        CHECK(tpi.source == 0);
        CHECK(tpi.interval == 10000); // the default 1 ms
        auto const& r = m.k.last_request();
        CHECK(r.function == kernel_function::nt_query_system_information);
        CHECK(r.length == 8);
        CHECK(u32_at(r.bytes, 0) == 0x03);
    }
    SUBCASE("other sources -> NtQueryIntervalProfile(Source); unknown sources read as 0") {
        trace_profile_interval pmc{26, untouched};
        REQUIRE(query(m, 0, 5, &pmc, 8, &ret) == win32::success);
        CHECK(pmc.source == 26);
        CHECK(pmc.interval == sim::pmc_default);
        CHECK(m.k.last_request().function == kernel_function::nt_query_interval_profile);
        CHECK(m.k.last_request().code == 26);
        trace_profile_interval none{0x70, untouched};
        REQUIRE(query(m, 0, 5, &none, 8, &ret) == win32::success);
        CHECK(none.interval == 0);
    }
    SUBCASE("a missing NtQueryIntervalProfile (as on Wine) is an error, not a crash") {
        m.k.set_available(kernel_function::nt_query_interval_profile, false);
        trace_profile_interval pmc{26, untouched};
        CHECK(query(m, 0, 5, &pmc, 8, &ret) == win32::proc_not_found);
        CHECK(pmc.interval == untouched);
    }
}

TEST_CASE("query TraceProfileSourceListInfo (7): session 0; size probe; records moved to the buffer's start") {
    machine m;
    std::uint32_t ret = 0;
    CHECK(query(m, 1, 7, nullptr, 0, &ret) == win32::invalid_parameter);

    // The size probe: NULL buffer -> ERROR_BAD_LENGTH and the size that suffices.
    REQUIRE(query(m, 0, 7, nullptr, 0, &ret) == win32::bad_length);
    std::uint32_t const needed = ret;
    CHECK(needed > 8);
    auto const& probe = m.k.last_request();
    CHECK(probe.length == 8);
    CHECK(u32_at(probe.bytes, 0) == 0x0D); // EventTraceProfileSourceListInformation

    std::vector<std::byte> buf(needed + 16, std::byte{0xA5});
    CHECK(query(m, 0, 7, buf.data(), needed - 1, &ret) == win32::bad_length);
    CHECK(ret == needed);
    REQUIRE(query(m, 0, 7, buf.data(), needed, &ret) == win32::success);
    CHECK(ret == needed - 8);
    CHECK(buf[needed] == std::byte{0xA5}); // nothing past the length given
    profile_source_list_view view;
    REQUIRE(profile_source_list_view::parse(std::span<std::byte const>(buf.data(), ret), view) == rule::ok);
    CHECK(view.size() == std::size(sim::typical_intel_profile_sources));
    profile_source_entry timer;
    REQUIRE(view.find(0, timer));
    CHECK(timer.min_interval() == 1221);
    CHECK(timer.max_interval() == 1000000);
    char name[32];
    timer.description_ascii(name);
    CHECK(std::string(name) == "Timer");
}

TEST_CASE("query TraceVersionInfo (0xB): answered without the kernel; Reserved untouched") {
    machine m;
    trace_version_info v{untouched, untouched};
    std::uint32_t ret = untouched;
    CHECK(query(m, 1, 11, &v, 8, &ret) == win32::invalid_parameter);
    CHECK(query(m, 0, 11, &v, 9, &ret) == win32::bad_length);
    CHECK(ret == 8);
    CHECK(query(m, 0, 11, &v, 7, &ret) == win32::bad_length);
    CHECK(query(m, 0, 11, nullptr, 8, &ret) == win32::invalid_parameter);
    REQUIRE(query(m, 0, 11, &v, 8, &ret) == win32::success);
    CHECK(v.etw_trace_processing_version == 1);
    CHECK(v.reserved == untouched);
    CHECK(ret == 8);
    CHECK(m.k.request_count() == 0);
}

TEST_CASE("query TraceDisallowListQuery (0xE): NtTraceControl(0x22) with the 8-byte TRACEHANDLE") {
    machine m;
    guid set_guids[3] = {guid::from_string("11111111-2222-3333-4444-555555555555"),
                         guid::from_string("66666666-7777-8888-9999-aaaaaaaaaaaa"),
                         guid::from_string("bbbbbbbb-cccc-dddd-eeee-ffffffffffff")};
    REQUIRE(compat::trace_set_information(m.k, m.kernel_session, 10, set_guids, sizeof set_guids) == 0);
    guid out[4] = {};
    std::uint32_t ret = 0;
    CHECK(query(m, m.kernel_session, 14, nullptr, 16, &ret) == win32::invalid_parameter);
    CHECK(query(m, m.kernel_session, 14, out, 32, &ret) == win32::insufficient_buffer);
    CHECK(ret == 48);
    auto const& r = m.k.last_request();
    CHECK(r.code == 0x22);
    CHECK(r.length == 8);
    CHECK(u64_at(r.bytes, 0) == 0xFFFF);
    REQUIRE(query(m, m.kernel_session, 14, out, sizeof out, &ret) == win32::success);
    CHECK(ret == 48);
    CHECK(out[2] == set_guids[2]);
    CHECK(out[3] == guid{});
    CHECK(query(m, m.kernel_session, 14, nullptr, 0, &ret) == win32::insufficient_buffer); // size probe
    CHECK(ret == 48);
}

TEST_CASE("query: kernel failures map through RtlNtStatusToDosError; Wine's NtQuerySystemInformation answer too") {
    machine m;
    std::uint32_t out[8];
    std::uint32_t ret = 0;
    m.k.inject(ntstatus::invalid_info_class); // what Wine answers for SystemPerformanceTraceInformation
    CHECK(query(m, m.kernel_session, 4, out, 32, &ret) == win32::invalid_parameter);
    m.k.inject(ntstatus::privilege_not_held);
    trace_profile_interval tpi{0, 0};
    CHECK(query(m, 0, 5, &tpi, 8, &ret) == win32::privilege_not_held);
}
