// The typed session API on sim::kernel: the typed twin of every documented error of StartTrace,
// ControlTrace, QueryAllTraces and EnableTraceEx2 (the ones the drop-in functions are tested for), with
// the message each gives; statistics and loss; what Windows changed; listing; orphans; system loggers.
// Errors that need a pointer or an offset the typed API does not let a caller give (a NULL Properties or
// handle pointer, a bad LoggerNameOffset, Wnode.BufferSize too small, an array entry of QueryAllTraces)
// cannot be written with it: their typed twin is that the code does not exist (no such parameter).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "etwctl_test.hpp"

using namespace etwctl;
using namespace std::chrono_literals;
using namespace etwctl::literals;

using etwctl_test::u16;

namespace {
std::unique_ptr<sim::kernel> machine() { return std::make_unique<sim::kernel>(); }
} // namespace

static_assert(session_kernel<sim::kernel> && orphan_session_kernel<sim::kernel>);

TEST_CASE("typed on sim: StartTrace's documented errors, each with its typed twin") {
    auto k = machine();
    auto const refuse = [&](session_config const& c, std::error_condition want, std::string const& message) {
        auto const r = start_session(*k, c);
        CHECK(r.error() == want);
        CHECK(describe(r.error()) == message);
    };
    // ERROR_INVALID_PARAMETER: an invalid LogFileMode combination; SystemTraceControlGuid with another name.
    // The typed configuration refuses both before any call (the drop-in StartTrace's rules).
    std::size_t const calls_before = k->request_count();
    refuse(session_config::user("x").file_sequential("a.etl").file_circular("b.etl", file_size::megabytes(1)).real_time()
               .file_append("c.etl"),
           win32_condition(win32::invalid_parameter),
           "session configuration: LogFileMode 0x104 combines EVENT_TRACE_FILE_MODE_APPEND with a mode it excludes (choose "
           "one: real time with a sequential or circular file, buffering without a file, append without real time)");
    refuse(session_config::user("x").session_guid(session_guids::system_trace_control).real_time(),
           win32_condition(win32::invalid_parameter),
           "session configuration: SystemTraceControlGuid belongs to the NT Kernel Logger (use "
           "session_config::nt_kernel_logger(), or another GUID)");
    // ERROR_INVALID_NAME: an empty or too long name; a NEWFILE name without one %d.
    refuse(session_config::user("").real_time(), win32_condition(win32::invalid_name),
           "session configuration: the session name has 0 characters; Windows takes 1 to 1024 (give a shorter name)");
    refuse(session_config::user("x").file_newfile("trace.etl", file_size::megabytes(4)), win32_condition(win32::invalid_name),
           "session configuration: a NEWFILE path must contain exactly one \"%d\" (the file's number), e.g. \"trace_%d.etl\"");
    // ERROR_BAD_PATHNAME: no destination.
    refuse(session_config::user("x"), win32_condition(win32::bad_pathname),
           "session configuration: no destination (add real_time(), buffering() or a file_...(path))");
    CHECK(k->request_count() == calls_before); // none of these reached the kernel

    // ERROR_ALREADY_EXISTS: the same name (any case), or the same GUID.
    auto first = start_session(*k, session_config::user("etwctl-dup").real_time().session_guid("11111111-2222-3333-4444-555555555555"_guid));
    REQUIRE(first);
    refuse(session_config::user("ETWCTL-DUP").real_time(), win32_condition(win32::already_exists),
           "StartTrace: a session with this name or GUID already runs, Win32 ERROR_ALREADY_EXISTS 183 (if_exists::attach "
           "uses it, if_exists::stop_and_restart replaces it; leftovers of a crashed run: stop_orphans(k, prefix))");
    refuse(session_config::user("etwctl-other").real_time().session_guid("11111111-2222-3333-4444-555555555555"_guid),
           win32_condition(win32::already_exists),
           "StartTrace: a session with this name or GUID already runs, Win32 ERROR_ALREADY_EXISTS 183 (if_exists::attach "
           "uses it, if_exists::stop_and_restart replaces it; leftovers of a crashed run: stop_orphans(k, prefix))");
    // A GUID collision has nothing to attach to: the policy cannot hide it.
    CHECK(start_session(*k, session_config::user("etwctl-other").real_time().session_guid("11111111-2222-3333-4444-555555555555"_guid),
                        if_exists::attach)
              .error() == win32_condition(win32::already_exists));

    // ERROR_BAD_PATHNAME: a log file another session writes.
    auto file_owner = start_session(*k, session_config::user("etwctl-file").file_sequential("shared.etl"));
    REQUIRE(file_owner);
    refuse(session_config::user("etwctl-file2").file_sequential("shared.etl"), win32_condition(win32::bad_pathname),
           "StartTrace: Win32 ERROR_BAD_PATHNAME 161: the log file is used by another session or its folder does not exist");

    // ERROR_ACCESS_DENIED: not an administrator or Performance Log User.
    k->sessions().set_elevated(false);
    refuse(session_config::user("etwctl-denied").real_time(), win32_condition(win32::access_denied),
           "StartTrace: access denied, Win32 ERROR_ACCESS_DENIED 5: controlling sessions needs an elevated administrator "
           "or a member of Performance Log Users (the NT Kernel Logger: administrators only)");
    k->sessions().set_elevated(true);
}

TEST_CASE("typed on sim: ERROR_NO_SYSTEM_RESOURCES for the 9th system logger and past the machine's maximum") {
    auto k = machine();
    std::vector<trace_session> held;
    std::vector<owned_session_name> names;
    names.reserve(16);
    for (std::uint32_t i = 0; i < 8; ++i) {
        names.push_back(owned_session_name::of("slot", 100 + i));
        auto s = start_session(*k, session_config::system_logger(names.back().text()).real_time());
        REQUIRE(s);
        held.push_back(std::move(*s));
    }
    CHECK(k->sessions().system_loggers() == 8);
    names.push_back(owned_session_name::of("slot", 999));
    auto ninth = start_session(*k, session_config::system_logger(names.back().text()).real_time());
    CHECK(ninth.error() == win32_condition(win32::no_system_resources));
    CHECK(describe(ninth.error()) ==
          "StartTrace: no session slot, Win32 ERROR_NO_SYSTEM_RESOURCES 1450: the machine runs its maximum of sessions (64 "
          "by default, EtwMaxLoggers) or 8 system loggers (stop sessions you do not need; stop_orphans(k, prefix))");
    // A user session still fits; past the machine's maximum it does not.
    REQUIRE(k->sessions().set_max_loggers(10));
    auto ok1 = start_session(*k, session_config::user("u1").real_time());
    auto ok2 = start_session(*k, session_config::user("u2").real_time());
    CHECK(ok1.has_value());
    CHECK(ok2.has_value());
    CHECK(start_session(*k, session_config::user("u3").real_time()).error() == win32_condition(win32::no_system_resources));
}

TEST_CASE("typed on sim: the NT Kernel Logger singleton, and the policies for a session that already runs") {
    auto k = machine();
    auto other_tool = start_session(*k, session_config::nt_kernel_logger().real_time());
    REQUIRE(other_tool);
    CHECK(other_tool->handle().logger().is_kernel_logger());
    auto other = other_tool->release(); // "another tool's" NT Kernel Logger: this object no longer owns it
    (void)other;
    // fail: nothing touched
    auto refused = start_session(*k, session_config::nt_kernel_logger().real_time());
    CHECK(refused.error() == win32_condition(win32::already_exists));
    REQUIRE(k->sessions().find(limits::kernel_logger_id) != nullptr);
    // attach: used, never stopped by this object
    {
        auto attached = start_session(*k, session_config::nt_kernel_logger().real_time(), if_exists::attach);
        REQUIRE(attached);
        CHECK_FALSE(attached->owns());
        CHECK(attached->handle().logger().is_kernel_logger());
        CHECK_FALSE(set<stack_tracing>(*k, attached->handle(), stack_walk<"SampledProfile">)); // the typed set<> on it
    }
    CHECK(k->sessions().find(limits::kernel_logger_id) != nullptr);
    // stop_and_restart: asked for exactly that
    auto mine = start_session(*k, session_config::nt_kernel_logger().real_time().buffer(buffer_size::kilobytes(1024)),
                              if_exists::stop_and_restart);
    REQUIRE(mine);
    CHECK(mine->owns());
    CHECK(k->sessions().find(limits::kernel_logger_id)->properties.buffer_size == 1024);
}

TEST_CASE("typed on sim: ControlTrace's documented errors, each with its typed twin") {
    auto k = machine();
    auto s = start_session(*k, session_config::user("etwctl-control").file_sequential("control.etl"));
    REQUIRE(s);
    session_ref const ref = s->ref();
    // ERROR_BAD_PATHNAME: UPDATE to a file another session writes.
    auto other = start_session(*k, session_config::user("etwctl-other").file_sequential("other.etl"));
    REQUIRE(other);
    auto const ec = s->update(session_update{}.log_file("other.etl"));
    CHECK(ec == win32_condition(win32::bad_pathname));
    CHECK(describe(ec) == "ControlTrace(UPDATE): Win32 ERROR_BAD_PATHNAME 161: the log file is used by another session or "
                          "its folder does not exist");
    // ERROR_ACCESS_DENIED
    k->sessions().set_elevated(false);
    auto const denied = s->query();
    CHECK(denied.error() == win32_condition(win32::access_denied));
    CHECK(describe(denied.error()) == "ControlTrace(QUERY): access denied, Win32 ERROR_ACCESS_DENIED 5: controlling sessions "
                                      "needs an elevated administrator or a member of Performance Log Users (the NT Kernel "
                                      "Logger: administrators only)");
    k->sessions().set_elevated(true);
    // ERROR_WMI_INSTANCE_NOT_FOUND: a session that no longer runs (stopped through another reference).
    auto const stopped = s->stop();
    CHECK(stopped.stopped);
    auto const gone = ref.query();
    CHECK(gone.error() == win32_condition(win32::wmi_instance_not_found));
    CHECK(describe(gone.error()) == "ControlTrace(QUERY): no such session, Win32 ERROR_WMI_INSTANCE_NOT_FOUND 4201 (it "
                                    "stopped, or never ran)");
    CHECK(ref.flush() == win32_condition(win32::wmi_instance_not_found));
    auto const stop_again = ref.stop();
    CHECK_FALSE(stop_again.stopped);
    CHECK(describe(stop_again.error) == "ControlTrace(STOP): no such session, Win32 ERROR_WMI_INSTANCE_NOT_FOUND 4201 (it "
                                        "stopped, or never ran)");
    // ERROR_INVALID_PARAMETER: neither a name nor a handle; a handle that is not one. Typed: an empty object.
    trace_session empty;
    CHECK(empty.query().error() == rule::session_no_target);
    CHECK(empty.query().error() == win32_condition(win32::invalid_parameter));
    CHECK(attach_session(*k, session_handle{0x1234}).error() == win32_condition(win32::invalid_parameter));
    CHECK(describe(attach_session(*k, session_handle{0x1234}).error()) == "ControlTrace(QUERY): Windows refused, Win32 "
                                                                          "ERROR_INVALID_PARAMETER 87");
}

TEST_CASE("typed on sim: QueryAllTraces' documented errors, and listing the whole machine") {
    auto k = machine();
    std::vector<trace_session> held;
    for (int i = 0; i < 20; ++i) {
        std::string const name = "etwctl-list-" + std::to_string(i);
        auto s = start_session(*k, session_config::user(name).real_time());
        REQUIRE(s);
        held.push_back(std::move(*s));
    }
    // ERROR_INVALID_PARAMETER: PropertyArrayCount 0. Typed: no storage.
    auto const none = list_sessions(*k, session_list_storage{});
    CHECK(none.error() == rule::session_query_all_count);
    CHECK(describe(none.error()) == "list_sessions: no storage (a session_list_buffer<N> or spans of at least one entry)");
    // ERROR_MORE_DATA: too few entries; the count comes back.
    auto few = std::make_unique<session_list_buffer<5>>();
    auto const partial = list_sessions(*k, *few);
    CHECK(partial.error() == win32_condition(win32::more_data));
    CHECK(sessions_required() == 20);
    // Storage larger than the machine's maximum: PropertyArrayCount is capped at query<max_loggers>, not refused.
    REQUIRE(k->sessions().set_max_loggers(30));
    auto big = std::make_unique<session_list_buffer<100>>();
    auto const all = list_sessions(*k, *big);
    REQUIRE(all);
    CHECK(all->size() == 20);
    std::vector<std::u16string> names;
    for (auto const& s : *all) names.push_back(u16(s.name()));
    CHECK(std::find(names.begin(), names.end(), u"etwctl-list-19") != names.end());
    // Not elevated: QueryAllTraces lists nothing (no error).
    k->sessions().set_elevated(false);
    auto const hidden = list_sessions(*k, *big);
    REQUIRE(hidden);
    CHECK(hidden->empty());
}

TEST_CASE("typed on sim: EnableTraceEx2's documented errors, each with its typed twin") {
    auto k = machine();
    constexpr guid provider = provider_name<"MyCompany.MyComponent">;
    std::vector<trace_session> sessions;
    for (int i = 0; i < 9; ++i) {
        std::string const name = "etwctl-enable-" + std::to_string(i);
        auto s = start_session(*k, session_config::user(name).real_time());
        REQUIRE(s);
        sessions.push_back(std::move(*s));
    }
    for (int i = 0; i < 8; ++i) CHECK_FALSE(enable_provider(sessions[static_cast<std::size_t>(i)], provider));
    // ERROR_NO_SYSTEM_RESOURCES: the 9th session on one provider (PerfView #769).
    auto const ninth = enable_provider(sessions[8], provider);
    CHECK(ninth == win32_condition(win32::no_system_resources));
    CHECK(describe(ninth) == "EnableTraceEx2: the provider is already enabled in as many sessions as Windows allows (8 for a "
                             "manifest or TraceLogging provider), Win32 ERROR_NO_SYSTEM_RESOURCES 1450 (stop one of them, or "
                             "share a session)");
    // ERROR_INVALID_PARAMETER: handle 0 (typed: an empty object); a filter beyond its limit (before the call).
    trace_session empty;
    auto const zero = enable_provider(empty, provider);
    CHECK(zero == rule::session_handle_zero);
    CHECK(describe(zero) == "EnableTraceEx2: an empty session object (not started, moved from, or released)");
    std::array<std::uint32_t, 9> const nine{};
    std::size_t const before = k->request_count();
    CHECK(enable_provider(sessions[0], provider, enable_options{}.process_ids(nine)) == win32_condition(win32::invalid_parameter));
    CHECK(k->request_count() == before);
    // ERROR_ACCESS_DENIED
    k->sessions().set_elevated(false);
    auto const denied = enable_provider(sessions[0], provider);
    CHECK(denied == win32_condition(win32::access_denied));
    CHECK(describe(denied) == "EnableTraceEx2: access denied, Win32 ERROR_ACCESS_DENIED 5: controlling sessions needs an "
                              "elevated administrator or a member of Performance Log Users (the NT Kernel Logger: administrators "
                              "only)");
    k->sessions().set_elevated(true);
    // A session that stopped (PerfView PR #2152: 0x80071069 = ERROR_WMI_INSTANCE_NOT_FOUND).
    session_ref const ref = sessions[1].ref();
    (void)sessions[1].stop();
    auto const gone = enable_provider(ref, provider);
    CHECK(gone == win32_condition(win32::wmi_instance_not_found));
    // What the sim kept from a good call: the filters as sent.
    std::array<std::uint32_t, 2> const pids{0x10, 0x20};
    std::array<std::uint16_t, 2> const ids{5, 6};
    REQUIRE_FALSE(enable_provider(sessions[2], provider,
                                  enable_options{}.level(trace_level::warning).match_any(0x3).stack_trace().process_ids(pids).event_ids(filter_in, ids)));
    auto const* e = k->sessions().enablement(sessions[2].id().value, provider);
    REQUIRE(e != nullptr);
    CHECK(e->level == 3);
    CHECK(e->match_any == 0x3);
    CHECK(e->enable_property == enable_property::stack_trace);
    REQUIRE(e->filter_count == 2);
    CHECK(e->filter_types[0] == filter_type::pid);
    CHECK(e->filter_sizes[0] == 8);
    CHECK(e->filter_types[1] == filter_type::event_id);
    CHECK(e->filter_sizes[1] == 8);
    auto const bytes = k->sessions().filter_data(*e);
    REQUIRE(bytes.size() == 16);
    CHECK(std::to_integer<int>(bytes[0]) == 0x10);
    CHECK(std::to_integer<int>(bytes[8]) == 1); // FilterIn
    CHECK(std::to_integer<int>(bytes[10]) == 2); // Count
    CHECK(std::to_integer<int>(bytes[12]) == 5);
    REQUIRE_FALSE(disable_provider(sessions[2], provider));
    CHECK(k->sessions().enablement(sessions[2].id().value, provider) == nullptr);
}

TEST_CASE("typed on sim: statistics grow, the loss is reported at the stop, clamps are reported") {
    auto k = machine();
    auto s = start_session(*k, session_config::user("etwctl-stats").real_time().buffer(buffer_size::kilobytes(64))
                                   .buffers(minimum_buffers{1}, maximum_buffers{1}));
    REQUIRE(s);
    // The sim raises MinimumBuffers to 2 per processor and MaximumBuffers to at least MinimumBuffers: said.
    CHECK_FALSE(s->adjusted().empty());
    auto const* min = s->adjusted().find(session_setting::minimum_buffers);
    REQUIRE(min != nullptr);
    CHECK(min->requested == 1);
    CHECK(min->effective > 1);
    REQUIRE(k->sessions().log_events(s->handle().value, 10000, 100));
    auto const q = s->query();
    REQUIRE(q);
    CHECK(q->statistics().buffers_written > 0);
    CHECK(q->adjusted.find(session_setting::maximum_buffers) != nullptr);
    REQUIRE(k->sessions().lose_events(s->handle().value, 17));
    REQUIRE(k->sessions().lose_buffers(s->handle().value, 0, 2));
    auto const report = s->stop();
    CHECK(report.stopped);
    CHECK(report.lost());
    CHECK(report.statistics.events_lost == 17);
    CHECK(report.statistics.real_time_buffers_lost == 2);
    CHECK(report.statistics.buffers_written == q->statistics().buffers_written);
    CHECK(report.error == session_condition::events_lost);
    CHECK(describe(report.error) == "the session lost data: 17 events, 0 log-file buffers, 2 real-time buffers (larger or "
                                    "more buffers: buffer(...), buffers(...); a consumer that keeps up; or a file)");
    CHECK(k->sessions().find(s->id().value) == nullptr);
}

TEST_CASE("typed on sim: orphans of crashed runs are stopped, nothing else") {
    auto k = machine();
    std::uint32_t const self = k->current_process_id();
    REQUIRE(k->sessions().set_process_alive(5000, true));
    auto const dead = owned_session_name::of("profile", 4000);   // its process is gone
    auto const alive = owned_session_name::of("profile", 5000);  // runs
    auto const mine = owned_session_name::of("profile", self);   // this process
    auto const other = owned_session_name::of("otherjob", 4000); // another prefix
    for (auto const* n : {&dead, &alive, &mine, &other})
        REQUIRE(start_session(*k, session_config::user(n->text()).real_time())->release().value != 0);
    auto storage = std::make_unique<session_list_buffer<16>>();
    auto const r = stop_orphans(*k, "profile", *storage);
    CHECK(static_cast<bool>(r));
    CHECK(r.matched == 3);
    CHECK(r.orphans == 1);
    CHECK(r.stopped == 1);
    CHECK(k->sessions().find_by_name(std::string_view(dead.view())) == nullptr);
    CHECK(k->sessions().find_by_name(std::string_view(alive.view())) != nullptr);
    CHECK(k->sessions().find_by_name(std::string_view(mine.view())) != nullptr);
    CHECK(k->sessions().find_by_name(std::string_view(other.view())) != nullptr);
}

TEST_CASE("typed on sim: a kernel session is a private system logger the set<> calls accept") {
    auto k = machine();
    auto const name = owned_session_name::of("profile", k->current_process_id());
    auto s = start_session(*k, kernel_session(*k, name).real_time().enable_flags(0x1 | 0x2));
    REQUIRE(s);
    CHECK_FALSE(s->handle().logger().is_kernel_logger());
    CHECK(k->sessions().system_loggers() == 1);
    CHECK_FALSE(set<system_trace_enable_flags>(*k, s->handle(), kernel_flags<"PROC_THREAD+LOADER+PROFILE">));
    CHECK_FALSE(set<stack_tracing>(*k, s->handle(), stack_walk<"SampledProfile+CSwitch">));
    CHECK(k->stack_tracing_hooks(s->id().value).size() == 2);
    // A user session is not a system logger: the kernel refuses the system-trace classes on it.
    auto u = start_session(*k, session_config::user("etwctl-user").real_time());
    REQUIRE(u);
    CHECK(set<stack_tracing>(*k, u->handle(), stack_walk<"SampledProfile">) == win32_condition(win32::invalid_parameter));
}
