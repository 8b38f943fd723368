// The typed session objects (session/session.hpp, providers.hpp, list.hpp, orphans.hpp, system_logger.hpp)
// against a recording double: what each call sends (a fresh block every time, never the start block), the
// ownership rules (stop on scope exit, release, attach never stops), statistics and loss, what Windows
// changed, update's fields, the filters' bytes, listing past 64 sessions, orphans and the kernel-session
// choice. Windows' own answers (the documented errors) are tested on sim::kernel in test_typed_sim.cpp.
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "etwctl_test.hpp"
#include "session_double.hpp"

using namespace etwctl;
using namespace std::chrono_literals;
using namespace etwctl::literals;
using typed_test::session_double;

using etwctl_test::u16;

namespace {
std::size_t count_calls(session_double const& k, char const* f, std::uint32_t code) {
    std::size_t n = 0;
    for (auto const& c : k.calls) n += std::string(c.function) == f && c.code == code;
    return n;
}
constexpr std::uint32_t stop_code = static_cast<std::uint32_t>(control_code::stop);
constexpr std::uint32_t query_code = static_cast<std::uint32_t>(control_code::query);

/// A holder of a session as a member: the point of the type-erased kernel (no kernel type to name).
struct profiler_state {
    std::optional<trace_session> session;
};
} // namespace

TEST_CASE("typed session: start sends the configuration's block; the session stops at scope exit") {
    session_double k;
    {
        auto s = start_session(k, session_config::user("etwctl-test").real_time().buffer(buffer_size::kilobytes(64)));
        REQUIRE(s.has_value());
        CHECK(s->owns());
        CHECK(s->handle().value == 1);
        REQUIRE(k.calls.size() == 1);
        auto const& start = k.calls[0];
        CHECK(std::string(start.function) == "StartTraceW");
        CHECK(start.name == u"etwctl-test"); // InstanceName
        CHECK(start.properties.wnode.buffer_size == sizeof(session_properties));
        CHECK(start.properties.buffer_size == 64);
        CHECK(start.properties.log_file_mode == log_file_mode::real_time);
        CHECK(start.properties.log_file_name_offset == 0); // no file
        CHECK(k.sessions.size() == 1);
    }
    // Scope exit: ControlTrace(STOP) by handle.
    CHECK(count_calls(k, "ControlTraceW", stop_code) == 1);
    CHECK(k.sessions.empty());
}

TEST_CASE("typed session: every control call has a fresh block of its own, never the start block") {
    session_double k;
    auto s = start_session(k, session_config::user("etwctl-test").file_sequential("a.etl").buffer(buffer_size::kilobytes(64)));
    REQUIRE(s);
    CHECK_FALSE(s->query().error());
    CHECK_FALSE(s->flush());
    CHECK_FALSE(s->update(session_update{}.flush_timer(3s)));
    auto const report = s->stop();
    CHECK(report.stopped);
    REQUIRE(k.calls.size() >= 5);
    for (std::size_t i = 1; i < k.calls.size(); ++i) {
        auto const& c = k.calls[i];
        CAPTURE(i);
        CHECK(c.block != nullptr);
        // What the call carried: a zeroed block with only the size, the offsets and the flags set (an UPDATE
        // also its changes), never the start's values.
        CHECK(c.properties.wnode.buffer_size == sizeof(session_properties));
        CHECK(c.properties.wnode.flags == (wnode_flag::traced_guid | wnode_flag::versioned_properties));
        CHECK(c.properties.buffer_size == 0);
        CHECK(c.properties.wnode.historical_context == 0);
        CHECK(c.handle == s->handle().value); // by handle
        CHECK(c.name.empty());
    }
}

TEST_CASE("typed session: release keeps the session; moves transfer ownership; optional members hold it") {
    session_double k;
    session_handle released;
    {
        auto s = start_session(k, session_config::user("etwctl-keep").real_time());
        REQUIRE(s);
        released = s->release();
        CHECK_FALSE(s->owns());
    }
    CHECK(count_calls(k, "ControlTraceW", stop_code) == 0);
    CHECK(k.find(released.value) != nullptr);

    profiler_state state;
    {
        auto s = start_session(k, session_config::user("etwctl-member").real_time());
        REQUIRE(s);
        state.session.emplace(std::move(*s));
        CHECK_FALSE(s->owns()); // the moved-from object is empty
    }
    CHECK(count_calls(k, "ControlTraceW", stop_code) == 0); // the moved-from did not stop it
    REQUIRE(state.session.has_value());
    CHECK(state.session->owns());
    trace_session other = std::move(*state.session);
    state.session.reset();
    CHECK(count_calls(k, "ControlTraceW", stop_code) == 0);
    CHECK(other.owns());
    // An empty object refuses every call, by name.
    CHECK(state.session == std::nullopt);
    trace_session empty;
    CHECK(empty.flush() == rule::session_no_target);
    CHECK(describe(empty.flush()) == "ControlTrace(FLUSH): an empty session object (not started, moved from, or released)");
}

TEST_CASE("typed session: stop reports the statistics; a loss is its own condition, never silent") {
    session_double k;
    auto s = start_session(k, session_config::user("etwctl-test").real_time());
    REQUIRE(s);
    k.stop_statistics = {12, 340, 0, 3, 0, 0};
    stop_report const r = s->stop();
    CHECK(r.stopped);
    CHECK(r.lost());
    CHECK_FALSE(static_cast<bool>(r));
    CHECK(r.statistics.events_lost == 12);
    CHECK(r.statistics.buffers_written == 340);
    CHECK(r.statistics.real_time_buffers_lost == 3);
    CHECK(r.error == session_loss::events_lost);
    CHECK(r.error == session_condition::events_lost);
    CHECK(r.error.category() == session_loss_category());
    CHECK(describe(r.error) == "the session lost data: 12 events, 0 log-file buffers, 3 real-time buffers (larger or more "
                               "buffers: buffer(...), buffers(...); a consumer that keeps up; or a file)");
    CHECK_FALSE(s->owns()); // stopped: nothing left to stop at scope exit
    CHECK(s->stop().error == rule::session_no_target);

    // Real-time buffers alone: a loss of its own kind, and still the events_lost condition.
    auto t = start_session(k, session_config::user("etwctl-test2").real_time());
    REQUIRE(t);
    k.stop_statistics = {0, 10, 0, 2, 0, 0};
    auto const rt = t->stop();
    CHECK(rt.error == session_loss::real_time_buffers_lost);
    CHECK(rt.error == session_condition::events_lost);
    // No loss: no error.
    auto u = start_session(k, session_config::user("etwctl-test3").real_time());
    REQUIRE(u);
    k.stop_statistics = {0, 10, 0, 0, 0, 0};
    auto const clean = u->stop();
    CHECK(static_cast<bool>(clean));
    CHECK_FALSE(clean.error);
}

TEST_CASE("typed session: values Windows changed are reported at the start and by query") {
    session_double k;
    k.clamp_maximum_buffers = 40;
    auto s = start_session(k, session_config::user("etwctl-test").real_time().buffers(minimum_buffers{8}, maximum_buffers{100}));
    REQUIRE(s);
    REQUIRE(s->adjusted().size() == 1);
    auto const* a = s->adjusted().find(session_setting::maximum_buffers);
    REQUIRE(a != nullptr);
    CHECK(a->requested == 100);
    CHECK(a->effective == 40);
    CHECK(s->adjusted().find(session_setting::minimum_buffers) == nullptr);
    auto const q = s->query();
    REQUIRE(q);
    CHECK(q->adjusted.size() == 1);
    CHECK(q->properties().maximum_buffers == 40);
    CHECK(u16(q->name()) == u"etwctl-test");
}

TEST_CASE("typed session: update sends only what UPDATE changes and keeps real time as it is") {
    session_double k;
    auto s = start_session(k, session_config::user("etwctl-test").real_time().file_sequential("a.etl"));
    REQUIRE(s);
    k.calls.clear();
    REQUIRE_FALSE(s->update(session_update{}.flush_timer(5s).maximum_buffers(77)));
    REQUIRE(k.calls.size() == 2); // QUERY (the current mode), then UPDATE
    CHECK(k.calls[0].code == query_code);
    auto const& u = k.calls[1];
    CHECK(u.code == static_cast<std::uint32_t>(control_code::update));
    CHECK(u.properties.flush_timer == 5);
    CHECK(u.properties.maximum_buffers == 77);
    CHECK(u.properties.log_file_mode == log_file_mode::real_time); // kept on: 0 would turn it off
    CHECK(u.properties.log_file_name_offset == 0);                 // the file is kept
    CHECK(u.properties.enable_flags == 0);
    k.calls.clear();
    REQUIRE_FALSE(s->update(session_update{}.real_time(false).log_file(u"b.etl")));
    CHECK(k.calls[1].properties.log_file_mode == 0);
    CHECK(k.calls[1].properties.log_file_name_offset == session_properties::log_file_name_offset);
    // Enable flags on a user session: Windows ignores them; etwctl refuses, naming it.
    auto const ec = s->update(session_update{}.enable_flags(0x10));
    CHECK(ec == rule::session_enable_flags_need_system_logger);
    CHECK(describe(ec) == "ControlTrace(UPDATE): enable flags on a session that is not a system logger, where Windows "
                          "ignores them");
}

TEST_CASE("typed session: if a session of that name runs, the caller's policy decides") {
    session_double k;
    k.add_running(u"etwctl-test"); // someone else's
    auto const cfg = session_config::user("etwctl-test").real_time();

    auto failed = start_session(k, cfg); // if_exists::fail: nothing is touched
    CHECK(failed.error() == win32_condition(win32::already_exists));
    CHECK(failed.error().category() == win32_category());
    CHECK(describe(failed.error()) ==
          "StartTrace: a session with this name or GUID already runs, Win32 ERROR_ALREADY_EXISTS 183 (if_exists::attach "
          "uses it, if_exists::stop_and_restart replaces it; leftovers of a crashed run: stop_orphans(k, prefix))");
    CHECK(count_calls(k, "ControlTraceW", stop_code) == 0);

    {
        auto attached = start_session(k, cfg, if_exists::attach);
        REQUIRE(attached);
        CHECK_FALSE(attached->owns());
        CHECK(attached->handle().value == k.sessions[0].handle);
    }
    CHECK(count_calls(k, "ControlTraceW", stop_code) == 0); // attached: never stopped on scope exit
    CHECK(k.sessions.size() == 1);

    auto restarted = start_session(k, cfg, if_exists::stop_and_restart);
    REQUIRE(restarted);
    CHECK(restarted->owns());
    CHECK(count_calls(k, "ControlTraceW", stop_code) == 1); // exactly the one the caller asked to replace
    CHECK(k.sessions.size() == 1);
    CHECK(k.sessions[0].handle == restarted->handle().value);
}

TEST_CASE("typed session: attach by name or by logger id, stop on request only") {
    session_double k;
    k.add_running(u"someone-else");
    auto const by_name = attach_session(k, "someone-else");
    REQUIRE(by_name);
    CHECK(by_name->handle().value == k.sessions[0].handle);
    auto const by_id = attach_session(k, session_handle{k.sessions[0].handle});
    REQUIRE(by_id);
    CHECK(by_id->handle() == by_name->handle());
    auto const missing = attach_session(k, "nobody");
    CHECK(missing.error() == win32_condition(win32::wmi_instance_not_found));
    CHECK(describe(missing.error()) == "attach_session: ControlTrace(QUERY): no such session, Win32 "
                                       "ERROR_WMI_INSTANCE_NOT_FOUND 4201 (it stopped, or never ran)");
    auto const stale = attach_session(k, session_handle{77});
    CHECK(stale.error() == win32_condition(win32::wmi_instance_not_found));
    CHECK_FALSE(by_name->query().error());
    CHECK(count_calls(k, "ControlTraceW", stop_code) == 0);
    auto const r = by_name->stop(); // asked for explicitly
    CHECK(r.stopped);
    CHECK(k.sessions.empty());
}

TEST_CASE("typed providers: EnableTraceEx2's parameters and the filters' bytes as the SDK lays them out") {
    session_double k;
    auto s = start_session(k, session_config::user("etwctl-test").real_time());
    REQUIRE(s);
    std::array<std::uint32_t, 2> const pids{100, 200};
    std::array<std::uint16_t, 3> const ids{1, 2, 0x1234};
    std::array<std::uint16_t, 1> const stack_ids{7};
    auto const opts = enable_options{}
                          .level(trace_level::information)
                          .match_any(0xF0)
                          .match_all(0x10)
                          .stack_trace()
                          .sid()
                          .process_start_key()
                          .timeout(250ms)
                          .process_ids(pids)
                          .executable_names("a.exe;b.exe")
                          .event_ids(filter_in, ids)
                          .stack_walk_event_ids(filter_out, stack_ids)
                          .stack_walk_level_keyword(filter_in, 4, 0x8, 0x1);
    k.calls.clear();
    REQUIRE_FALSE(enable_provider(*s, provider_name<"MyCompany.MyComponent">, opts));
    REQUIRE(k.calls.size() == 1);
    auto const& c = k.calls[0];
    CHECK(c.handle == s->handle().value);
    CHECK(c.provider == "ce5fa4ea-ab00-5402-8b76-9f76ac858fb5"_guid);
    CHECK(c.code == 1);
    CHECK(c.level == 4);
    CHECK(c.any == 0xF0);
    CHECK(c.all == 0x10);
    CHECK(c.timeout == 250);
    CHECK(c.parameters.version == 2);
    CHECK(c.parameters.enable_property ==
          (enable_property::stack_trace | enable_property::sid | enable_property::process_start_key));
    REQUIRE(c.parameters.filter_desc_count == 5);
    // PID: ULONGs.
    CHECK(c.filters[0].type == filter_type::pid);
    CHECK(c.filter_bytes[0] == std::vector<unsigned char>{100, 0, 0, 0, 200, 0, 0, 0});
    // EXECUTABLE_NAME: UTF-16 with its NUL.
    CHECK(c.filters[1].type == filter_type::executable_name);
    CHECK(c.filters[1].size == 2 * 12);
    CHECK(c.filter_bytes[1][0] == 'a');
    CHECK(c.filter_bytes[1][1] == 0);
    CHECK(c.filter_bytes[1][22] == 0);
    // EVENT_FILTER_EVENT_ID {BOOLEAN FilterIn; UCHAR Reserved; USHORT Count; USHORT Events[]}.
    CHECK(c.filters[2].type == filter_type::event_id);
    CHECK(c.filter_bytes[2] == std::vector<unsigned char>{1, 0, 3, 0, 1, 0, 2, 0, 0x34, 0x12});
    CHECK(c.filters[3].type == filter_type::stackwalk);
    CHECK(c.filter_bytes[3] == std::vector<unsigned char>{0, 0, 1, 0, 7, 0});
    // EVENT_FILTER_LEVEL_KW {ULONGLONG MatchAnyKeyword; ULONGLONG MatchAllKeyword; UCHAR Level; BOOLEAN FilterIn}.
    CHECK(c.filters[4].type == filter_type::stackwalk_level_kw);
    REQUIRE(c.filters[4].size == 24);
    CHECK(std::vector<unsigned char>(c.filter_bytes[4].begin(), c.filter_bytes[4].begin() + 18) ==
          std::vector<unsigned char>{8, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 4, 1});

    k.calls.clear();
    REQUIRE_FALSE(disable_provider(*s, provider_name<"MyCompany.MyComponent">));
    CHECK(k.calls[0].code == 0);
    REQUIRE_FALSE(capture_state(*s, provider_name<"MyCompany.MyComponent">));
    CHECK(k.calls[1].code == 2);
    CHECK(k.calls[1].parameters.filter_desc_count == 0);
}

TEST_CASE("typed providers: Windows' filter limits, before the call") {
    session_double k;
    auto s = start_session(k, session_config::user("etwctl-test").real_time());
    REQUIRE(s);
    std::array<std::uint32_t, 9> nine{};
    std::vector<std::uint16_t> ids(65, 1);
    std::string const long_names(512, 'x');
    k.calls.clear();
    auto ec = enable_provider(*s, guid{}, enable_options{}.process_ids(nine));
    CHECK(ec == rule::session_enable_filter);
    CHECK(describe(ec) == "EnableTraceEx2: a filter holds 9 where Windows takes at most 8 (split it across sessions, "
                          "or filter less)");
    ec = enable_provider(*s, guid{}, enable_options{}.event_ids(filter_in, ids));
    CHECK(describe(ec) == "EnableTraceEx2: a filter holds 65 where Windows takes at most 64 (split it across sessions, "
                          "or filter less)");
    ec = enable_provider(*s, guid{}, enable_options{}.executable_names(long_names)); // 513 units with the NUL: 1026 bytes
    CHECK(describe(ec) == "EnableTraceEx2: a filter holds 1026 where Windows takes at most 1024 (split it across "
                          "sessions, or filter less)");
    CHECK(enable_provider(*s, guid{}, enable_options{}.process_ids(std::span<std::uint32_t const>{})) == rule::session_enable_filter);
    CHECK(k.calls.empty()); // nothing was sent
    // Windows' answer for the ninth session on a provider, as its own message.
    k.fail_next = win32::no_system_resources;
    ec = enable_provider(*s, guid{});
    CHECK(ec == win32_condition(win32::no_system_resources));
    CHECK(describe(ec) == "EnableTraceEx2: the provider is already enabled in as many sessions as Windows allows (8 for a "
                          "manifest or TraceLogging provider), Win32 ERROR_NO_SYSTEM_RESOURCES 1450 (stop one of them, or "
                          "share a session)");
}

TEST_CASE("typed list: past 64 sessions, with the count Windows reports") {
    session_double k;
    for (int i = 0; i < 100; ++i) {
        std::u16string name(u"session-00");
        name[8] = static_cast<char16_t>(u'0' + i / 10);
        name[9] = static_cast<char16_t>(u'0' + i % 10);
        k.add_running(name);
    }
    auto few = std::make_unique<session_list_buffer<10>>();
    auto const first = list_sessions(k, *few);
    CHECK(first.error() == win32_condition(win32::more_data));
    CHECK(sessions_required() == 100);
    CHECK(describe(first.error()) == "list_sessions: 100 sessions run and the storage holds 10; give storage for "
                                     "sessions_required() entries and list again");
    // The caller's storage, as large as Windows said (a tool may allocate; the library does not).
    std::vector<session_properties> entries(sessions_required());
    std::vector<void*> pointers(entries.size());
    auto const all = list_sessions(k, session_list_storage{entries, pointers});
    REQUIRE(all);
    CHECK(all->size() == 100);
    CHECK(u16((*all)[99].name()) == k.sessions[99].name);
    CHECK(k.calls.back().code == 100); // PropertyArrayCount: the whole storage, no cap at 64
}

TEST_CASE("typed orphans: only etwctl-<prefix>-<pid> sessions whose process is gone") {
    static_assert(owned_session_name::of("profile", 4242).view() == "etwctl-profile-4242");
    static_assert(!owned_session_name::of("bad-prefix", 1).valid());
    session_double k; // this process: 4242; alive: 4242, 77
    k.alive_pids.push_back(77);
    k.add_running(u"etwctl-profile-1");      // dead: stopped
    k.add_running(u"etwctl-profile-4242");   // this process
    k.add_running(u"etwctl-profile-77");     // alive
    k.add_running(u"etwctl-other-5");        // dead, another prefix
    k.add_running(u"etwctl-profile-x");      // not the convention
    k.add_running(u"etwctl-profile-9-9");    // not the convention
    k.add_running(u"NT Kernel Logger");      // not ours
    k.add_running(u"etwctl-profile-123456"); // dead: stopped
    auto storage = std::make_unique<session_list_buffer<16>>();
    auto const r = stop_orphans(k, "profile", *storage);
    CHECK(static_cast<bool>(r));
    CHECK(r.sessions == 8);
    CHECK(r.matched == 4);
    CHECK(r.orphans == 2);
    CHECK(r.stopped == 2);
    std::vector<std::u16string> left;
    for (auto const& s : k.sessions) left.push_back(s.name);
    CHECK(left == std::vector<std::u16string>{u"etwctl-profile-4242", u"etwctl-profile-77", u"etwctl-other-5",
                                              u"etwctl-profile-x", u"etwctl-profile-9-9", u"NT Kernel Logger"});
    auto const bad = stop_orphans(k, "with-dash", *storage);
    CHECK(bad.error == rule::session_orphan_prefix_invalid);
    CHECK(describe(bad.error) == "stop_orphans: the prefix has 9 characters or one outside [A-Za-z0-9_.]; give 1 to 64 of "
                                 "them (the <prefix> of etwctl-<prefix>-<pid>)");
}

TEST_CASE("typed kernel session: a private system logger where Windows has them, the NT Kernel Logger where it must") {
    session_double k;
    auto const name = owned_session_name::of("profile", k.current_process_id());
    k.build = 0; // unknown: Windows 8 or later, every target etwctl supports
    CHECK(kernel_session(k, name).kind() == session_kind::system_logger);
    k.build = 19041;
    auto const modern = kernel_session(k, name).real_time();
    CHECK(modern.kind() == session_kind::system_logger);
    CHECK((modern.log_file_mode_bits() & log_file_mode::system_logger) != 0);
    k.build = 7601; // Windows 7: no private system loggers
    auto const old = kernel_session(k, name).real_time();
    CHECK(old.kind() == session_kind::nt_kernel_logger);
    CHECK(old.session_guid_value() == session_guids::system_trace_control);
    k.build = 19041;
    CHECK(kernel_session(k, name, kernel_session_choice::nt_kernel_logger).kind() == session_kind::nt_kernel_logger);
    auto s = start_session(k, modern);
    REQUIRE(s);
    CHECK(k.calls.back().name == u"etwctl-profile-4242");
}

TEST_CASE("typed messages: the Win32 answers the simulated kernel does not model, and the name checks") {
    session_double k;
    k.fail_next = win32::disk_full;
    auto const full = start_session(k, session_config::user("etwctl-test").file_sequential("a.etl", file_size::megabytes(4096)));
    CHECK(full.error() == win32_condition(win32::disk_full));
    CHECK(describe(full.error()) == "StartTrace: Win32 ERROR_DISK_FULL 112: not enough disk for the maximum file size (plus "
                                    "200 MB on the system drive)");
    auto s = start_session(k, session_config::user("etwctl-test").real_time());
    REQUIRE(s);
    k.fail_next = win32::active_connections;
    auto const stopping = s->stop();
    CHECK_FALSE(stopping.stopped);
    CHECK(s->owns()); // not stopped: still owned, stopped at scope exit
    CHECK(describe(stopping.error) == "ControlTrace(STOP): the session is already stopping, Win32 ERROR_ACTIVE_CONNECTIONS 2402");
    k.fail_next = win32::timeout;
    auto const slow = enable_provider(*s, guid{}, enable_options{}.timeout(100ms));
    CHECK(describe(slow) == "EnableTraceEx2: the providers did not answer within the timeout, Win32 ERROR_TIMEOUT 1460");
    k.fail_next = win32::invalid_function;
    auto const unregistered = enable_provider(*s, guid{});
    CHECK(describe(unregistered) == "EnableTraceEx2: the provider is not registered, so its level cannot be updated, Win32 "
                                    "ERROR_INVALID_FUNCTION 1");
    std::string const long_path(1025, 'p');
    auto const path = s->update(session_update{}.log_file(long_path));
    CHECK(path == rule::session_log_file_name_too_long);
    CHECK(describe(path) == "ControlTrace(UPDATE): the new log-file path is not valid UTF-8 or longer than 1024 characters");
    std::string const long_name(1025, 'n');
    auto const attach = attach_session(k, long_name);
    CHECK(attach.error() == rule::session_name_invalid);
    CHECK(describe(attach.error()) == "attach_session: the name has 1025 characters; a session name has 1 to 1024");
    auto const stop = stop_session(k, "");
    CHECK(stop.error == rule::session_name_invalid);
    CHECK(describe(stop.error) == "stop_session: the name has 0 characters; a session name has 1 to 1024");
}
