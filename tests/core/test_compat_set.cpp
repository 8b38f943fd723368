// TraceSetInformation (SECHOST of Windows 10): every check, every error code, every kernel request, byte for byte.
#include "sim_fixture.hpp"

using namespace etwctl;
using namespace etwctl_test;

namespace {
std::uint32_t set(machine& m, std::uint64_t session, std::uint32_t cls, void const* info, std::uint32_t len) {
    return compat::trace_set_information(m.k, session, cls, info, len);
}
} // namespace

TEST_CASE("set: only classes 3, 4, 5, 6, 8, 9 and 0xA are supported; others are ERROR_NOT_SUPPORTED without a call") {
    machine m;
    std::uint32_t buf[64] = {};
    for (std::uint32_t cls = 0; cls < 64; ++cls) {
        bool const supported = cls == 3 || cls == 4 || cls == 5 || cls == 6 || cls == 8 || cls == 9 || cls == 10;
        m.k.clear_requests();
        std::uint32_t const r = set(m, m.kernel_session, cls, buf, 8);
        if (!supported) {
            CAPTURE(cls);
            CHECK(r == win32::not_supported);
            CHECK(m.k.request_count() == 0);
        }
    }
    CHECK(set(m, 0, 0xFFFFFFFFU, nullptr, 0) == win32::not_supported);
}

TEST_CASE("set TraceStackTracingInfo (3): size rules") {
    machine m;
    std::vector<classic_event_id> events(257, event(0x05, 0x24));
    SUBCASE("not a whole number of CLASSIC_EVENT_IDs -> ERROR_INCORRECT_SIZE") {
        CHECK(set(m, m.kernel_session, 3, events.data(), 25) == win32::incorrect_size);
        CHECK(set(m, m.kernel_session, 3, events.data(), 23) == win32::incorrect_size);
        CHECK(m.k.request_count() == 0);
    }
    SUBCASE("more than 256 -> ERROR_INCORRECT_SIZE; exactly 256 is accepted") {
        CHECK(set(m, m.kernel_session, 3, events.data(), 24 * 257) == win32::incorrect_size);
        CHECK(m.k.request_count() == 0);
        CHECK(set(m, m.kernel_session, 3, events.data(), 24 * 256) == win32::success);
        CHECK(m.k.last_request().length == 0x10 + 4 * 256);
    }
    SUBCASE("empty with a non-NULL address -> ERROR_INVALID_PARAMETER; empty with NULL disables stacks") {
        CHECK(set(m, m.kernel_session, 3, events.data(), 0) == win32::invalid_parameter);
        CHECK(m.k.request_count() == 0);
        REQUIRE(set(m, m.kernel_session, 3, events.data(), 24) == win32::success);
        CHECK(m.k.stack_tracing_hooks(0xFFFF).size() == 1);
        CHECK(set(m, m.kernel_session, 3, nullptr, 0) == win32::success);
        CHECK(m.k.last_request().length == 0x10);
        CHECK(m.k.stack_tracing_hooks(0xFFFF).empty());
    }
    SUBCASE("NULL with a non-zero length -> ERROR_INVALID_PARAMETER (no fault)") {
        CHECK(set(m, m.kernel_session, 3, nullptr, 24) == win32::invalid_parameter);
        CHECK(m.k.request_count() == 0);
    }
}

TEST_CASE("set TraceStackTracingInfo (3): the kernel request is EVENT_TRACE_SYSTEM_EVENT_INFORMATION with 32-bit hook ids") {
    machine m;
    classic_event_id events[4] = {event(0x05, 0x24), event(0x0F, 0x2E), event(0x05, 0x32), event(0x14, 0x0A)};
    REQUIRE(set(m, m.kernel_session, 3, events, sizeof events) == win32::success);
    auto const& r = m.k.last_request();
    CHECK(r.function == kernel_function::nt_set_system_information);
    CHECK(r.code == 0x1F); // SystemPerformanceTraceInformation
    CHECK(r.length == 0x10 + 4 * 4);
    CHECK(u32_at(r.bytes, 0) == 0x06);         // EventTraceStackTracingInformation
    CHECK(u32_at(r.bytes, 4) == 0);            // padding
    CHECK(u64_at(r.bytes, 8) == 0xFFFF);       // TraceHandle = SessionHandle
    CHECK(ids_of(r) == std::vector<std::uint32_t>{0x0524, 0x0F2E, 0x0532, 0x140A}); // (group << 8) | Type
    CHECK(m.k.stack_tracing_hooks(0xFFFF).size() == 4);
}

TEST_CASE("set TraceStackTracingInfo (3): CLASSIC_EVENT_IDs with unknown GUIDs are skipped; Reserved is ignored") {
    machine m;
    classic_event_id unknown{};
    unknown.event_guid = guid::from_string("01234567-89ab-cdef-0123-456789abcdef");
    unknown.type = 0x24;
    classic_event_id known = event(0x05, 0x24);
    known.reserved[0] = 0xAA;
    classic_event_id system_trace_control{}; // SystemTraceControlGuid is not an event group GUID
    system_trace_control.event_guid = guid::from_string("9e814aad-3204-11d2-9a82-006008a86939");
    classic_event_id events[3] = {unknown, known, system_trace_control};
    REQUIRE(set(m, m.kernel_session, 3, events, sizeof events) == win32::success);
    CHECK(ids_of(m.k.last_request()) == std::vector<std::uint32_t>{0x0524});
    CHECK(m.k.last_request().length == 0x14);
}

TEST_CASE("set TraceStackTracingInfo (3): each call replaces the previous list") {
    machine m;
    classic_event_id a[2] = {event(0x05, 0x24), event(0x05, 0x32)};
    classic_event_id b[1] = {event(0x0F, 0x2E)};
    REQUIRE(set(m, m.kernel_session, 3, a, sizeof a) == 0);
    REQUIRE(set(m, m.kernel_session, 3, b, sizeof b) == 0);
    auto const hooks = m.k.stack_tracing_hooks(0xFFFF);
    REQUIRE(hooks.size() == 1);
    CHECK(hooks[0] == 0x0F2E);
}

TEST_CASE("set TraceStackTracingInfo (3): a caller buffer at any alignment is read byte-exactly") {
    machine m;
    alignas(8) unsigned char raw[24 + 3] = {};
    classic_event_id const e = event(0x05, 0x24);
    std::memcpy(raw + 3, &e, sizeof e);
    REQUIRE(set(m, m.kernel_session, 3, raw + 3, 24) == 0);
    CHECK(ids_of(m.k.last_request()) == std::vector<std::uint32_t>{0x0524});
}

TEST_CASE("set TraceSystemTraceEnableFlagsInfo (4): whole ULONGs, at most 8, rest sent as zero") {
    machine m;
    std::uint32_t masks[9] = {0x7, 0x606, 0x40000040 & 0x1FFFFFFF, 0, 0, 0, 0, 0, 0xDEAD};
    CHECK(set(m, m.kernel_session, 4, masks, 3) == win32::invalid_parameter);
    CHECK(set(m, m.kernel_session, 4, masks, 33) == win32::invalid_parameter);
    CHECK(set(m, m.kernel_session, 4, masks, 36) == win32::invalid_parameter);
    CHECK(set(m, m.kernel_session, 4, nullptr, 8) == win32::invalid_parameter);
    CHECK(m.k.request_count() == 0);

    REQUIRE(set(m, m.kernel_session, 4, masks, 8) == win32::success);
    auto const& r = m.k.last_request();
    CHECK(r.length == 0x30);
    CHECK(u32_at(r.bytes, 0) == 0x01); // EventTraceGroupMaskInformation
    CHECK(u64_at(r.bytes, 8) == 0xFFFF);
    CHECK(u32_at(r.bytes, 0x10) == 0x7);
    CHECK(u32_at(r.bytes, 0x14) == 0x606);
    for (std::size_t i = 2; i < 8; ++i) CHECK(u32_at(r.bytes, 0x10 + 4 * i) == 0); // not given -> 0

    REQUIRE(set(m, m.kernel_session, 4, masks, 32) == win32::success);
    CHECK(u32_at(m.k.last_request().bytes, 0x18) == (0x40000040U & 0x1FFFFFFFU));
    REQUIRE(set(m, m.kernel_session, 4, nullptr, 0) == win32::success); // zero masks: all groups off
    CHECK(m.k.group_masks(0xFFFF).empty());
}

TEST_CASE("set TraceSampledProfileIntervalInfo (5): session 0, exactly 8 bytes, timer vs other sources") {
    machine m;
    trace_profile_interval tpi{0, 5000};
    CHECK(set(m, 1, 5, &tpi, 8) == win32::invalid_parameter);   // session must be 0
    CHECK(set(m, 1, 5, &tpi, 7) == win32::invalid_parameter);   // ... checked before the length
    CHECK(set(m, 0, 5, &tpi, 7) == win32::bad_length);
    CHECK(set(m, 0, 5, &tpi, 9) == win32::bad_length);
    CHECK(set(m, 0, 5, nullptr, 8) == win32::invalid_parameter);
    CHECK(m.k.request_count() == 0);

    SUBCASE("ProfileTime -> EVENT_TRACE_TIME_PROFILE_INFORMATION through NtSetSystemInformation") {
        REQUIRE(set(m, 0, 5, &tpi, 8) == win32::success);
        auto const& r = m.k.last_request();
        CHECK(r.function == kernel_function::nt_set_system_information);
        CHECK(r.length == 8);
        CHECK(u32_at(r.bytes, 0) == 0x03);
        CHECK(u32_at(r.bytes, 4) == 5000);
        CHECK(m.k.interval(0) == 5000);
    }
    SUBCASE("other sources -> NtSetIntervalProfile(Interval, Source)") {
        trace_profile_interval const pmc{19, 100000};
        REQUIRE(set(m, 0, 5, &pmc, 8) == win32::success);
        auto const& r = m.k.last_request();
        CHECK(r.function == kernel_function::nt_set_interval_profile);
        CHECK(r.code == 19);
        CHECK(r.value == 100000);
        CHECK(m.k.interval(19) == 100000);
    }
}

TEST_CASE("set TraceProfileSourceConfigInfo (6): 1..4 whole ULONGs; session forwarded") {
    machine m;
    std::uint32_t sources[5] = {19, 26, 2, 6, 10};
    CHECK(set(m, m.kernel_session, 6, sources, 5) == win32::incorrect_size);
    CHECK(set(m, m.kernel_session, 6, sources, 20) == win32::incorrect_size);
    CHECK(set(m, m.kernel_session, 6, sources, 0) == win32::invalid_parameter);
    CHECK(set(m, m.kernel_session, 6, nullptr, 0) == win32::invalid_parameter);
    CHECK(set(m, m.kernel_session, 6, nullptr, 4) == win32::invalid_parameter);
    CHECK(set(m, m.kernel_session, 6, nullptr, 5) == win32::incorrect_size); // size is checked first
    CHECK(m.k.request_count() == 0);
    REQUIRE(set(m, m.kernel_session, 6, sources, 16) == win32::success);
    auto const& r = m.k.last_request();
    CHECK(r.length == 0x10 + 16);
    CHECK(u32_at(r.bytes, 0) == 0x0C); // EventTraceProfileConfigInformation
    CHECK(u64_at(r.bytes, 8) == 0xFFFF);
    CHECK(ids_of(r) == std::vector<std::uint32_t>{19, 26, 2, 6});
}

TEST_CASE("set TracePmcEventListInfo (8): <= 4 CLASSIC_EVENT_IDs, empty only with NULL, class 0x0E") {
    machine m;
    classic_event_id events[5] = {event(0x05, 0x24), event(0x0F, 0x2E), event(0x05, 0x32), event(0x03, 0x01), event(0x03, 0x02)};
    CHECK(set(m, m.kernel_session, 8, events, 24 * 5) == win32::incorrect_size);
    CHECK(set(m, m.kernel_session, 8, events, 30) == win32::incorrect_size);
    CHECK(set(m, m.kernel_session, 8, events, 0) == win32::invalid_parameter);
    CHECK(set(m, m.kernel_session, 8, nullptr, 24) == win32::invalid_parameter);
    CHECK(m.k.request_count() == 0);
    classic_event_id with_unknown[2] = {event(0x05, 0x24), {}};
    with_unknown[1].event_guid = guid::from_string("ffffffff-ffff-ffff-ffff-ffffffffffff");
    REQUIRE(set(m, m.kernel_session, 8, with_unknown, sizeof with_unknown) == win32::success);
    auto const& r = m.k.last_request();
    CHECK(u32_at(r.bytes, 0) == 0x0E); // EventTraceProfileEventListInformation
    CHECK(ids_of(r) == std::vector<std::uint32_t>{0x0524});
}

TEST_CASE("set TracePmcCounterListInfo (9): 1..4 whole ULONGs, class 0x0F") {
    machine m;
    std::uint32_t counters[5] = {19, 26, 2, 6, 10};
    CHECK(set(m, m.kernel_session, 9, counters, 20) == win32::incorrect_size);
    CHECK(set(m, m.kernel_session, 9, counters, 6) == win32::incorrect_size);
    CHECK(set(m, m.kernel_session, 9, counters, 0) == win32::invalid_parameter);
    CHECK(set(m, m.kernel_session, 9, nullptr, 8) == win32::invalid_parameter);
    CHECK(m.k.request_count() == 0);
    REQUIRE(set(m, m.kernel_session, 9, counters, 8) == win32::success);
    auto const& r = m.k.last_request();
    CHECK(u32_at(r.bytes, 0) == 0x0F);
    CHECK(ids_of(r) == std::vector<std::uint32_t>{19, 26});
}

TEST_CASE("set TraceSetDisallowList (0xA): NtTraceControl(0x1C) with {logger id, count, GUIDs}") {
    machine m;
    guid guids[2] = {guid::from_string("11111111-2222-3333-4444-555555555555"),
                     guid::from_string("66666666-7777-8888-9999-aaaaaaaaaaaa")};
    CHECK(set(m, m.kernel_session, 10, guids, 17) == win32::incorrect_size);
    CHECK(set(m, m.kernel_session, 10, guids, 0) == win32::invalid_parameter);
    CHECK(set(m, m.kernel_session, 10, nullptr, 16) == win32::invalid_parameter);
    std::vector<guid> too_many(257);
    CHECK(set(m, m.kernel_session, 10, too_many.data(), 16 * 257) == win32::incorrect_size);
    CHECK(m.k.request_count() == 0);
    REQUIRE(set(m, m.kernel_session, 10, guids, sizeof guids) == win32::success);
    auto const& r = m.k.last_request();
    CHECK(r.function == kernel_function::nt_trace_control);
    CHECK(r.code == 0x1C);
    CHECK(r.length == 8 + 32);
    CHECK(u32_at(r.bytes, 0) == 0xFFFF);
    CHECK(u32_at(r.bytes, 4) == 2);
    CHECK(std::memcmp(r.bytes.data() + 8, guids, 32) == 0);
    CHECK(m.k.disallow_list(0xFFFF).size() == 2);
    REQUIRE(set(m, m.kernel_session, 10, nullptr, 0) == win32::success); // clears
    CHECK(m.k.disallow_list(0xFFFF).empty());
}

TEST_CASE("set: kernel failures are returned as RtlNtStatusToDosError maps them") {
    machine m;
    classic_event_id e[1] = {event(0x05, 0x24)};
    CHECK(set(m, 0x1234, 3, e, 24) == win32::wmi_instance_not_found); // no logger 0x1234
    std::uint64_t const user = m.k.start_logger(3, {.system_logger_mode = false});
    CHECK(set(m, user, 3, e, 24) == win32::invalid_parameter); // not a system logger
    m.k.inject(ntstatus::insufficient_resources);
    CHECK(set(m, m.kernel_session, 3, e, 24) == win32::no_system_resources);
    m.k.inject(ntstatus::access_denied);
    std::uint32_t masks[8] = {1};
    CHECK(set(m, m.kernel_session, 4, masks, 32) == win32::access_denied);
    m.k.inject(static_cast<std::int32_t>(0xC0FFEE01U));
    CHECK(set(m, m.kernel_session, 4, masks, 32) == win32::mr_mid_not_found);
    m.k.inject(ntstatus::more_entries); // informational: success
    CHECK(set(m, m.kernel_session, 4, masks, 32) == win32::success);
}
