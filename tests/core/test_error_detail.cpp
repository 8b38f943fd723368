// Run-time errors carry their context: the value, the limit, the name and what to do (etwctl::describe),
// and the two interval units cannot be mixed up.
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "etwctl/profiler/guards.hpp"
#include "etwctl/profiler/pmc.hpp"
#include "etwctl/profiler/stack_walk_set.hpp"

#include "sim_fixture.hpp"

using namespace etwctl;
using namespace etwctl_test;

TEST_CASE("a list over the kernel's limit names the count and the limit") {
    machine m;
    std::vector<hook_id> ids(257, hook_id{0x0524});
    auto const ec = set<stack_tracing>(m.k, m.kernel_session, std::span<hook_id const>(ids));
    REQUIRE(ec == rule::stack_tracing_size);
    CHECK(describe(ec) == "set<stack_tracing>: 257 elements, the kernel accepts at most 256");
    std::vector<profile_source> none;
    auto const empty = set<pmc_counter_list>(m.k, m.kernel_session, std::span<profile_source const>(none));
    CHECK(describe(empty) == "set<pmc_counter_list>: an empty list; give 1 to 4");
    CHECK(m.k.request_count() == 0);
}

TEST_CASE("a session that is not a system logger: the refusal says why and what to do") {
    machine m;
    std::uint64_t const user = m.k.start_logger(5, {.system_logger_mode = false});
    auto const ec = set<stack_tracing>(m.k, user, stack_walk<"CSwitch">);
    REQUIRE(ec == win32_condition(win32::invalid_parameter));
    CHECK(ec.category() == ntstatus_category()); // the kernel's answer keeps its domain
    CHECK(describe(ec) == "the kernel refused set<stack_tracing> for this session (STATUS_INVALID_PARAMETER): stack "
                          "walk and kernel flags need a system logger; start the session with "
                          "EVENT_TRACE_SYSTEM_LOGGER_MODE (or use the NT Kernel Logger)");
    auto const flags = set<system_trace_enable_flags>(m.k, user, kernel_flags<"PROC_THREAD">);
    CHECK(describe(flags).find("set<system_trace_enable_flags>") != std::string::npos);
    // any other refusal: the status by hex and name, and the Win32 error it maps to
    m.k.inject(static_cast<std::int32_t>(0xC0000001), 1);
    auto const other = set<stack_tracing>(m.k, m.kernel_session, stack_walk<"CSwitch">);
    CHECK(describe(other) == "the kernel refused set<stack_tracing>: NTSTATUS 0xC0000001 (STATUS_UNSUCCESSFUL), Win32 "
                             "ERROR_GEN_FAILURE 31");
    auto const gone = set<stack_tracing>(m.k, std::uint64_t{40}, stack_walk<"CSwitch">);
    CHECK(describe(gone) == "set<stack_tracing>: no such session (stopped, or not a TRACEHANDLE from StartTrace)");
}

TEST_CASE("describe without a recorded detail is the rule's text; the detail is per failure") {
    machine m;
    auto const ec = make_error_code(rule::version_length);
    CHECK(describe(ec) == std::string(info(rule::version_length).text));
    CHECK(explain(ec) == nullptr);
    CHECK(describe(no_error()) == "success");
    char small_buffer[8];
    std::vector<hook_id> ids(300, hook_id{0x0524});
    auto const big = set<stack_tracing>(m.k, m.kernel_session, std::span<hook_id const>(ids));
    std::size_t const n = describe(big, small_buffer);
    CHECK(n == describe(big).size()); // the full length, written no further than the buffer
    CHECK(std::string(small_buffer, sizeof small_buffer) == describe(big).substr(0, 8));
}

TEST_CASE("the timer interval is checked against the timer's bounds instead of being clamped silently") {
    machine m;
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_interval{5000}));
    auto const ec = set<sampled_profile_interval>(m.k, profile_interval{10});
    REQUIRE(ec == rule::interval_out_of_bounds);
    CHECK(describe(ec) == "interval 10 (100 ns units) is outside the timer's [1221, 1000000]; pass a value in range, or "
                          "timer_bounds.clamp(v) to accept the kernel's clamp");
    CHECK(query<sampled_profile_interval>(m.k)->count() == 5000); // nothing was sent
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, timer_bounds.clamp(profile_interval{10})));
    CHECK(query<sampled_profile_interval>(m.k)->count() == 1221);
    CHECK(set<sampled_profile_interval>(m.k, profile_source::time, profile_interval{2000000}) == rule::interval_out_of_bounds);
}

TEST_CASE("a hardware-counter interval is an event count, checked against the source's list bounds") {
    using namespace etwctl::literals;
    machine m;
    static_assert(!std::is_constructible_v<counter_interval, std::chrono::milliseconds>, "a time is not an event count");
    static_assert(!std::is_convertible_v<profile_interval, counter_interval>);
    static_assert((65536_events).count() == 65536 && (1250_100ns).count() == 1250);
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_source::total_cycles, 65536_events));
    CHECK(query<sampled_profile_interval>(m.k, profile_source::total_cycles)->count() == 65536);
    auto const low = set<sampled_profile_interval>(m.k, profile_source::total_cycles, 100_events);
    REQUIRE(low == rule::interval_out_of_bounds);
    CHECK(describe(low) == "interval 100 events is outside this hardware counter's [4096, 2147483647] (its MinInterval "
                           "and MaxInterval in the profile-source list); pass a value in range, or bounds.clamp(v) to "
                           "accept the kernel's clamp");
    CHECK(query<sampled_profile_interval>(m.k, profile_source::total_cycles)->count() == 65536);
    // with bounds at hand (a cached list): no list query
    m.k.clear_requests();
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_source::total_cycles, 8192_events, interval_bounds{4096, 1U << 31}));
    CHECK(m.k.request_count() == 1);
    CHECK(set<sampled_profile_interval>(m.k, profile_source::time, 8192_events, interval_bounds{}) == rule::pmc_counter_not_pmc);
    auto const absent = set<sampled_profile_interval>(m.k, static_cast<profile_source>(0x77), 8192_events);
    CHECK(absent == rule::profile_source_absent);
    CHECK(describe(absent).find("profile source 119 is not in this machine's profile-source list") == 0);
}

TEST_CASE("format(parse_error, text): the text, a caret under the offending name, the rule and the suggestion") {
    std::string_view const text = "CSwitch+CSwtch";
    parse_error err;
    hook_id ids[8];
    std::size_t count = 0;
    REQUIRE(parse_stack_walk(text, ids, count, &err) == rule::parse_unknown_name);
    char out[128];
    std::size_t const n = format(err, text, out);
    REQUIRE(n <= sizeof out);
    CHECK(std::string(out, n) == "CSwitch+CSwtch\n        ^~~~~~ unknown name; did you mean \"CSwitch\"?");
    char tiny[4];
    CHECK(format(err, text, tiny) == n); // the full length, nothing written past the buffer
}

TEST_CASE("a rule_category() code that names no rule: every reader answers without reading past the table") {
    // Issue 21 item 10: describe() and to_win32() looked the value up unchecked (message() guarded it).
    for (int const value : {static_cast<int>(rule::count_), static_cast<int>(rule::count_) + 1, 999, 0xFFFF, -1}) {
        std::error_code const ec(value, rule_category());
        CHECK(to_win32(ec) == win32::mr_mid_not_found);
        CHECK(describe(ec) == "not an etwctl rule (the error code's value is outside the rule table)");
        CHECK(ec.message() == "etwctl: unknown rule");
    }
    parse_error const bogus{static_cast<rule>(999), 0, 1, {}, {}};
    char out[160];
    std::size_t const n = format(bogus, "X", out);
    REQUIRE(n <= sizeof out);
    CHECK(std::string(out, n) == "X\n^ not an etwctl rule (the error code's value is outside the rule table)");
}

TEST_CASE("an earlier failure's values are never shown for a later failure with the same code") {
    // Issue 21 item 13: the slot was matched by code only and never cleared.
    machine m;
    auto const set_gone = set<stack_tracing>(m.k, std::uint64_t{40}, stack_walk<"CSwitch">);
    REQUIRE(describe(set_gone) == "set<stack_tracing>: no such session (stopped, or not a TRACEHANDLE from StartTrace)");
    auto const query_gone = query<system_trace_enable_flags>(m.k, session_handle{40});
    REQUIRE_FALSE(query_gone);
    REQUIRE(query_gone.error() == set_gone); // the same code
    CHECK(explain(query_gone.error()) == nullptr);
    CHECK(describe(query_gone.error()) == query_gone.error().message()); // "NTSTATUS 0xC0000296 (...)"

    // The same for a rule: a detailed profile_source_absent, then one without context of its own.
    profile_source_list_buffer<> storage;
    auto const list = query<profile_source_list>(m.k, storage);
    REQUIRE(list);
    auto const absent = set<sampled_profile_interval>(m.k, profile_source::pipeline_dry, counter_interval{5000}, *list);
    REQUIRE(absent == rule::profile_source_absent);
    REQUIRE(explain(absent) != nullptr);
    interval_guard g(m.k, profile_source::pipeline_dry, profile_interval{5000}); // captures 0: absent, no values
    REQUIRE(g.error() == rule::profile_source_absent);
    CHECK(describe(g.error()) == std::string(info(rule::profile_source_absent).text));
    // and a detail of this call is still shown for this call
    auto const again = set<sampled_profile_interval>(m.k, profile_source::pipeline_dry, counter_interval{5000}, *list);
    CHECK(describe(again).find("profile source 3 is not in") != std::string::npos);
}

TEST_CASE("a failed query is described as a query, in the same words as message()") {
    // Issue 21 item 17.
    machine m;
    auto const streams = query<stream_count>(m.k, session_handle{40});
    REQUIRE_FALSE(streams);
    CHECK(describe(streams.error()) == "query<stream_count>: no such session (stopped, or not a TRACEHANDLE from StartTrace)");
    m.k.inject(ntstatus::invalid_info_class, 1);
    auto const loggers = query<max_loggers>(m.k);
    REQUIRE_FALSE(loggers);
    CHECK(describe(loggers.error()) == "the kernel refused query<max_loggers>: NTSTATUS 0xC0000003 "
                                       "(STATUS_INVALID_INFO_CLASS), Win32 ERROR_INVALID_PARAMETER 87");
    m.k.inject(ntstatus::invalid_info_class, 1);
    auto const masks = query<system_trace_enable_flags>(m.k, session_handle{m.kernel_session});
    REQUIRE_FALSE(masks);
    CHECK(masks.error().message() == "NTSTATUS 0xC0000003 (STATUS_INVALID_INFO_CLASS)");
    CHECK(describe(masks.error()) == masks.error().message());
    CHECK(describe(win32_error_code(win32::invalid_parameter)) == "Win32 error 87 (ERROR_INVALID_PARAMETER)");
    CHECK(describe(hresult_error_code(static_cast<std::int32_t>(0x80070057U))) ==
          hresult_error_code(static_cast<std::int32_t>(0x80070057U)).message());
}

namespace {
/// A kernel whose logger query "succeeds" without delivering a handle (issue 21 item 14).
struct silent_logger_query {
    std::uint32_t reported = 0;
    bool write_handle = false;
    std::int32_t nt_set_system_information(std::uint32_t, void const*, std::uint32_t) noexcept { return 0; }
    std::int32_t nt_query_system_information(std::uint32_t, void*, std::uint32_t, std::uint32_t*) noexcept { return 0; }
    std::int32_t nt_set_interval_profile(std::uint32_t, std::uint32_t) noexcept { return 0; }
    std::int32_t nt_query_interval_profile(std::uint32_t, std::uint32_t*) noexcept { return 0; }
    std::int32_t nt_trace_control(std::uint32_t, void const*, std::uint32_t, void* out, std::uint32_t,
                                  std::uint32_t* returned) noexcept {
        if (write_handle) static_cast<logger_query::wmi_logger_information*>(out)->wnode.historical_context = 7;
        *returned = reported;
        return 0;
    }
    std::uint32_t event_set_information(std::uint64_t, std::uint32_t, void const*, std::uint32_t) noexcept { return 0; }
};
} // namespace

TEST_CASE("find_session: a success without a handle is a malformed reply, never handle 0 (the NT Kernel Logger)") {
    silent_logger_query k;
    auto const none = find_session(k, "My Session");
    REQUIRE_FALSE(none);
    CHECK(none.error() == rule::kernel_reply_malformed);
    CHECK(describe(none.error()) == "find_session: the kernel reported success but returned 0 bytes and no TRACEHANDLE "
                                    "(a handle of 0 would mean the NT Kernel Logger); nothing was trusted");
    k.reported = sizeof(logger_query::wmi_logger_information); // a full length, but the handle left 0
    CHECK(find_session(k, "My Session").error() == rule::kernel_reply_malformed);
    k.write_handle = true;
    k.reported = 8; // a handle written, but the length does not cover it
    CHECK(find_session(k, "My Session").error() == rule::kernel_reply_malformed);
    k.reported = sizeof(logger_query::wmi_logger_information);
    CHECK(find_session(k, "My Session").value() == session_handle{7});
}

TEST_CASE("a counter given a profile_interval is checked as its event count, against the source's bounds") {
    // Issue 35 item 8: profile_interval{1} for TotalIssues was sent as is, and the kernel used 4096.
    machine m;
    m.k.clear_requests();
    auto const ec = set<sampled_profile_interval>(m.k, profile_source::total_issues, profile_interval{1});
    REQUIRE(ec == rule::interval_out_of_bounds);
    CHECK(describe(ec) == "interval 1 events is outside this hardware counter's [4096, 2147483647] (its MinInterval "
                          "and MaxInterval in the profile-source list); pass a value in range, or bounds.clamp(v) to "
                          "accept the kernel's clamp");
    for (std::size_t i = 0; i < m.k.request_count(); ++i) // only the profile-source list was read
        CHECK(m.k.request(i).function != kernel_function::nt_set_interval_profile);
    CHECK(query<sampled_profile_interval>(m.k, profile_source::total_issues)->count() == sim::pmc_default);
    CHECK(set<sampled_profile_interval>(m.k, profile_source::total_issues, profile_interval{0xFFFFFFFFU}) ==
          rule::interval_out_of_bounds);
    // in bounds: set, as counter_interval{8192} is
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_source::total_issues, profile_interval{8192}));
    CHECK(query<sampled_profile_interval>(m.k, profile_source::total_issues)->count() == 8192);
    // the list's MinInterval and MaxInterval are themselves in bounds, one past either is not
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_source::total_issues, counter_interval{sim::pmc_min}));
    CHECK(query<sampled_profile_interval>(m.k, profile_source::total_issues)->count() == sim::pmc_min);
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_source::total_issues, counter_interval{sim::pmc_max}));
    CHECK(query<sampled_profile_interval>(m.k, profile_source::total_issues)->count() == sim::pmc_max);
    CHECK(set<sampled_profile_interval>(m.k, profile_source::total_issues, counter_interval{sim::pmc_min - 1}) ==
          rule::interval_out_of_bounds);
    CHECK(set<sampled_profile_interval>(m.k, profile_source::total_issues, counter_interval{sim::pmc_max + 1U}) ==
          rule::interval_out_of_bounds);
    CHECK(query<sampled_profile_interval>(m.k, profile_source::total_issues)->count() == sim::pmc_max); // nothing sent
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_source::total_issues, counter_interval{8192})); // as before
    // a source the machine does not have: refused before anything is sent
    CHECK(set<sampled_profile_interval>(m.k, static_cast<profile_source>(0x77), profile_interval{8192}) ==
          rule::profile_source_absent);
    // the timer keeps its own bounds (100 ns units)
    CHECK_FALSE(set<sampled_profile_interval>(m.k, profile_source::time, profile_interval{4096}));
    CHECK(set<sampled_profile_interval>(m.k, profile_source::time, profile_interval{10}) == rule::interval_out_of_bounds);
    // the guards that take a profile_interval for any source check it the same way, changing nothing
    {
        interval_guard g(m.k, profile_source::total_issues, profile_interval{1});
        CHECK(g.error() == rule::interval_out_of_bounds);
        CHECK_FALSE(g.active());
    }
    profile_source_setting const settings[] = {{profile_source::total_issues, profile_interval{1}}};
    profile_source_guard pg(m.k, session_handle{m.kernel_session}, settings);
    CHECK(pg.error() == rule::interval_out_of_bounds);
    CHECK(query<sampled_profile_interval>(m.k, profile_source::total_issues)->count() == 8192);
}

TEST_CASE("every typed failure is described by its own context or by its rule's text, never by an earlier one's") {
    // Issue 35 item 6, for every path: each failure below is provoked once, the thread's slot is then
    // given an earlier failure with the same code and values of its own, a call succeeds, and the failure
    // is provoked again: describe() must give what it gave the first time (this call's context, or the
    // rule's / status's own text), never the earlier values.
    using namespace etwctl::literals;
    machine m;
    session_handle const s{m.kernel_session};
    REQUIRE_FALSE(set<system_trace_enable_flags>(m.k, s, kernel_flags<"PROC_THREAD">));
    auto const reg = m.k.register_provider();
    struct trigger {
        char const* what;
        std::function<std::error_code()> run;
    };
    std::vector<hook_id> const too_many(257, hook_id{0x0524});
    std::vector<profile_source> const none;
    std::byte const malformed_traits[4] = {std::byte{9}, std::byte{0}, std::byte{'A'}, std::byte{0}};
    classic_event_id not_kernel{};
    not_kernel.event_guid = guid::from_string("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716");
    classic_event_id const foreign[] = {not_kernel};
    guid const providers[] = {guid::from_string("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716")};
    hook_id const rt[] = {ready_thread};
    pmc_counter const low[] = {pmc_counter::named("TotalCycles", profile_interval{100})};
    pmc_counter const absent[] = {pmc_counter::of_id(0x77)};
    pmc_counter const timer[] = {pmc_counter::named("Timer")};
    pmc_counter const plain[] = {pmc_counter::named("TotalCycles")};
    hook_id const cs[] = {cswitch};
    std::vector<trigger> const triggers = {
        {"set<stack_tracing>, 257 events", [&] { return set<stack_tracing>(m.k, s, std::span<hook_id const>(too_many)); }},
        {"set<stack_tracing>, an event of no kernel group", [&] { return set<stack_tracing>(m.k, s, foreign); }},
        {"set<pmc_counter_list>, none", [&] { return set<pmc_counter_list>(m.k, s, std::span<profile_source const>(none)); }},
        {"set<stack_tracing>, no such session", [&] { return set<stack_tracing>(m.k, std::uint64_t{40}, stack_walk<"CSwitch">); }},
        {"query<system_trace_enable_flags>, no such session",
         [&] { return query<system_trace_enable_flags>(m.k, session_handle{40}).error(); }},
        {"query<profile_source_list>, no storage",
         [&] { return query<profile_source_list>(m.k, std::span<std::byte>{}).error(); }},
        {"timer interval", [&] { return set<sampled_profile_interval>(m.k, profile_interval{10}); }},
        {"counter_interval", [&] { return set<sampled_profile_interval>(m.k, profile_source::total_cycles, 100_events); }},
        {"profile_interval for a counter",
         [&] { return set<sampled_profile_interval>(m.k, profile_source::total_issues, profile_interval{1}); }},
        {"counter_interval for the timer",
         [&] { return set<sampled_profile_interval>(m.k, profile_source::time, 8192_events, interval_bounds{}); }},
        {"counter_interval, absent source",
         [&] { return set<sampled_profile_interval>(m.k, static_cast<profile_source>(0x77), 8192_events); }},
        {"set<periodic_capture_state_list>, 1 s",
         [&] { return set<periodic_capture_state_list>(m.k, s, capture_frequency{1}, providers); }},
        {"set<stack_caching>, 1 byte",
         [&] { return set<stack_caching>(m.k, s, stack_cache_size{1}, stack_cache_buckets::kernel_default()); }},
        {"set<provider_traits>, malformed",
         [&] { return set<provider_traits>(m.k, registration_handle{reg}, std::span<std::byte const>(malformed_traits)); }},
        {"find_profile_source, absent", [&] { return find_profile_source(m.k, "NoSuchCounter").error(); }},
        {"check_event_groups", [&] { return check_event_groups(group_mask{}, rt); }},
        {"interval_guard, absent source",
         [&] { return interval_guard(m.k, profile_source::pipeline_dry, profile_interval{5000}).error(); }},
        {"interval_guard, counter out of bounds",
         [&] { return interval_guard(m.k, profile_source::total_issues, 1_events).error(); }},
        {"profile_source_guard, no settings",
         [&] { return profile_source_guard(m.k, s, std::span<profile_source_setting const>{}).error(); }},
        {"setup_pmc, interval", [&] { return std::error_code(setup_pmc(m.k, s, low, cs)); }},
        {"setup_pmc, absent", [&] { return std::error_code(setup_pmc(m.k, s, absent, cs)); }},
        {"setup_pmc, the timer", [&] { return std::error_code(setup_pmc(m.k, s, timer, cs)); }},
        {"setup_pmc, group off", [&] { return std::error_code(setup_pmc(m.k, s, plain, rt)); }},
    };
    for (auto const& t : triggers) {
        CAPTURE(t.what);
        std::error_code const first = t.run();
        REQUIRE(first);
        std::string const described = describe(first);
        (void)detail::fail(first, "an earlier failure with the same code: {value}", "earlier", 424242);
        REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_interval{1250})); // a success in between
        std::error_code const again = t.run();
        REQUIRE(again == first);
        CHECK(describe(again) == described);
        CHECK(describe(again).find("424242") == std::string::npos);
    }
}
