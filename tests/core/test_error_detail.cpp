// Run-time errors carry their context: the value, the limit, the name and what to do (etwctl::describe),
// and the two interval units cannot be mixed up.
#include <array>
#include <string>
#include <vector>

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
    parse_error const bogus{static_cast<rule>(999), 0, 1, {}};
    char out[160];
    std::size_t const n = format(bogus, "X", out);
    REQUIRE(n <= sizeof out);
    CHECK(std::string(out, n) == "X\n^ not an etwctl rule (the error code's value is outside the rule table)");
}
