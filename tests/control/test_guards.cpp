#include "etwctl/profiler/guards.hpp"

#include <optional>
#include <type_traits>

#include "sim_fixture.hpp"

using namespace etwctl;
using etwctl_test::machine;

namespace {
using guard = basic_interval_guard<sim::kernel>;
using source_guard = basic_profile_source_guard<sim::kernel>;
static_assert(!std::is_copy_constructible_v<guard> && !std::is_copy_assignable_v<guard>);
static_assert(std::is_nothrow_move_constructible_v<guard> && std::is_nothrow_move_assignable_v<guard>);
static_assert(std::is_nothrow_destructible_v<guard>);
static_assert(!std::is_copy_constructible_v<source_guard>);
static_assert(std::is_nothrow_move_constructible_v<source_guard> && std::is_nothrow_move_assignable_v<source_guard>);

// The guards for any kernel are plain types (issue 21 item 20): members and optionals need no template.
static_assert(std::is_same_v<interval_guard, basic_interval_guard<kernel_ref>>);
static_assert(std::is_nothrow_default_constructible_v<interval_guard> && std::is_nothrow_move_assignable_v<interval_guard>);
static_assert(std::is_nothrow_default_constructible_v<profile_source_guard>);
static_assert(std::is_nothrow_move_constructible_v<std::optional<interval_guard>>);

constexpr auto timer_id = static_cast<std::uint32_t>(profile_source::time);
constexpr auto total_cycles = static_cast<std::uint32_t>(profile_source::total_cycles);

struct report_log {
    int calls = 0;
    std::error_code last;
    static void record(void* self, std::error_code const& ec) noexcept {
        auto* l = static_cast<report_log*>(self);
        ++l->calls;
        l->last = ec;
    }
};
} // namespace

TEST_CASE("interval_guard: sets for the scope and restores the captured value, not a default") {
    machine m;
    REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_interval{5000})); // someone else's value
    {
        interval_guard g(m.k, profile_interval{1221});
        CHECK_FALSE(g.error());
        CHECK(g.active());
        CHECK(g.saved() == profile_interval{5000});
        CHECK(m.k.interval(timer_id) == 1221);
    }
    CHECK(m.k.interval(timer_id) == 5000);
}

TEST_CASE("interval_guard: a captured value outside the documented bounds is put back as it was") {
    // Issue 21 item 15: the restore went through the checked setter, so a timer value another tool had
    // set outside [1221, 1000000] (the machine reports wider bounds) was never put back.
    machine m;
    sim::profile_source_desc const wide[] = {{0, "Timer", 10000, 1221, 10000000}, {19, "TotalCycles", 65536, 4096, 2147483647}};
    REQUIRE(m.k.set_profile_sources(wide));
    REQUIRE(m.k.nt_set_interval_profile(2000000, 0) == ntstatus::success); // 200 ms, by another tool
    {
        interval_guard g(m.k, timer_interval<1250>);
        REQUIRE_FALSE(g.error());
        CHECK(g.saved() == profile_interval{2000000});
        CHECK(m.k.interval(timer_id) == 1250);
    }
    CHECK(m.k.interval(timer_id) == 2000000);
    // profile_source_guard puts its captured intervals back the same way
    profile_source_setting const settings[] = {{profile_source::time, profile_interval{1250}}};
    {
        profile_source_guard g(m.k, session_handle{m.kernel_session}, settings);
        REQUIRE_FALSE(g.error());
    }
    CHECK(m.k.interval(timer_id) == 2000000);
}

TEST_CASE("interval_guard: a hardware counter's interval in events, checked against the source's bounds") {
    machine m;
    {
        interval_guard g(m.k, profile_source::total_cycles, counter_interval{8192});
        REQUIRE_FALSE(g.error());
        CHECK(m.k.interval(total_cycles) == 8192);
    }
    CHECK(m.k.interval(total_cycles) == sim::pmc_default);
    interval_guard low(m.k, profile_source::total_cycles, counter_interval{100}); // under the source's 4096
    CHECK(low.error() == rule::interval_out_of_bounds);
    CHECK_FALSE(low.active());
    CHECK(m.k.interval(total_cycles) == sim::pmc_default);
    interval_guard absent(m.k, profile_source::pipeline_dry, counter_interval{8192});
    CHECK(absent.error() == rule::profile_source_absent);
}

TEST_CASE("interval_guard: a hardware source, explicit restore, release, move") {
    machine m;
    SUBCASE("explicit restore returns the result and disarms") {
        interval_guard g(m.k, profile_source::total_cycles, profile_interval{100000});
        CHECK(m.k.interval(total_cycles) == 100000);
        CHECK_FALSE(g.restore());
        CHECK_FALSE(g.active());
        CHECK(m.k.interval(total_cycles) == sim::pmc_default);
        m.k.clear_requests();
    }
    SUBCASE("release keeps the new value") {
        {
            interval_guard g(m.k, profile_source::total_cycles, profile_interval{100000});
            g.release();
        }
        CHECK(m.k.interval(total_cycles) == 100000);
    }
    SUBCASE("a moved guard restores once, from its new owner") {
        guard outer;
        {
            guard g(m.k, profile_interval{2000});
            outer = std::move(g);
            CHECK_FALSE(g.active());
        }
        CHECK(m.k.interval(timer_id) == 2000);
        m.k.clear_requests();
        outer = guard{};
        CHECK(m.k.interval(timer_id) == 10000);
        CHECK(m.k.request_count() == 1);
    }
}

TEST_CASE("interval_guard: failures to apply change nothing and restore nothing") {
    machine m;
    SUBCASE("privilege missing") {
        m.k.set_privilege(false);
        interval_guard g(m.k, profile_interval{2000});
        CHECK(g.error() == win32_condition(win32::privilege_not_held));
        CHECK(g.error().category() == ntstatus_category());
        CHECK_FALSE(g.active());
        CHECK(m.k.interval(timer_id) == 10000);
    }
    SUBCASE("a source the machine does not have reads back as 0: refused before anything is set") {
        m.k.clear_requests();
        interval_guard g(m.k, profile_source::pipeline_dry, profile_interval{5000});
        CHECK(g.error() == make_error_code(rule::profile_source_absent));
        CHECK(m.k.request_count() == 1); // only the query
    }
    SUBCASE("the capture query fails (Wine lacks NtQueryIntervalProfile)") {
        m.k.set_available(kernel_function::nt_query_interval_profile, false);
        interval_guard g(m.k, profile_source::total_cycles, profile_interval{5000});
        CHECK(g.error().value() == ntstatus::entrypoint_not_found);
        CHECK(m.k.interval(total_cycles) == sim::pmc_default);
    }
}

TEST_CASE("interval_guard: a failed restore is reported, never thrown") {
    machine m;
    SUBCASE("into the caller's error_code") {
        std::error_code restore_failure;
        {
            interval_guard g(m.k, profile_interval{2000}, report_to(restore_failure));
            m.k.set_privilege(false); // e.g. the token changed during the trace
        }
        CHECK(restore_failure == win32_condition(win32::privilege_not_held));
        CHECK(m.k.interval(timer_id) == 2000);
    }
    SUBCASE("to a callback") {
        report_log log;
        {
            interval_guard g(m.k, profile_interval{2000}, report_to(&report_log::record, &log));
            m.k.inject(ntstatus::access_denied);
        }
        CHECK(log.calls == 1);
        CHECK(log.last.value() == ntstatus::access_denied);
    }
    SUBCASE("by explicit restore(), kept in restore_error(), reported once") {
        report_log log;
        interval_guard g(m.k, profile_interval{2000}, report_to(&report_log::record, &log));
        m.k.inject(ntstatus::access_denied);
        auto const ec = g.restore();
        CHECK(ec.value() == ntstatus::access_denied);
        CHECK(g.restore_error() == ec);
        CHECK(g.restore() == ec); // no second attempt
        CHECK(log.calls == 0);    // explicit restore hands the error to the caller instead
    }
    SUBCASE("success reports nothing") {
        report_log log;
        { interval_guard g(m.k, profile_interval{2000}, report_to(&report_log::record, &log)); }
        CHECK(log.calls == 0);
    }
}

TEST_CASE("profile_source_guard: configures a session, restores the stated previous configuration") {
    machine m;
    profile_source_setting const settings[] = {
        {profile_source::total_cycles, profile_interval{8192}},
        {profile_source::branch_instructions, {}}, // interval left alone
    };
    {
        profile_source_guard g(m.k, session_handle{m.kernel_session}, settings);
        REQUIRE_FALSE(g.error());
        auto const config = m.k.profile_config();
        CHECK(std::vector<std::uint32_t>(config.begin(), config.end()) == std::vector<std::uint32_t>{19, 6});
        CHECK(m.k.interval(total_cycles) == 8192);
        CHECK(g.saved_intervals().size() == 1);
    }
    auto const config = m.k.profile_config();
    CHECK(std::vector<std::uint32_t>(config.begin(), config.end()) == std::vector<std::uint32_t>{timer_id});
    CHECK(m.k.interval(total_cycles) == sim::pmc_default);

    // A caller who knows the previous configuration states it.
    profile_source const prior[] = {profile_source::cache_misses};
    {
        profile_source_guard g(m.k, session_handle{m.kernel_session}, settings, prior);
        REQUIRE_FALSE(g.error());
    }
    auto const after = m.k.profile_config();
    CHECK(std::vector<std::uint32_t>(after.begin(), after.end()) == std::vector<std::uint32_t>{10});
}

TEST_CASE("profile_source_guard: a failure half-way undoes the intervals already changed") {
    machine m;
    profile_source_setting const settings[] = {
        {profile_source::total_cycles, profile_interval{8192}},
        {profile_source::pipeline_dry, profile_interval{8192}}, // not on this machine
    };
    profile_source_guard g(m.k, session_handle{m.kernel_session}, settings);
    CHECK(g.error() == make_error_code(rule::profile_source_absent));
    CHECK_FALSE(g.active());
    CHECK(m.k.interval(total_cycles) == sim::pmc_default);
    CHECK_FALSE(g.restore_error());

    SUBCASE("config refused by the kernel (privilege): intervals undone too") {
        profile_source_setting const one[] = {{profile_source::total_cycles, profile_interval{8192}}};
        std::error_code rollback;
        m.k.set_privilege(false);
        profile_source_guard h(m.k, session_handle{m.kernel_session}, one, default_profile_source_config, report_to(rollback));
        CHECK(h.error() == win32_condition(win32::privilege_not_held));
        CHECK(m.k.interval(total_cycles) == sim::pmc_default);
        CHECK_FALSE(rollback);
    }
    SUBCASE("wrong counts are rules, checked before anything is sent") {
        m.k.clear_requests();
        profile_source_guard none(m.k, session_handle{m.kernel_session}, std::span<profile_source_setting const>{});
        CHECK(none.error() == make_error_code(rule::profile_config_empty));
        profile_source_setting const five[5] = {};
        profile_source_guard many(m.k, session_handle{m.kernel_session}, five);
        CHECK(many.error() == make_error_code(rule::profile_config_size));
        CHECK(m.k.request_count() == 0);
    }
}

TEST_CASE("profile_source_guard: a failed restore is reported; every restore step is still tried") {
    machine m;
    profile_source_setting const settings[] = {{profile_source::total_cycles, profile_interval{8192}}};
    std::error_code failure;
    {
        profile_source_guard g(m.k, session_handle{m.kernel_session}, settings, default_profile_source_config,
                               report_to(failure));
        REQUIRE_FALSE(g.error());
        m.k.inject(ntstatus::insufficient_resources); // the config restore fails ...
    }
    CHECK(failure.value() == ntstatus::insufficient_resources);
    CHECK(m.k.interval(total_cycles) == sim::pmc_default); // ... the interval restore still ran
}

namespace {
/// What a first-day user writes: the guards as members and in an optional, no template arguments.
struct sampler {
    interval_guard rate;                          // empty until started
    std::optional<profile_source_guard> sources;  // only when hardware counters are wanted
    void start(sim::kernel& k, session_handle s) {
        using namespace etwctl::literals;
        rate = interval_guard(k, 8_kHz);
        profile_source_setting const counters[] = {{profile_source::total_cycles, profile_interval{8192}}};
        sources.emplace(k, s, counters);
    }
};
} // namespace

TEST_CASE("guards as members and in std::optional, for any kernel (interval_guard = basic_interval_guard<kernel_ref>)") {
    machine m;
    {
        sampler s;
        CHECK_FALSE(s.rate.active());
        s.start(m.k, session_handle{m.kernel_session});
        REQUIRE_FALSE(s.rate.error());
        REQUIRE(s.sources);
        REQUIRE_FALSE(s.sources->error());
        CHECK(m.k.interval(timer_id) == 1250);
        CHECK(m.k.interval(total_cycles) == 8192);
        s.sources.reset(); // restores now
        CHECK(m.k.interval(total_cycles) == sim::pmc_default);
        CHECK(m.k.interval(timer_id) == 1250);
    }
    CHECK(m.k.interval(timer_id) == 10000); // the member restored on destruction
    // the same guard type over any kernel type, including a kernel_ref the caller holds
    kernel_ref const r = m.k;
    {
        interval_guard g(r, profile_interval{2000});
        REQUIRE_FALSE(g.error());
        CHECK(m.k.interval(timer_id) == 2000);
    }
    CHECK(m.k.interval(timer_id) == 10000);
}
