// Issue 34 (items 1, 5, 6) on sim::kernel: a session object acts only on the session it started (name and
// handle together), an UPDATE keeps a system logger's kernel flags, and out-of-range sizes and timers are
// refused naming their limit in every path (file_size, session_config, session_update).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "etwctl_test.hpp"

using namespace etwctl;
using namespace std::chrono_literals;

namespace ownership_tests { // one TU with the other session tests under the SDK-macro check: names kept apart
namespace {
std::unique_ptr<sim::kernel> machine() { return std::make_unique<sim::kernel>(); }
constexpr std::uint32_t stop_code = static_cast<std::uint32_t>(control_code::stop);

/// How many ControlTrace(STOP) requests the kernel has seen.
std::size_t stops(sim::kernel const& k) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < k.request_count(); ++i) {
        auto const& r = k.request(i);
        n += r.is_session_call && r.session == session_function::control_trace_w && r.code == stop_code;
    }
    return n;
}

/// Stops `a`'s session by name elsewhere and starts another session that takes the same logger id.
std::uint16_t replace_elsewhere(sim::kernel& k, trace_session const& a, char const* other) {
    REQUIRE(stop_session(k, "etwctl-mine"));
    auto b = start_session(k, session_config::user(other).real_time());
    REQUIRE(b);
    REQUIRE(b->id().value == a.id().value); // the sim gives the lowest free id, as a fresh Windows often does
    return b->release().logger().value;
}
} // namespace

TEST_CASE("ownership: a session stopped elsewhere is not confused with the next one that gets its logger id") {
    auto k = machine();
    auto a = start_session(*k, session_config::user("etwctl-mine").real_time());
    REQUIRE(a);
    std::uint16_t const id = replace_elsewhere(*k, *a, "someone-else");

    // The owner's explicit stop: "not found", naming what happened, and the other session still runs.
    std::size_t const stops_before = stops(*k);
    auto const r = a->stop();
    CHECK_FALSE(r.stopped);
    CHECK(r.error == win32_condition(win32::wmi_instance_not_found));
    CHECK(describe(r.error).find("is gone") != std::string::npos);
    CHECK(describe(r.error).find("logger id " + std::to_string(id)) != std::string::npos);
    CHECK(stops(*k) == stops_before); // nothing was sent to the other session
    CHECK(attach_session(*k, "someone-else"));
    CHECK_FALSE(a->owns()); // its session is gone: nothing left to stop on scope exit
}

TEST_CASE("ownership: the destructor and a session_ref leave a newer session alone") {
    auto k = machine();
    {
        auto a = start_session(*k, session_config::user("etwctl-mine").real_time());
        REQUIRE(a);
        (void)replace_elsewhere(*k, *a, "someone-else");
    } // scope exit: the owner must not stop "someone-else"
    CHECK(attach_session(*k, "someone-else"));

    auto a = start_session(*k, session_config::user("etwctl-mine").real_time());
    REQUIRE(a);
    session_ref const ref = a->ref();
    a->release();
    REQUIRE(stop_session(*k, "etwctl-mine"));
    auto c = start_session(*k, session_config::user("third").real_time());
    REQUIRE(c);
    REQUIRE(c->id().value == ref.id().value);
    auto const r = ref.stop();
    CHECK(r.error == win32_condition(win32::wmi_instance_not_found));
    CHECK(attach_session(*k, "third"));
    // query, flush and update of the stale reference: not found either, never the other session's data
    CHECK(ref.query().error() == win32_condition(win32::wmi_instance_not_found));
    CHECK(ref.flush() == win32_condition(win32::wmi_instance_not_found));
    CHECK(ref.update(session_update{}.flush_timer(3s)) == win32_condition(win32::wmi_instance_not_found));
    CHECK(c->query()->properties().flush_timer != 3);
    // The session that runs under its own name and handle is still stopped as before.
    CHECK(c->stop());
}

TEST_CASE("ownership: attach by name or by id keeps the session's name with the handle") {
    auto k = machine();
    auto a = start_session(*k, session_config::user("etwctl-mine").real_time());
    REQUIRE(a);
    auto by_name = attach_session(*k, "ETWCTL-MINE"); // names compare case-insensitively
    auto by_id = attach_session(*k, a->handle());
    REQUIRE(by_name);
    REQUIRE(by_id);
    a->release();
    REQUIRE(stop_session(*k, "etwctl-mine"));
    auto b = start_session(*k, session_config::user("someone-else").real_time());
    REQUIRE(b);
    CHECK(by_name->stop().error == win32_condition(win32::wmi_instance_not_found));
    CHECK(by_id->stop().error == win32_condition(win32::wmi_instance_not_found));
    CHECK(b->stop());
}

TEST_CASE("update: a system logger's kernel flags are kept when the update does not set them") {
    auto k = machine();
    auto s = start_session(*k, session_config::system_logger("etwctl-sys").real_time().enable_flags(0x1 | 0x2));
    REQUIRE(s);
    REQUIRE_FALSE(s->update(session_update{}.flush_timer(5s)));
    auto q = s->query();
    REQUIRE(q);
    CHECK(q->properties().flush_timer == 5);
    CHECK(q->properties().enable_flags == (0x1U | 0x2U)); // EnableFlags 0 on UPDATE would turn them all off
    CHECK(k->group_masks(s->id().value).masks[0] == (0x1U | 0x2U)); // the kernel's events too (Masks[0])
    // Set explicitly, they change (0 included: "set this member to 0 to disable all kernel providers").
    REQUIRE_FALSE(s->update(session_update{}.enable_flags(0x4)));
    CHECK(s->query()->properties().enable_flags == 0x4U);
    REQUIRE_FALSE(s->update(session_update{}.enable_flags(0)));
    CHECK(s->query()->properties().enable_flags == 0U);
    CHECK(s->stop());
}

TEST_CASE("update on sim: Windows replaces a system logger's EnableFlags with what UPDATE sends (0 disables all)") {
    auto k = machine();
    auto s = start_session(*k, session_config::system_logger("etwctl-sys").real_time().enable_flags(0x1 | 0x2));
    REQUIRE(s);
    session_properties p = session_properties::for_control();
    p.properties.flush_timer = 7;
    p.properties.log_file_name_offset = 0;                  // keep the file (none)
    p.properties.log_file_mode = log_file_mode::real_time; // keep real time on
    REQUIRE(compat::control_trace(*k, s->handle().value, static_cast<wide_char const*>(nullptr), &p.properties,
                                  static_cast<std::uint32_t>(control_code::update)) == win32::success);
    auto q = s->query();
    REQUIRE(q);
    CHECK(q->properties().flush_timer == 7);
    CHECK(q->properties().enable_flags == 0U);
    CHECK(k->group_masks(s->id().value).masks[0] == 0U); // Masks[0] is EnableFlags: the kernel events are off
}

TEST_CASE("update: flags set with the group mask (the NT Kernel Logger, set<system_trace_enable_flags>) are kept") {
    auto k = machine();
    auto s = start_session(*k, session_config::nt_kernel_logger().real_time());
    REQUIRE(s);
    REQUIRE_FALSE(set<system_trace_enable_flags>(*k, s->handle(), kernel_flags<"PROC_THREAD+LOADER">));
    std::uint32_t const flags = k->group_masks(s->id().value).masks[0];
    REQUIRE(flags != 0U);
    CHECK(s->query()->properties().enable_flags == flags); // a query reports Masks[0] as EnableFlags
    // UIforETW's "-flush NT Kernel Logger -f FILE": an UPDATE with the log file only.
    REQUIRE_FALSE(s->update(session_update{}.log_file(u"kernel.etl")));
    CHECK(k->group_masks(s->id().value).masks[0] == flags);
    REQUIRE_FALSE(s->update(session_update{}.flush_timer(5s)));
    CHECK(k->group_masks(s->id().value).masks[0] == flags);
    CHECK(s->stop());
}

TEST_CASE("limits: a file size past what the field holds is refused naming the limit, never saturated") {
    constexpr std::uint32_t limit = 0xFFFFFFFFU / 1024; // 4,194,303 MB: the most whole MB the KB value holds
    CHECK(file_size::megabytes(limit).in_kilobytes() == limit * 1024U);
    CHECK_FALSE(file_size::megabytes(limit).out_of_range());
    CHECK(file_size::megabytes(limit + 1).out_of_range());
    CHECK(file_size::megabytes(5000000).out_of_range());

    auto const c = session_config::user("x").file_sequential("a.etl", file_size::megabytes(5000000));
    CHECK(c.problem().broken == rule::session_setting_out_of_range);
    auto k = machine();
    std::size_t const before = k->request_count();
    auto const r = start_session(*k, c);
    REQUIRE_FALSE(r);
    CHECK(r.error() == rule::session_setting_out_of_range);
    CHECK(describe(r.error()) == "session configuration: MaximumFileSize 5000000 MB is out of range: at most 4194303 MB");
    CHECK(k->request_count() == before); // nothing sent
}

TEST_CASE("limits: a flush timer past 2^32-1 s is refused the same way by the configuration and the update") {
    std::chrono::seconds const too_long{(std::int64_t{1} << 32) + 1};
    auto const c = session_config::user("x").real_time().flush_timer(too_long);
    CHECK(c.problem().broken == rule::session_setting_out_of_range);
    CHECK(describe(config_error(c.problem())) ==
          "session configuration: FlushTimer (s) 4294967297 is out of range: at most 4294967295");
    CHECK(session_config::user("x").real_time().flush_timer(-1s).problem().broken == rule::session_setting_out_of_range);
    CHECK(session_config::user("x").real_time().flush_timer(std::chrono::seconds{0xFFFFFFFFLL}).problem().broken == rule::ok);

    auto k = machine();
    auto s = start_session(*k, session_config::user("etwctl-mine").real_time().flush_timer(2s));
    REQUIRE(s);
    std::size_t const before = k->request_count();
    auto const ec = s->update(session_update{}.flush_timer(too_long));
    CHECK(ec == rule::session_setting_out_of_range);
    CHECK(describe(ec) == "ControlTrace(UPDATE): FlushTimer (s) 4294967297 is out of range: at most 4294967295");
    CHECK(s->update(session_update{}.flush_timer(-5s)) == rule::session_setting_out_of_range);
    CHECK(k->request_count() == before); // refused before any call (not even the query)
    CHECK(s->query()->properties().flush_timer == 2); // not truncated to 1
}

} // namespace ownership_tests
