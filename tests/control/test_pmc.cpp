#include "etwctl/profiler/pmc.hpp"

#include "sim_fixture.hpp"

using namespace etwctl;
using etwctl_test::event;
using etwctl_test::ids_of;
using etwctl_test::machine;

using etwctl_test::cswitch;
using etwctl_test::ready_thread;

namespace {
constexpr perf_flag perf_context_switch{0x20000004U};
constexpr perf_flag perf_dispatcher{0x20000200U};

constexpr pmc_counter two_counters[] = {pmc_counter::named("TotalCycles"), pmc_counter::named("instructionretired")};
constexpr hook_id cswitch_only[] = {cswitch};

void enable(machine& m, group_mask g) {
    REQUIRE_FALSE(set<system_trace_enable_flags>(m.k, session_handle{m.kernel_session}, g));
}
std::vector<std::uint32_t> v(std::span<std::uint32_t const> s) { return {s.begin(), s.end()}; }
} // namespace

TEST_CASE("setup_pmc: counters by name on CSwitch, applied in order") {
    machine m;
    enable(m, group_mask{perf_context_switch});
    pmc_counter const counters[] = {pmc_counter::named("TotalCycles", profile_interval{100000}),
                                    pmc_counter::of_id(26)};
    m.k.clear_requests();
    auto const r = setup_pmc(m.k, session_handle{m.kernel_session}, counters, cswitch_only);
    REQUIRE(r.ok());
    CHECK(r.counter_count == 2);
    CHECK(r.counters[0] == 19);
    CHECK(r.counters[1] == 26);
    CHECK(r.intervals_applied);
    CHECK(r.counters_applied);
    CHECK(r.events_applied);
    CHECK(v(m.k.pmc_counters(limits::kernel_logger_id)) == std::vector<std::uint32_t>{19, 26});
    CHECK(v(m.k.pmc_events(limits::kernel_logger_id)) == std::vector<std::uint32_t>{0x0524});
    CHECK(m.k.interval(19) == 100000);

    // Requests: source list, group mask, interval (query + set), counter list, event list.
    auto const reqs = m.k.requests();
    REQUIRE(reqs.size() == 6);
    CHECK(reqs[0].kernel_class == static_cast<std::uint32_t>(event_trace_information_class::profile_source_list));
    CHECK(reqs[1].kernel_class == static_cast<std::uint32_t>(event_trace_information_class::group_mask));
    CHECK(reqs[2].function == kernel_function::nt_query_interval_profile);
    CHECK(reqs[3].function == kernel_function::nt_set_interval_profile);
    CHECK(reqs[4].kernel_class == static_cast<std::uint32_t>(event_trace_information_class::profile_counter_list));
    CHECK(reqs[5].kernel_class == static_cast<std::uint32_t>(event_trace_information_class::profile_event_list));
    CHECK(ids_of(reqs[4]) == std::vector<std::uint32_t>{19, 26});
}

TEST_CASE("setup_pmc: classic events and hook_list events") {
    machine m;
    enable(m, group_mask{perf_context_switch} | perf_dispatcher);
    SUBCASE("classic") {
        classic_event_id const events[] = {event(0x05, 0x24), event(0x05, 0x32)};
        auto const r = setup_pmc(m.k, session_handle{m.kernel_session}, two_counters, std::span<classic_event_id const>(events));
        CHECK(r.ok());
        CHECK(v(m.k.pmc_events(limits::kernel_logger_id)) == std::vector<std::uint32_t>{0x0524, 0x0532});
    }
    SUBCASE("classic event whose GUID is no kernel group: refused, not skipped") {
        classic_event_id bogus{};
        bogus.event_guid = guid::from_string("00000000-0000-0000-0000-000000000001");
        classic_event_id const events[] = {event(0x05, 0x24), bogus};
        auto const r = setup_pmc(m.k, session_handle{m.kernel_session}, two_counters, std::span<classic_event_id const>(events));
        CHECK(r.condition == pmc_condition::event_not_kernel);
        CHECK(r.index == 1);
        CHECK(m.k.pmc_events(limits::kernel_logger_id).empty());
    }
    SUBCASE("hook_list") {
        auto const r = setup_pmc(m.k, session_handle{m.kernel_session}, two_counters, hook_list{cswitch, ready_thread});
        CHECK(r.ok());
    }
}

TEST_CASE("setup_pmc: pre-checks name the failed condition and send nothing that changes state") {
    machine m;
    enable(m, group_mask{perf_context_switch});
    session_handle const s{m.kernel_session};
    auto check_unchanged = [&] {
        CHECK(m.k.pmc_counters(limits::kernel_logger_id).empty());
        CHECK(m.k.pmc_events(limits::kernel_logger_id).empty());
    };
    SUBCASE("no counters") {
        auto const r = setup_pmc(m.k, s, std::span<pmc_counter const>{}, cswitch_only);
        CHECK(r.step == pmc_step::check_counts);
        CHECK(r.condition == pmc_condition::no_counters);
        CHECK(r.error == make_error_code(rule::pmc_counters_empty));
        std::error_code const ec = r; // the one error model: a report is its failure's error_code
        CHECK(ec == rule::pmc_counters_empty);
    }
    SUBCASE("five counters") {
        pmc_counter const five[] = {pmc_counter::of_id(2), pmc_counter::of_id(6), pmc_counter::of_id(10),
                                    pmc_counter::of_id(11), pmc_counter::of_id(19)};
        auto const r = setup_pmc(m.k, s, five, cswitch_only);
        CHECK(r.condition == pmc_condition::too_many_counters);
        CHECK(r.error == make_error_code(rule::pmc_counters_size));
        CHECK(describe(r.error) == "PMC: 5 counters requested, TracePmcCounterListInfo takes at most 4");
    }
    SUBCASE("five events") {
        hook_id const five[] = {cswitch, cswitch, cswitch, cswitch, cswitch};
        auto const r = setup_pmc(m.k, s, two_counters, five);
        CHECK(r.condition == pmc_condition::too_many_events);
    }
    SUBCASE("source absent, by name and by id") {
        pmc_counter const by_name[] = {pmc_counter::named("TotalCycles"), pmc_counter::named("NoSuchCounter")};
        auto const r = setup_pmc(m.k, s, by_name, cswitch_only);
        CHECK(r.step == pmc_step::resolve_counters);
        CHECK(r.condition == pmc_condition::source_absent);
        CHECK(r.error == make_error_code(rule::profile_source_absent));
        CHECK(r.index == 1);
        pmc_counter const by_id[] = {pmc_counter::of(profile_source::pipeline_dry)};
        CHECK(setup_pmc(m.k, s, by_id, cswitch_only).source_id == 3);
    }
    SUBCASE("the timer is not a counter") {
        pmc_counter const timer[] = {pmc_counter::named("Timer")};
        auto const r = setup_pmc(m.k, s, timer, cswitch_only);
        CHECK(r.condition == pmc_condition::counter_is_timer);
        CHECK(r.error == make_error_code(rule::pmc_counter_not_pmc));
        pmc_counter const timer_counter[] = {pmc_counter::of(profile_source::time)};
        CHECK(setup_pmc(m.k, s, timer_counter, cswitch_only).condition == pmc_condition::counter_is_timer);
    }
    SUBCASE("interval out of the source's bounds") {
        pmc_counter const c[] = {pmc_counter::named("TotalCycles", profile_interval{100})};
        auto const r = setup_pmc(m.k, s, c, cswitch_only);
        CHECK(r.step == pmc_step::check_intervals);
        CHECK(r.error == make_error_code(rule::interval_out_of_bounds));
        CHECK(r.min_interval == sim::pmc_min);
        CHECK(r.max_interval == sim::pmc_max);
        CHECK(m.k.interval(19) == sim::pmc_default);
    }
    SUBCASE("event's group not enabled") {
        hook_id const rt[] = {ready_thread};
        auto const r = setup_pmc(m.k, s, two_counters, rt);
        CHECK(r.step == pmc_step::check_event_groups);
        CHECK(r.condition == pmc_condition::group_not_enabled);
        CHECK(r.error == make_error_code(rule::pmc_event_group_not_enabled));
        CHECK(r.event == ready_thread);
        CHECK(r.missing_flag == perf_dispatcher);
        // ... unless the caller enables the flags later and says so.
        pmc_options o;
        o.check_event_groups = false;
        CHECK(setup_pmc(m.k, s, two_counters, rt, o).ok());
        return;
    }
    check_unchanged();
}

TEST_CASE("setup_pmc: the Masks[0] alias counts as enabling the group") {
    machine m;
    enable(m, group_mask::from_enable_flags(0x00000010U)); // EVENT_TRACE_FLAG_CSWITCH
    CHECK(setup_pmc(m.k, session_handle{m.kernel_session}, two_counters, cswitch_only).ok());
}

TEST_CASE("setup_pmc: kernel refusals are translated into conditions") {
    machine m;
    session_handle const s{m.kernel_session};
    enable(m, group_mask{perf_context_switch});
    SUBCASE("unknown session") {
        auto const r = setup_pmc(m.k, session_handle{9}, two_counters, cswitch_only);
        CHECK(r.step == pmc_step::query_group_mask);
        CHECK(r.condition == pmc_condition::session_not_found);
        CHECK(r.error.category() == ntstatus_category());
    }
    SUBCASE("session not in system-logger mode") {
        auto const h = m.k.start_logger(4, sim::logger_options{false, false});
        auto const r = setup_pmc(m.k, session_handle{h}, two_counters, cswitch_only);
        CHECK(r.condition == pmc_condition::not_system_logger);
        CHECK(r.error.value() == ntstatus::invalid_parameter);
    }
    SUBCASE("privilege missing: the interval change is rolled back") {
        pmc_counter const c[] = {pmc_counter::named("TotalCycles", profile_interval{100000})};
        m.k.set_privilege(false);
        auto const r = setup_pmc(m.k, s, c, cswitch_only);
        CHECK(r.step == pmc_step::set_intervals);
        CHECK(r.condition == pmc_condition::privilege_missing);
        CHECK(m.k.interval(19) == sim::pmc_default);
    }
    SUBCASE("privilege missing at the counter list") {
        m.k.set_privilege(false);
        auto const r = setup_pmc(m.k, s, two_counters, cswitch_only);
        CHECK(r.step == pmc_step::set_counter_list);
        CHECK(r.condition == pmc_condition::privilege_missing);
        CHECK_FALSE(r.counters_applied);
        CHECK(m.k.pmc_events(limits::kernel_logger_id).empty()); // the event list was not spent
    }
    SUBCASE("once per session") {
        REQUIRE(setup_pmc(m.k, s, two_counters, cswitch_only).ok());
        auto const r = setup_pmc(m.k, s, two_counters, cswitch_only);
        CHECK(r.step == pmc_step::set_counter_list);
        CHECK(r.condition == pmc_condition::already_configured);
        CHECK(r.error == win32_condition(win32::wmi_already_enabled));
    }
    SUBCASE("more counters than this machine's kernel takes: named from TraceMaxPmcCounterQuery") {
        m.k.set_max_pmc_counters(1);
        auto const r = setup_pmc(m.k, s, two_counters, cswitch_only);
        CHECK(r.step == pmc_step::set_counter_list);
        CHECK(r.condition == pmc_condition::too_many_counters);
        CHECK(r.max_counters == 1);
        CHECK(describe(r.error) == "PMC: 2 counters requested, this machine samples at most 1");
    }
    SUBCASE("counters held by another owner: named from TracePmcCounterOwners") {
        m.k.current_windows().set_external_owner(0, {pmc_owner_type::untagged, 0, 0});
        m.k.current_windows().set_external_owner(1, {pmc_owner_type::tagged, 7, 42});
        m.k.current_windows().set_external_owner(2, {pmc_owner_type::tagged, 7, 42});
        auto const r = setup_pmc(m.k, s, two_counters, cswitch_only);
        CHECK(r.step == pmc_step::set_counter_list);
        CHECK(r.condition == pmc_condition::counters_in_use);
        CHECK(r.owner.type == pmc_owner_type::untagged);
        CHECK(r.max_counters == 4);
        CHECK(r.error == win32_condition(win32::no_system_resources));
    }
    SUBCASE("more than 16 counters on the machine, all but one held: the owners are still read (issue 21 item 9)") {
        m.k.set_max_pmc_counters(40);
        for (std::size_t i = 0; i < 39; ++i) m.k.current_windows().set_external_owner(i, {pmc_owner_type::tagged, 7, 42});
        auto const r = setup_pmc(m.k, s, two_counters, cswitch_only);
        CHECK(r.step == pmc_step::set_counter_list);
        CHECK(r.condition == pmc_condition::counters_in_use); // a 16-counter buffer could not hold 40 owners
        CHECK(r.owner.type == pmc_owner_type::tagged);
        CHECK(r.owner.owner_tag == 42);
        CHECK(r.max_counters == 40);
    }
    SUBCASE("an older Windows: the refusal stays unexplained") {
        m.k.set_max_pmc_counters(1);
        m.k.set_trace_control_available(0x2B, false);
        m.k.set_trace_control_available(0x2D, false);
        auto const r = setup_pmc(m.k, s, two_counters, cswitch_only);
        CHECK(r.condition == pmc_condition::session_refused);
        CHECK(r.max_counters == 0);
    }
    SUBCASE("paged-memory session") {
        auto const h = m.k.start_logger(5, sim::logger_options{true, true});
        enable(m, group_mask{perf_context_switch});
        REQUIRE_FALSE(set<system_trace_enable_flags>(m.k, session_handle{h}, group_mask{perf_context_switch}));
        auto const r = setup_pmc(m.k, session_handle{h}, two_counters, cswitch_only);
        CHECK(r.condition == pmc_condition::session_refused);
    }
    SUBCASE("event list already set: counters spent, intervals rolled back") {
        REQUIRE_FALSE(set<pmc_event_list>(m.k, s, cswitch_only));
        pmc_counter const c[] = {pmc_counter::named("TotalCycles", profile_interval{100000})};
        auto const r = setup_pmc(m.k, s, c, cswitch_only);
        CHECK(r.step == pmc_step::set_event_list);
        CHECK(r.condition == pmc_condition::already_configured);
        CHECK(r.counters_applied);
        CHECK(m.k.interval(19) == sim::pmc_default);
        CHECK_FALSE(r.rollback_error);
    }
    SUBCASE("profile-source list query fails") {
        m.k.inject(ntstatus::insufficient_resources);
        auto const r = setup_pmc(m.k, s, two_counters, cswitch_only);
        CHECK(r.step == pmc_step::query_profile_sources);
        CHECK(r.condition == pmc_condition::kernel_error);
    }
    SUBCASE("rollback failure is reported") {
        REQUIRE_FALSE(set<pmc_event_list>(m.k, s, cswitch_only));
        pmc_counter const c[] = {pmc_counter::named("TotalCycles", profile_interval{100000})};
        // Let every call through until the event list, then fail the rollback: 2 queries + interval
        // query + set + counter list + event list = 6 calls run as they would; the 7th (the rollback) fails.
        struct failing_after {
            sim::kernel& k;
            int left;
            std::int32_t nt_set_system_information(std::uint32_t c, void const* b, std::uint32_t l) noexcept { return tick(), k.nt_set_system_information(c, b, l); }
            std::int32_t nt_query_system_information(std::uint32_t c, void* b, std::uint32_t l, std::uint32_t* r) noexcept { return tick(), k.nt_query_system_information(c, b, l, r); }
            std::int32_t nt_set_interval_profile(std::uint32_t i, std::uint32_t src) noexcept { return tick(), k.nt_set_interval_profile(i, src); }
            std::int32_t nt_query_interval_profile(std::uint32_t src, std::uint32_t* i) noexcept { return tick(), k.nt_query_interval_profile(src, i); }
            std::int32_t nt_trace_control(std::uint32_t c, void const* in, std::uint32_t il, void* o, std::uint32_t ol, std::uint32_t* r) noexcept { return tick(), k.nt_trace_control(c, in, il, o, ol, r); }
            std::uint32_t event_set_information(std::uint64_t h, std::uint32_t c, void const* i, std::uint32_t l) noexcept { return k.event_set_information(h, c, i, l); }
            void tick() noexcept {
                if (--left == 0) k.inject(ntstatus::access_denied);
            }
        } wrapper{m.k, 7};
        auto const r = setup_pmc(wrapper, s, c, cswitch_only);
        CHECK(r.step == pmc_step::set_event_list);
        CHECK(r.rollback_error.value() == ntstatus::access_denied);
    }
}

TEST_CASE("setup_pmc: describe() of an interval refusal shows this counter's values, never an earlier timer failure's") {
    // Issue 35 item 6: the report's error was the bare rule, so describe() found the thread's slot still
    // holding an earlier set<sampled_profile_interval> failure with the same code and printed its values.
    machine m;
    enable(m, group_mask{perf_context_switch});
    auto const timer = set<sampled_profile_interval>(m.k, profile_interval{10}); // unrelated: the timer, 10 x 100 ns
    REQUIRE(timer == rule::interval_out_of_bounds);
    REQUIRE(describe(timer).find("timer's [1221, 1000000]") != std::string::npos);
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_interval{1250})); // a success in between
    pmc_counter const counters[] = {pmc_counter::named("TotalIssues", profile_interval{100})};
    auto const r = setup_pmc(m.k, session_handle{m.kernel_session}, counters, cswitch_only);
    REQUIRE(r.step == pmc_step::check_intervals);
    REQUIRE(r.error == timer); // the same code
    std::string const text = describe(r.error);
    CHECK(text.find("timer") == std::string::npos);
    CHECK(text.find("1221") == std::string::npos);
    CHECK(text == "interval 100 events is outside this hardware counter's [4096, 2147483647] (its MinInterval and "
                  "MaxInterval in the profile-source list); pass a value in range, or bounds.clamp(v) to accept the "
                  "kernel's clamp");
}

TEST_CASE("setup_pmc: every pre-check's error describes this call, whatever failed before with the same code") {
    machine m;
    enable(m, group_mask{perf_context_switch});
    session_handle const s{m.kernel_session};
    static constexpr hook_id five[] = {cswitch, cswitch, cswitch, cswitch, cswitch};
    static constexpr hook_id rt[] = {ready_thread};
    classic_event_id not_kernel{};
    not_kernel.event_guid = guid::from_string("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716");
    classic_event_id const classic[] = {event(0x05, 0x24), not_kernel};
    static constexpr pmc_counter timer[] = {pmc_counter::named("Timer")};
    static constexpr pmc_counter absent[] = {pmc_counter::of_id(0x77)};
    static constexpr pmc_counter low[] = {pmc_counter::named("TotalCycles", profile_interval{100})};
    struct pre_check {
        char const* what;
        pmc_report (*run)(machine&, session_handle);
        char const* expected; ///< describe() of the report's error
    } const checks[] = {
        {"no counters", [](machine& mm, session_handle h) { return setup_pmc(mm.k, h, std::span<pmc_counter const>{}, cswitch_only); },
         "setup_pmc: no counters given; TracePmcCounterListInfo takes 1 to 4"},
        {"five events", [](machine& mm, session_handle h) { return setup_pmc(mm.k, h, two_counters, five); },
         "setup_pmc: 5 events, TracePmcEventListInfo takes at most 4"},
        {"the timer", [](machine& mm, session_handle h) { return setup_pmc(mm.k, h, timer, cswitch_only); },
         "setup_pmc: counter 0 of the list is the timer (ProfileTime), which is no hardware counter; set its interval "
         "with set<sampled_profile_interval>"},
        {"absent", [](machine& mm, session_handle h) { return setup_pmc(mm.k, h, absent, cswitch_only); },
         "setup_pmc: counter 0 of the list (source 119) is not in this machine's profile-source list "
         "(query<profile_source_list> lists what it has)"},
        {"interval", [](machine& mm, session_handle h) { return setup_pmc(mm.k, h, low, cswitch_only); },
         "interval 100 events is outside this hardware counter's [4096, 2147483647] (its MinInterval and MaxInterval "
         "in the profile-source list); pass a value in range, or bounds.clamp(v) to accept the kernel's clamp"},
        {"group off", [](machine& mm, session_handle h) { return setup_pmc(mm.k, h, two_counters, rt); },
         "setup_pmc: event 0x532 never carries counters: the session's group mask does not enable "
         "PERF_DISPATCHER, the flag it needs (set it with set<system_trace_enable_flags>, or "
         "pmc_options::check_event_groups = false if it is enabled later)"},
    };
    for (auto const& c : checks) {
        CAPTURE(c.what);
        auto const first = c.run(m, s);
        REQUIRE_FALSE(first.ok());
        // an earlier failure with the same code and values of its own, then a success
        (void)detail::fail(first.error, "an earlier failure: {value}", "earlier", 424242);
        REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_interval{1250}));
        auto const again = c.run(m, s);
        REQUIRE(again.error == first.error);
        CHECK(describe(again.error) == c.expected);
    }
    // classic events: the one whose GUID is no kernel group's
    (void)detail::fail(make_error_code(rule::pmc_event_group_not_enabled), "an earlier failure: {value}", "earlier", 424242);
    auto const r = setup_pmc(m.k, s, two_counters, std::span<classic_event_id const>(classic));
    REQUIRE(r.condition == pmc_condition::event_not_kernel);
    CHECK(describe(r.error) == "setup_pmc: event 1 of the list has an EventGuid that is no kernel group's; SECHOST would "
                               "skip it and its counters would never appear");
}
