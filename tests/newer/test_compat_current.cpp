// The drop-in functions and classes 16-28: the default (Windows 10 RTM) still refuses them with
// ERROR_NOT_SUPPORTED; compat::current accepts them with the inferred checks and sends the same bytes as
// the typed API.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "etwctl/compat_current.hpp"
#include "etwctl/compat_structs.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/testing/sim_kernel.hpp"
#include "sim_fixture.hpp"

using namespace etwctl;
using etwctl_test::machine;
using etwctl_test::u32_at;
using etwctl_test::bytes_of;

TEST_CASE("compat default: every class from 16 on is ERROR_NOT_SUPPORTED, and nothing is sent") {
    machine m;
    unsigned char buf[64] = {};
    for (std::uint32_t c = 16; c <= 30; ++c) {
        CAPTURE(c);
        CHECK(compat::trace_set_information(m.k, m.kernel_session, c, buf, 12) == win32::not_supported);
        std::uint32_t returned = 0;
        CHECK(compat::trace_query_information(m.k, 0, c, buf, sizeof buf, &returned) == win32::not_supported);
    }
    CHECK(m.k.request_count() == 0);
}

TEST_CASE("compat::current: classes below 16 answer exactly as compat does") {
    machine m;
    unsigned char a[64] = {}, b[64] = {};
    for (std::uint32_t c = 0; c < 16; ++c) {
        CAPTURE(c);
        CHECK(compat::current::trace_set_information(m.k, 0, c, a, 8) == compat::trace_set_information(m.k, 0, c, b, 8));
        std::uint32_t ra = 0, rb = 0;
        CHECK(compat::current::trace_query_information(m.k, 0, c, a, 8, &ra) ==
              compat::trace_query_information(m.k, 0, c, b, 8, &rb));
        CHECK(ra == rb);
    }
}

TEST_CASE("compat::current: each set class sends what the typed API sends") {
    machine m;
    auto const s = m.kernel_session;
    SUBCASE("24 / 26 stack caching") {
        unsigned char info[12] = {1, 0, 0, 0};
        std::uint32_t const size = 8U << 20, buckets = 512;
        std::memcpy(info + 4, &size, 4);
        std::memcpy(info + 8, &buckets, 4);
        REQUIRE(compat::current::trace_set_information(m.k, s, 24, info, 12) == 0);
        auto const raw = bytes_of(m.k.last_request());
        auto const other = m.k.start_logger(2);
        REQUIRE_FALSE(set<stack_caching>(m.k, other, stack_cache_size{size}, stack_cache_buckets{buckets}));
        auto typed = bytes_of(m.k.last_request());
        typed[8] = static_cast<std::byte>(s & 0xFF); // the handles differ
        typed[9] = static_cast<std::byte>((s >> 8) & 0xFF);
        CHECK(raw == typed);
        // Enabled = 0 reaches the kernel, which refuses it
        info[0] = 0;
        CHECK(compat::current::trace_set_information(m.k, s, 26, info, 12) == win32::not_supported);
        CHECK(compat::current::trace_set_information(m.k, s, 24, info, 11) == win32::bad_length);
        info[0] = 1;
        CHECK(compat::current::trace_set_information(m.k, s, 24, info, 12) == win32::wmi_already_enabled);
    }
    SUBCASE("20 / 21 LBR") {
        std::uint32_t options = lbr::exclude_user;
        CHECK(compat::current::trace_set_information(m.k, s, 20, &options, 4) == 0);
        CHECK(u32_at(m.k.last_request().bytes, 0x10) == lbr::exclude_user);
        options = 3;
        CHECK(compat::current::trace_set_information(m.k, s, 20, &options, 4) == win32::invalid_parameter);
        CHECK(compat::current::trace_set_information(m.k, s, 20, &options, 8) == win32::bad_length);
        std::uint32_t const hooks[5] = {0x0524, 0x0532, 0x0F2E, 0x0F2F, 0x0F30};
        CHECK(compat::current::trace_set_information(m.k, s, 21, hooks, 8) == 0);
        auto const raw = bytes_of(m.k.last_request());
        REQUIRE_FALSE(set<lbr_event_list>(m.k, s, stack_walk<"CSwitch+ReadyThread">));
        CHECK(raw == bytes_of(m.k.last_request()));
        CHECK(compat::current::trace_set_information(m.k, s, 21, hooks, 20) == win32::implementation_limit);
        CHECK(compat::current::trace_set_information(m.k, s, 21, hooks, 7) == win32::incorrect_size);
    }
    SUBCASE("28 context registers: CLASSIC_EVENT_IDs become hook ids") {
        unsigned char info[8 + 2 * 24] = {};
        std::uint32_t const types = context_registers::both;
        std::memcpy(info, &types, 4);
        auto const cswitch = etwctl_test::event(0x05, 0x24);
        auto const ready = etwctl_test::event(0x05, 0x32);
        std::memcpy(info + 8, &cswitch, 24);
        std::memcpy(info + 32, &ready, 24);
        CHECK(compat::current::trace_set_information(m.k, s, 28, info, sizeof info) == 0);
        auto const raw = bytes_of(m.k.last_request());
        REQUIRE_FALSE(set<context_register>(m.k, s, stack_walk<"CSwitch+ReadyThread">));
        CHECK(raw == bytes_of(m.k.last_request()));
        CHECK(compat::current::trace_set_information(m.k, s, 28, info, 8 + 24 + 1) == win32::incorrect_size);
        std::vector<unsigned char> nine(8 + 9 * 24, 0);
        CHECK(compat::current::trace_set_information(m.k, s, 28, nine.data(), static_cast<std::uint32_t>(nine.size())) ==
              win32::incorrect_size);
    }
    SUBCASE("18 binary tracking and 16 periodic capture") {
        unsigned char const on = 1;
        CHECK(compat::current::trace_set_information(m.k, s, 18, &on, 1) == 0);
        CHECK(m.k.current_windows().state(limits::kernel_logger_id).binary_tracking);
        CHECK(compat::current::trace_set_information(m.k, s, 18, &on, 4) == win32::bad_length);
        unsigned char capture[8 + 16] = {30, 0, 0, 0, 1, 0, 0, 0, 0xAB};
        CHECK(compat::current::trace_set_information(m.k, s, 16, capture, sizeof capture) == 0);
        auto const& r = m.k.last_request();
        CHECK(r.code == 0x25);
        CHECK(r.length == 12 + 16);
        CHECK(u32_at(r.bytes, 0) == 0xFFFF);
        CHECK(u32_at(r.bytes, 4) == 30);
        CHECK(std::to_integer<int>(r.bytes[12]) == 0xAB);
        CHECK(compat::current::trace_set_information(m.k, s, 16, capture, sizeof capture - 1) == win32::incorrect_size);
        CHECK(compat::current::trace_set_information(m.k, s, 16, nullptr, 0) == 0); // clears
        CHECK(m.k.current_windows().state(limits::kernel_logger_id).capture_provider_count == 0);
        CHECK(compat::current::trace_set_information(m.k, s, 16, nullptr, 8) == win32::invalid_parameter);
    }
    SUBCASE("17 is query-only, answered without the kernel") {
        unsigned char buf[16] = {};
        CHECK(compat::current::trace_set_information(m.k, s, 17, buf, 8) == win32::not_supported);
        std::size_t const before = m.k.request_count();
        CHECK(compat::current::trace_query_information(m.k, 0, 17, buf, 16, nullptr) == 0U);
        CHECK(m.k.request_count() == before);
    }
}

TEST_CASE("compat::current: the query classes") {
    machine m;
    std::uint32_t value = 0, returned = 0;
    CHECK(compat::current::trace_query_information(m.k, 0, 19, &value, 4, &returned) == 0);
    CHECK(value == 64);
    CHECK(returned == 4);
    CHECK(compat::current::trace_query_information(m.k, 0, 22, &value, 4, &returned) == 0);
    CHECK(value == 4);
    CHECK(compat::current::trace_query_information(m.k, m.kernel_session, 23, &value, 4, &returned) == 0);
    CHECK(value == sim::current_windows_model::processors);
    CHECK(compat::current::trace_query_information(m.k, 0, 19, &value, 2, &returned) == win32::bad_length);
    CHECK(returned == 4);

    alignas(4) unsigned char owners[8 + 12 * 4] = {};
    CHECK(compat::current::trace_query_information(m.k, 0, 25, owners, sizeof owners, &returned) == 0);
    CHECK(returned == sizeof owners);
    CHECK(compat::current::trace_query_information(m.k, 0, 25, owners, 20, &returned) == win32::insufficient_buffer);
    CHECK(returned == sizeof owners);
    CHECK(compat::current::trace_query_information(m.k, 1, 25, owners, sizeof owners, &returned) == win32::invalid_parameter);

    profile_source const one[] = {profile_source::total_cycles};
    REQUIRE_FALSE(set<pmc_counter_list>(m.k, session_handle{m.kernel_session}, one));
    CHECK(compat::current::trace_query_information(m.k, 0, 27, nullptr, 0, &returned) == win32::insufficient_buffer);
    CHECK(returned == 16 + 4);
    alignas(4) unsigned char sessions[64] = {};
    CHECK(compat::current::trace_query_information(m.k, 0, 27, sessions, sizeof sessions, &returned) == 0);
    CHECK(returned == 20);
    CHECK(u32_at(std::span<std::byte const>(reinterpret_cast<std::byte const*>(sessions), 64), 16) == 0x13);
}

TEST_CASE("compat::current on an older Windows: ERROR_INVALID_FUNCTION") {
    machine m;
    m.k.set_kernel_class_available(0x10, false);
    m.k.set_trace_control_available(0x2A, false);
    unsigned char info[12] = {1};
    CHECK(compat::current::trace_set_information(m.k, m.kernel_session, 24, info, 12) == win32::invalid_function);
    std::uint32_t value = 0;
    CHECK(compat::current::trace_query_information(m.k, 0, 19, &value, 4, nullptr) == win32::invalid_function);
}

TEST_CASE("the headed buffer shape (16, 28): each rule the row names, and no read of a NULL head") {
    direction_rules const& capture = traits_of(trace_info_class::periodic_capture_state_list).set;
    direction_rules const& context = traits_of(trace_info_class::context_register).set;
    REQUIRE(capture.shape == buffer_shape::headed);
    REQUIRE(context.shape == buffer_shape::headed);
    unsigned char head[8 + 17 * 16] = {};
    auto with_count = [&](std::uint16_t n) {
        std::memcpy(head + capture.count_at, &n, 2);
        return static_cast<void const*>(head);
    };
    // 16: NULL with 0 clears; the head's count must match the length; at most 16 providers
    CHECK(validate::check_buffer(capture, nullptr, 0) == rule::ok);
    CHECK(validate::check_buffer(capture, head, 0) == rule::current_class_array_size);
    CHECK(validate::check_buffer(capture, with_count(0), 7) == rule::current_class_array_size);
    CHECK(validate::check_buffer(capture, with_count(0), 8) == rule::ok);
    CHECK(validate::check_buffer(capture, with_count(2), 8 + 2 * 16) == rule::ok);
    CHECK(validate::check_buffer(capture, with_count(2), 8 + 1 * 16) == rule::current_class_array_size);
    CHECK(validate::check_buffer(capture, with_count(17), 8 + 17 * 16) == rule::periodic_capture_too_many);
    CHECK(validate::check_buffer(capture, nullptr, 8 + 16) == rule::null_buffer_with_length); // the count is not read
    // 28: a head of 8 bytes, then whole CLASSIC_EVENT_IDs, at most 8; no count in the head
    std::vector<unsigned char> events(8 + 9 * 24, 0);
    CHECK(validate::check_buffer(context, nullptr, 0) == rule::current_class_array_size);
    CHECK(validate::check_buffer(context, events.data(), 8) == rule::ok);
    CHECK(validate::check_buffer(context, events.data(), 8 + 8 * 24) == rule::ok);
    CHECK(validate::check_buffer(context, events.data(), 8 + 8 * 24 + 1) == rule::current_class_array_size);
    CHECK(validate::check_buffer(context, events.data(), 8 + 9 * 24) == rule::context_register_too_many);
    CHECK(validate::check_buffer(context, nullptr, 8 + 24) == rule::null_buffer_with_length);
}

TEST_CASE("the SDK-named structs of classes 16-28 go through compat::current as a migrating client writes them") {
    machine m;
    using namespace etwctl::compat;
    // TRACE_STACK_CACHING_INFO with PerfView's CacheSize 0, BucketCount 0: the kernel's default
    TRACE_STACK_CACHING_INFO cache{};
    cache.Enabled = 1;
    CHECK(current::trace_set_information(m.k, m.kernel_session, TraceStackCachingInfo, &cache, sizeof cache) ==
          win32::success);
    CHECK(m.k.current_windows().state(limits::kernel_logger_id).classic.cache_size == limits::stack_cache_min_bytes);
    // ETW_PMC_COUNTER_OWNERSHIP_STATUS sized for the machine's counters, read back through the SDK's names
    sdk::ulong_t counters = 0;
    std::uint32_t returned = 0;
    REQUIRE(current::trace_query_information(m.k, 0, TraceMaxPmcCounterQuery, &counters, sizeof counters, &returned) == win32::success);
    REQUIRE(counters >= 1);
    std::vector<std::byte> storage(pmc_owner_storage_size(static_cast<std::uint32_t>(counters)));
    auto* status = reinterpret_cast<ETW_PMC_COUNTER_OWNERSHIP_STATUS*>(storage.data()); // the SDK's own idiom
    status->ProcessorNumber = 0;
    CHECK(current::trace_query_information(m.k, 0, TracePmcCounterOwners, storage.data(),
                                           static_cast<std::uint32_t>(storage.size()), &returned) == win32::success);
    CHECK(status->NumberOfCounters == counters);
    CHECK(status->CounterOwners[0].OwnerType == EtwPmcOwnerFree);
    // TRACE_CONTEXT_REGISTER_INFO + one CLASSIC_EVENT_ID (CSwitch)
    struct {
        TRACE_CONTEXT_REGISTER_INFO head;
        classic_event_id events[1];
    } ctx{};
    ctx.head.RegisterTypes = static_cast<ETW_CONTEXT_REGISTER_TYPES>(EtwContextRegisterTypeControl | EtwContextRegisterTypeInteger);
    ctx.events[0] = {guid::from_string("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c"), 36, {}};
    CHECK(current::trace_set_information(m.k, m.kernel_session, TraceContextRegisterInfo, &ctx, sizeof ctx) == win32::success);
    // TRACE_LBR_CONFIGURATION as class 20's ULONG
    sdk::ulong_t const lbr = TRACE_LBR_CONFIGURATION_EXCLUDE_KERNEL | TRACE_LBR_CONFIGURATION_CALLSTACK_ENABLE;
    CHECK(current::trace_set_information(m.k, m.kernel_session, TraceLbrConfigurationInfo, &lbr, sizeof lbr) == win32::success);
    CHECK(m.k.current_windows().state(limits::kernel_logger_id).lbr_options == 0x201U);
}
