// The typed API: the same rules and kernel requests as compat (one implementation), typed inputs,
// error codes that keep their domain, results that are values or views, compile-time requests.
#include <array>
#include <span>

#include "sim_fixture.hpp"

using namespace etwctl;
using namespace etwctl_test;

TEST_CASE("set<stack_tracing> sends what compat sends for the same events") {
    machine typed;
    machine raw;
    std::vector<classic_event_id> events = {event(0x05, 0x24), event(0x0F, 0x2E), event(0x05, 0x32)};
    REQUIRE_FALSE(set<stack_tracing>(typed.k, typed.kernel_session, events));
    REQUIRE(compat::trace_set_information(raw.k, raw.kernel_session, 3, events.data(), 24 * 3) == 0);
    // an event of no kernel group: compat skips it (SECHOST), the typed call refuses it (issue 21 item 11)
    std::vector<classic_event_id> with_unknown = {event(0x05, 0x24), {}, event(0x0F, 0x2E), event(0x05, 0x32)};
    REQUIRE(compat::trace_set_information(raw.k, raw.kernel_session, 3, with_unknown.data(), 24 * 4) == 0);
    CHECK(set<stack_tracing>(typed.k, typed.kernel_session, with_unknown) == rule::event_guid_not_kernel_group);
    auto const& a = typed.k.last_request();
    auto const& b = raw.k.last_request();
    REQUIRE(a.bytes.size() == b.bytes.size());
    CHECK(std::memcmp(a.bytes.data(), b.bytes.data(), a.bytes.size()) == 0);
}

TEST_CASE("set<stack_tracing> with hook ids and hook_list: no lookup, same request") {
    machine m;
    constexpr hook_list hooks{hook_id{0x0524}, hook_id{0x0532}};
    REQUIRE_FALSE(set<stack_tracing>(m.k, m.kernel_session, hooks));
    CHECK(ids_of(m.k.last_request()) == std::vector<std::uint32_t>{0x0524, 0x0532});
    std::vector<hook_id> dynamic = {hook_id{0x0F2E}};
    REQUIRE_FALSE(set<stack_tracing>(m.k, m.kernel_session, dynamic));
    CHECK(ids_of(m.k.last_request()) == std::vector<std::uint32_t>{0x0F2E});
    std::vector<hook_id> empty;
    REQUIRE_FALSE(set<stack_tracing>(m.k, m.kernel_session, empty)); // an empty typed list disables stacks
    CHECK(m.k.last_request().length == 0x10);
}

TEST_CASE("a compile-time configuration's kernel request is a constant") {
    constexpr hook_list hooks{hook_id{0x0524}, hook_id{0x0532}, hook_id{0x0F2E}};
    constexpr auto req = detail::make_hook_request(event_trace_information_class::stack_tracing, 0xFFFF, hooks);
    static_assert(req.header.information_class == 0x06 && req.header.spare == 0 && req.header.trace_handle == 0xFFFF);
    static_assert(req.ids[0] == 0x0524 && req.ids[1] == 0x0532 && req.ids[2] == 0x0F2E);
    static_assert(req.length_for(hooks.size()) == 0x1C);
    CHECK(req.length_for(3) == 0x1C);
}

TEST_CASE("typed dynamic extents: the compat rules, returned as rule_category codes") {
    machine m;
    std::vector<classic_event_id> many(257, event(0x05, 0x24));
    std::error_code ec = set<stack_tracing>(m.k, m.kernel_session, many);
    CHECK(ec == make_error_code(rule::stack_tracing_size));
    CHECK(ec == win32_condition(win32::incorrect_size));
    CHECK(to_win32(ec) == compat::trace_set_information(m.k, m.kernel_session, 3, many.data(), 24 * 257));
    std::vector<hook_id> many_hooks(257, hook_id{0x0524});
    CHECK(set<stack_tracing>(m.k, m.kernel_session, many_hooks) == make_error_code(rule::stack_tracing_size));
    std::vector<hook_id> five(5, hook_id{0x0524});
    CHECK(set<pmc_event_list>(m.k, m.kernel_session, five) == make_error_code(rule::pmc_events_size));
    std::vector<profile_source> none;
    CHECK(set<pmc_counter_list>(m.k, m.kernel_session, none) == make_error_code(rule::pmc_counters_empty));
    CHECK(set<profile_source_config>(m.k, m.kernel_session, none) == make_error_code(rule::profile_config_empty));
    std::vector<profile_source> six(6, profile_source::total_cycles);
    CHECK(set<pmc_counter_list>(m.k, m.kernel_session, six) == make_error_code(rule::pmc_counters_size));
    CHECK(set<profile_source_config>(m.k, m.kernel_session, six) == make_error_code(rule::profile_config_size));
    std::vector<guid> guids(300);
    CHECK(set<disallow_list>(m.k, m.kernel_session, guids) == make_error_code(rule::disallow_list_too_long));
    CHECK(m.k.request_count() == 0);
}

TEST_CASE("typed kernel failures keep the NTSTATUS domain") {
    machine m;
    std::error_code const ec = set<stack_tracing>(m.k, session_handle{0x33}, hook_list{hook_id{0x0524}});
    CHECK(ec.category() == ntstatus_category());
    CHECK(ec.value() == ntstatus::wmi_instance_not_found);
    CHECK(ec == win32_condition(win32::wmi_instance_not_found));
    m.k.set_privilege(false);
    auto const ec2 = set<sampled_profile_interval>(m.k, profile_source::time, profile_interval{5000});
    CHECK(ec2 == ntstatus_error_code(ntstatus::privilege_not_held));
    CHECK(ec2.message().find("STATUS_PRIVILEGE_NOT_HELD") != std::string::npos);
}

TEST_CASE("set<system_trace_enable_flags> / query round trip through the kernel's alias normalization") {
    machine m;
    group_mask const wanted = group_mask::from_enable_flags(0x3) | perf_flag{0x20000004} | perf_flag{0x40000040};
    REQUIRE_FALSE(set<system_trace_enable_flags>(m.k, m.kernel_session, wanted));
    auto const got = query<system_trace_enable_flags>(m.k, m.kernel_session);
    REQUIRE(got.has_value());
    CHECK(got->contains(perf_flag{0x20000004}));
    CHECK(got->contains(perf_flag{0x40000040}));
    CHECK((got->masks[0] & 0x10U) != 0); // CSWITCH alias reported
    CHECK((got->masks[0] & 0x80U) != 0); // SYSTEMCALL alias reported
    CHECK(*got == wanted.normalized());
    auto const missing = query<system_trace_enable_flags>(m.k, session_handle{9});
    CHECK_FALSE(missing.has_value());
    CHECK(missing.error() == win32_condition(win32::wmi_instance_not_found));
}

TEST_CASE("sampled-profile interval: global, per source, timer by default; kernel clamps") {
    machine m;
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_interval{1221}));
    CHECK(query<sampled_profile_interval>(m.k).value().count() == 1221);
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_source::total_cycles, profile_interval{50000}));
    CHECK(query<sampled_profile_interval>(m.k, profile_source::total_cycles).value().count() == 50000);
    CHECK(m.k.last_request().function == kernel_function::nt_query_interval_profile);
    // below the timer's 1221: refused before the kernel would clamp it (test_error_detail.cpp has the rest)
    CHECK(set<sampled_profile_interval>(m.k, profile_interval{10}) == rule::interval_out_of_bounds);
    CHECK(query<sampled_profile_interval>(m.k)->count() == 1221);
    using namespace std::chrono_literals;
    static_assert(std::chrono::duration_cast<profile_interval>(1ms).count() == 10000);
}

TEST_CASE("query<profile_source_list> into caller storage; too small storage reports the size") {
    machine m;
    profile_source_list_buffer<> storage;
    auto const list = query<profile_source_list>(m.k, storage);
    REQUIRE(list.has_value());
    CHECK(list->size() == 18);
    std::size_t count = 0;
    for (auto const e : *list) {
        CHECK(e.max_interval() >= e.min_interval());
        ++count;
    }
    CHECK(count == 18);
    std::byte short_storage[64]; // not `small`: rpcndr.h defines it (issue 12)
    std::uint32_t needed = 0;
    auto const too_small = query<profile_source_list>(m.k, std::span<std::byte>(short_storage), &needed);
    CHECK(too_small.error() == make_error_code(rule::source_list_buffer_too_small));
    CHECK(needed > sizeof short_storage);
    std::vector<std::byte> exact(needed);
    CHECK(query<profile_source_list>(m.k, std::span<std::byte>(exact)).has_value());
}

TEST_CASE("query<version> needs no kernel; query<disallow_list_query> returns a prefix of storage") {
    machine m;
    CHECK(query<version>(m.k).value() == 1);
    CHECK(m.k.request_count() == 0);
    std::array<guid, 2> const guids = {guid::from_string("11111111-2222-3333-4444-555555555555"),
                                       guid::from_string("66666666-7777-8888-9999-aaaaaaaaaaaa")};
    REQUIRE_FALSE(set<disallow_list>(m.k, m.kernel_session, guids));
    std::array<guid, 8> storage{};
    auto const got = query<disallow_list_query>(m.k, m.kernel_session, std::span<guid>(storage));
    REQUIRE(got.has_value());
    REQUIRE(got->size() == 2);
    CHECK((*got)[1] == guids[1]);
}

TEST_CASE("profile sources and PMC through the typed API") {
    machine m;
    std::array<profile_source, 2> const counters = {profile_source::total_cycles, static_cast<profile_source>(26)};
    REQUIRE_FALSE(set<pmc_event_list>(m.k, m.kernel_session, hook_list{hook_id{0x0524}}));
    REQUIRE_FALSE(set<pmc_counter_list>(m.k, m.kernel_session, counters));
    CHECK(ids_of(m.k.last_request()) == std::vector<std::uint32_t>{19, 26});
    CHECK(set<pmc_counter_list>(m.k, m.kernel_session, counters) == ntstatus_error_code(ntstatus::wmi_already_enabled));
    std::array<profile_source, 1> const config = {profile_source::total_cycles};
    REQUIRE_FALSE(set<profile_source_config>(m.k, m.kernel_session, config));
    CHECK(m.k.profile_config().size() == 1);
}

TEST_CASE("EventSetInformation classes through set<>: traits builder, bytes checked before sending") {
    machine m;
    auto const reg = m.k.register_provider();
    REQUIRE_FALSE(set<provider_binary_tracking>(m.k, registration_handle{reg}));
    REQUIRE_FALSE(set<use_descriptor_type>(m.k, registration_handle{reg}, true));
    CHECK(m.k.uses_descriptor_type(reg));
    REQUIRE_FALSE(set<use_descriptor_type>(m.k, registration_handle{reg}, false));
    CHECK_FALSE(m.k.uses_descriptor_type(reg));
    std::byte const malformed[4] = {std::byte{9}, std::byte{0}, std::byte{'A'}, std::byte{0}};
    m.k.clear_requests();
    CHECK(set<provider_traits>(m.k, registration_handle{reg}, std::span<std::byte const>(malformed)) ==
          make_error_code(rule::traits_malformed));
    CHECK(m.k.request_count() == 0);
    REQUIRE_FALSE(set<provider_traits>(m.k, registration_handle{reg}, make_provider_traits("Game")));
    auto const again = set<provider_traits>(m.k, registration_handle{reg}, make_provider_traits("Game"));
    CHECK(again.category() == win32_category());
    CHECK(again.value() == static_cast<int>(win32::gen_failure));
    CHECK(set<use_descriptor_type>(m.k, registration_handle{0x99}, true) == win32_error_code(win32::invalid_handle));
}

TEST_CASE("result<T>: value or error, never both") {
    result<int> ok{42};
    CHECK(ok.has_value());
    CHECK(*ok == 42);
    CHECK_FALSE(ok.error());
    result<int> bad{rule::version_length};
    CHECK_FALSE(bad.has_value());
    CHECK(bad.value_or(7) == 7);
    CHECK(bad.error() == make_error_code(rule::version_length));
    result<int> also_bad{std::error_code{}}; // an "error" without an error still is one
    CHECK_FALSE(also_bad.has_value());
}

TEST_CASE("SDK-shaped types pass without casts (GUID, CLASSIC_EVENT_ID, TRACEHANDLE look-alikes)") {
    struct GUID_like {
        unsigned long Data1;
        unsigned short Data2;
        unsigned short Data3;
        unsigned char Data4[8];
    };
    struct CLASSIC_EVENT_ID_like {
        GUID_like EventGuid;
        unsigned char Type;
        unsigned char Reserved[7];
    };
    machine m;
    GUID_like const thread{0x3d6fa8d1, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}};
    CLASSIC_EVENT_ID_like const ids[2] = {{thread, 0x24, {}}, {thread, 0x32, {}}};
    unsigned long long const trace_handle = m.kernel_session;
    REQUIRE_FALSE(set<stack_tracing>(m.k, trace_handle, ids));
    CHECK(ids_of(m.k.last_request()) == std::vector<std::uint32_t>{0x0524, 0x0532});
    guid const g = thread;
    CHECK(group_of(g) == std::optional<std::uint8_t>{0x05});
}

namespace {
// A user's own kernel double: the six calls and nothing else.
struct my_double {
    std::uint32_t last_class = 0;
    std::uint32_t last_length = 0;
    std::int32_t nt_set_system_information(std::uint32_t, void const* b, std::uint32_t len) {
        std::memcpy(&last_class, b, 4);
        last_length = len;
        return 0;
    }
    std::int32_t nt_query_system_information(std::uint32_t, void*, std::uint32_t, std::uint32_t*) { return ntstatus::not_implemented; }
    std::int32_t nt_set_interval_profile(std::uint32_t, std::uint32_t) { return 0; }
    std::int32_t nt_query_interval_profile(std::uint32_t, std::uint32_t* i) { *i = 77; return 0; }
    std::int32_t nt_trace_control(std::uint32_t, void const*, std::uint32_t, void*, std::uint32_t, std::uint32_t*) { return 0; }
    std::uint32_t event_set_information(std::uint64_t, std::uint32_t, void const*, std::uint32_t) { return 0; }
};
static_assert(kernel<my_double>);
static_assert(!kernel_with_availability<my_double>);
struct five_calls { // one call short: not a kernel
    std::int32_t nt_set_system_information(std::uint32_t, void const*, std::uint32_t);
    std::int32_t nt_query_system_information(std::uint32_t, void*, std::uint32_t, std::uint32_t*);
    std::int32_t nt_set_interval_profile(std::uint32_t, std::uint32_t);
    std::int32_t nt_query_interval_profile(std::uint32_t, std::uint32_t*);
    std::int32_t nt_trace_control(std::uint32_t, void const*, std::uint32_t, void*, std::uint32_t, std::uint32_t*);
};
static_assert(!kernel<five_calls>);
} // namespace

TEST_CASE("a user's six-function double is a kernel for every layer") {
    my_double d;
    REQUIRE_FALSE(set<stack_tracing>(d, session_handle{5}, hook_list{hook_id{0x0524}}));
    CHECK(d.last_class == 6);
    CHECK(d.last_length == 0x14);
    CHECK(query<sampled_profile_interval>(d, profile_source::total_cycles).value().count() == 77);
    CHECK(query<system_trace_enable_flags>(d, session_handle{5}).error() == ntstatus_error_code(ntstatus::not_implemented));
    CHECK(compat::tracelogging_set_information<event_set_information_policy::dynamic>(d, 1, 0, nullptr, 0) == 0);
}

TEST_CASE("typed event lists refuse an event whose GUID is no kernel group's instead of dropping it") {
    // Issue 21 item 11: SECHOST skips such events; one mistyped GUID sent an empty list (stack walking
    // off) and the call succeeded.
    machine m;
    REQUIRE_FALSE(set<stack_tracing>(m.k, m.kernel_session, stack_walk<"CSwitch">));
    classic_event_id typo = event(0x05, 36); // Thread group, CSwitch
    typo.event_guid.data4[7] ^= 1;           // one bit off: no kernel group
    classic_event_id const list[] = {event(0x03, 1), typo};
    std::size_t const before = m.k.request_count();
    auto const ec = set<stack_tracing>(m.k, m.kernel_session, list);
    CHECK(ec == rule::event_guid_not_kernel_group);
    CHECK(to_win32(ec) == win32::invalid_parameter);
    CHECK(describe(ec) == "set<stack_tracing>: event 1 of the list has an EventGuid that is no kernel group's (SECHOST "
                          "would drop it silently; a list of only such events would be sent empty); nothing was sent");
    classic_event_id const only[] = {typo};
    CHECK(set<stack_tracing>(m.k, m.kernel_session, only) == rule::event_guid_not_kernel_group);
    CHECK(set<pmc_event_list>(m.k, m.kernel_session, only) == rule::event_guid_not_kernel_group);
    CHECK(set<context_register>(m.k, m.kernel_session, only) == rule::event_guid_not_kernel_group);
    CHECK(m.k.request_count() == before); // nothing sent: the earlier list stays
    CHECK(m.k.stack_tracing_hooks(limits::kernel_logger_id).size() == 1);
    // the drop-in face keeps SECHOST's behaviour: the event is skipped
    CHECK(compat::trace_set_information(m.k, m.kernel_session, 3, list, sizeof list) == 0U);
    CHECK(m.k.stack_tracing_hooks(limits::kernel_logger_id).size() == 1);
    CHECK(m.k.stack_tracing_hooks(limits::kernel_logger_id)[0] == 0x0301U);
}

TEST_CASE("a sampling rate sets the timer's exact interval") {
    // Issue 21 item 21: what a game-engine user writes first.
    machine m;
    using namespace etwctl::literals;
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, 8_kHz));
    CHECK(m.k.interval(0) == 1250);
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_source::time, 4000_Hz));
    CHECK(m.k.interval(0) == 2500);
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, sampling_rate<1000>));
    CHECK(m.k.interval(0) == 10000);
    static_assert(8_kHz == timer_interval<1250> && (10_Hz).count() == 1000000);
}
