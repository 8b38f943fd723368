// compat::enable_trace_ex2 on the simulated kernel (errors, 8 sessions per provider, the state per
// session and provider), the request log of session calls byte for byte, and the properties blocks
// real clients pass (sizes only Wnode.BufferSize describes).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "session_test.hpp"

using namespace etwctl;
using namespace session_test;
namespace lfm = etwctl::log_file_mode;

namespace {
constexpr guid provider = guid::from_string("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716");
std::uint32_t code(enable_code c) { return static_cast<std::uint32_t>(c); }
} // namespace

TEST_CASE("EnableTraceEx2: level, keywords, enable property and filters as sent, per session") {
    auto k = machine();
    std::uint64_t const h = start(*k, u"E");
    REQUIRE(h != 0);
    std::uint32_t const pids[2] = {100, 200};
    unsigned char ids[4 + 2 * 3] = {1, 0, 3, 0, 10, 0, 11, 0, 12, 0}; // FilterIn, Reserved, Count 3, ids 10 11 12
    event_filter_descriptor filters[2];
    filters[0].ptr = reinterpret_cast<std::uintptr_t>(pids);
    filters[0].size = sizeof pids;
    filters[0].type = filter_type::pid;
    filters[1].ptr = reinterpret_cast<std::uintptr_t>(ids);
    filters[1].size = sizeof ids;
    filters[1].type = filter_type::event_id;
    enable_trace_parameters params;
    params.version = enable_trace_parameters_version;
    params.enable_property = enable_property::stack_trace | enable_property::sid;
    params.enable_filter_desc = filters;
    params.filter_desc_count = 2;
    REQUIRE(compat::enable_trace_ex2(*k, h, &provider, code(enable_code::enable), 4, 0xF0, 0x10, 0, &params) == win32::success);
    auto const* e = k->sessions().enablement(static_cast<std::uint16_t>(h), provider);
    REQUIRE(e != nullptr);
    CHECK(e->level == 4);
    CHECK(e->match_any == 0xF0);
    CHECK(e->match_all == 0x10);
    CHECK(e->enable_property == (enable_property::stack_trace | enable_property::sid));
    CHECK(e->filter_count == 2);
    CHECK(e->filter_types[0] == filter_type::pid);
    CHECK(e->filter_sizes[1] == sizeof ids);
    auto const data = k->sessions().filter_data(*e);
    REQUIRE(data.size() == sizeof pids + sizeof ids);
    CHECK(std::memcmp(data.data(), pids, sizeof pids) == 0);
    CHECK(std::memcmp(data.data() + sizeof pids, ids, sizeof ids) == 0);
    // the request log: the provider, level, keywords, property, the parameters and each filter's data
    auto const& rec = k->last_request();
    CHECK(rec.is_session_call);
    CHECK(rec.session == session_function::enable_trace_ex2);
    CHECK(rec.handle == h);
    CHECK(rec.provider == provider);
    CHECK(rec.level == 4);
    CHECK(rec.match_any == 0xF0);
    CHECK(rec.match_all == 0x10);
    CHECK(rec.enable_property == params.enable_property);
    CHECK(rec.code == 1);
    REQUIRE(rec.bytes.size() == sizeof params);
    CHECK(std::memcmp(rec.bytes.data(), &params, sizeof params) == 0);
    REQUIRE(rec.filters.size() == data.size());
    CHECK(std::memcmp(rec.filters.data(), data.data(), data.size()) == 0);
    // each call replaces the settings; no parameters clears the filters
    REQUIRE(compat::enable_trace_ex2(*k, h, &provider, code(enable_code::enable), 5, 0, 0, 0, nullptr) == win32::success);
    e = k->sessions().enablement(static_cast<std::uint16_t>(h), provider);
    REQUIRE(e != nullptr);
    CHECK(e->level == 5);
    CHECK(e->filter_count == 0);
    CHECK(k->sessions().filter_data(*e).empty());
    REQUIRE(compat::enable_trace_ex2(*k, h, &provider, code(enable_code::capture_state), 0, 0, 0, 0, nullptr) == win32::success);
    CHECK(k->sessions().enablement(static_cast<std::uint16_t>(h), provider)->capture_state_requests == 1);
    REQUIRE(compat::enable_trace_ex2(*k, h, &provider, code(enable_code::disable), 0, 0, 0, 0, nullptr) == win32::success);
    CHECK(k->sessions().enablement(static_cast<std::uint16_t>(h), provider) == nullptr);
    // stopping a session disables its providers
    REQUIRE(compat::enable_trace_ex2(*k, h, &provider, code(enable_code::enable), 5, 0, 0, 0, nullptr) == win32::success);
    REQUIRE(k->stop_logger(static_cast<std::uint16_t>(h)));
    CHECK(k->sessions().sessions_enabling(provider) == 0);
    CHECK(k->sessions().text_used() == 0); // names and filter data are freed with the session
}

TEST_CASE("EnableTraceEx2: the documented errors and the limits") {
    auto k = machine();
    std::uint64_t const h = start(*k, u"E");
    REQUIRE(h != 0);
    auto const enable = [&](std::uint64_t handle, guid const* p, void const* params = nullptr, std::uint32_t c = 1) {
        return compat::enable_trace_ex2(*k, handle, p, c, 4, 0, 0, 0, params);
    };
    k->clear_requests();
    CHECK(enable(h, static_cast<guid const*>(nullptr)) == win32::invalid_parameter);
    CHECK(enable(0, &provider) == win32::invalid_parameter);
    CHECK(enable(h, &provider, nullptr, 3) == win32::invalid_parameter);
    enable_trace_parameters params;
    params.version = 3;
    CHECK(enable(h, &provider, &params) == win32::invalid_parameter);
    params.version = enable_trace_parameters_version;
    params.filter_desc_count = 1; // without EnableFilterDesc
    CHECK(enable(h, &provider, &params) == win32::invalid_parameter);
    std::uint32_t pids[9] = {};
    event_filter_descriptor f[2];
    f[0].ptr = reinterpret_cast<std::uintptr_t>(pids);
    f[0].size = sizeof pids; // 9 PIDs: one more than MAX_EVENT_FILTER_PID_COUNT
    f[0].type = filter_type::pid;
    params.enable_filter_desc = f;
    CHECK(enable(h, &provider, &params) == win32::invalid_parameter);
    f[0].size = 8 * 4;
    CHECK(enable(h, &provider, &params) == win32::success);
    f[1] = f[0]; // the same type twice
    params.filter_desc_count = 2;
    CHECK(enable(h, &provider, &params) == win32::invalid_parameter);
    CHECK(k->request_count() == 1); // only the good call was sent
    CHECK(enable(0x3E, &provider) == win32::wmi_instance_not_found);
    k->sessions().set_elevated(false);
    CHECK(enable(h, &provider) == win32::access_denied);
    k->sessions().set_elevated(true);
    // at most 8 sessions per provider
    int enabled = 1; // "E" has it
    for (int i = 0; i < 9; ++i) {
        std::uint64_t const s = start(*k, numbered(u"p", i));
        REQUIRE(s != 0);
        enabled += enable(s, &provider) == win32::success ? 1 : 0;
        if (i == 7) CHECK(enable(s, &provider) == win32::no_system_resources);
    }
    CHECK(enabled == 8);
    CHECK(k->sessions().sessions_enabling(provider) == 8);
    // the SDK's GUID type works as well (anything guid_like): a second provider
    struct sdk_guid {
        unsigned long Data1;
        unsigned short Data2, Data3;
        unsigned char Data4[8];
    } const other{0x12345678, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
    CHECK(compat::enable_trace_ex2(*k, h, &other, 1, 4, 0, 0, 0, nullptr) == win32::success);
}

TEST_CASE("the request log: each session call with the block as sent, the name and the code") {
    auto k = machine();
    block b(full_size);
    b.name_at(name_offset);
    b.props()->buffer_size = 256;
    unsigned char sent[full_size];
    std::memcpy(sent, b.bytes, full_size); // what the caller passes, before anything is written back
    std::uint64_t h = 0;
    REQUIRE(compat::start_trace(*k, &h, w(u"Logged").c_str(), b.props()) == win32::success);
    REQUIRE(k->request_count() == 1);
    auto const& start_rec = k->request(0);
    CHECK(start_rec.is_session_call);
    CHECK(start_rec.session == session_function::start_trace_w);
    CHECK(session_function_name(start_rec.session) == "StartTraceW");
    CHECK(start_rec.length == full_size);
    REQUIRE(start_rec.bytes.size() == full_size);
    CHECK(std::memcmp(start_rec.bytes.data(), sent, full_size) == 0);
    CHECK_FALSE(start_rec.truncated);
    char16_t const logged[] = u"Logged";
    REQUIRE(start_rec.name.size() == 12);
    for (std::size_t i = 0; i < 6; ++i)
        CHECK(static_cast<char16_t>(static_cast<unsigned>(start_rec.name[2 * i]) | (static_cast<unsigned>(start_rec.name[2 * i + 1]) << 8)) ==
              logged[i]);
    CHECK(start_rec.status == 0);

    block q(sizeof(event_trace_properties) + 40);
    q.name_at(name_offset);
    REQUIRE(compat::control_trace(*k, h, static_cast<wide_char const*>(nullptr), q.props(), 0) == win32::success);
    auto const& control_rec = k->last_request();
    CHECK(control_rec.session == session_function::control_trace_w);
    CHECK(control_rec.code == 0);
    CHECK(control_rec.handle == h);
    CHECK(control_rec.length == q.size);
    CHECK(control_rec.name.empty());
    CHECK(control_rec.bytes.size() == q.size);
    REQUIRE(compat::stop_trace_a(*k, 0, "logged", q.props()) == win32::success);
    CHECK(k->last_request().session == session_function::control_trace_a);
    CHECK(k->last_request().code == 1);
    CHECK(k->last_request().name.size() == 12); // widened to UTF-16

    event_trace_properties* array[1] = {q.props()};
    std::uint32_t n = 0;
    REQUIRE(compat::query_all_traces(*k, array, 1, &n) == win32::success);
    CHECK(k->last_request().session == session_function::query_all_traces_w);
    CHECK(k->last_request().code == 1);

    // the log's arena is bounded: a block that does not fit is kept in part and says so
    for (int i = 0; i < 20; ++i) (void)compat::query_trace(*k, 0, w(u"nobody").c_str(), b.props());
    auto const& last = k->last_request();
    CHECK(last.truncated);
    CHECK(last.bytes.size() < last.length);
    CHECK(last.length == full_size);
}

TEST_CASE("a missing session export is ERROR_PROC_NOT_FOUND; an injected failure maps to its Win32 code") {
    auto k = machine();
    k->set_session_available(session_function::start_trace_w, false);
    block b(full_size);
    std::uint64_t h = 5;
    CHECK(compat::start_trace(*k, &h, w(u"x").c_str(), b.props()) == win32::proc_not_found);
    k->set_session_available(session_function::start_trace_w, true);
    k->inject(ntstatus::insufficient_resources);
    CHECK(compat::start_trace(*k, &h, w(u"x").c_str(), b.props()) == win32::no_system_resources);
    CHECK(h == 0);
    CHECK(compat::start_trace(*k, &h, w(u"x").c_str(), b.props()) == win32::success);
}

TEST_CASE("orphan_session_kernel: this process and the others") {
    auto k = machine();
    static_assert(orphan_session_kernel<sim::kernel>);
    k->sessions().set_current_process_id(42);
    CHECK(k->current_process_id() == 42);
    CHECK(k->process_alive(42));
    CHECK_FALSE(k->process_alive(43));
    REQUIRE(k->sessions().set_process_alive(43, true));
    CHECK(k->process_alive(43));
    REQUIRE(k->sessions().set_process_alive(43, false));
    CHECK_FALSE(k->process_alive(43));
}

// ---- the blocks real clients pass -----------------------------------------------------------------------

TEST_CASE("real clients' block shapes start, query and stop as on Windows, nothing written past them") {
    auto k = machine();
    std::uint64_t h = 0;
    SUBCASE("PerfView: sizeof + 2 x 1024 characters (and an extension area), real time") {
        block b(sizeof(event_trace_properties) + 2 * 2 * 1024 + 256); // 4472 bytes
        REQUIRE(b.size == 4472);
        b.name_at(name_offset);
        b.props()->log_file_name_offset = name_offset + 2048;
        b.props()->buffer_size = 64;
        b.props()->minimum_buffers = 64;
        b.props()->maximum_buffers = 90;
        b.props()->log_file_mode = lfm::real_time | lfm::independent_session;
        REQUIRE(compat::start_trace(*k, &h, w(u"PerfViewSession").c_str(), b.props()) == win32::success);
        CHECK(b.props()->minimum_buffers == 64);
        CHECK(b.guard_intact());
        block s(4472);
        s.name_at(name_offset);
        s.props()->log_file_name_offset = name_offset + 2048;
        REQUIRE(compat::stop_trace(*k, 0, w(u"PerfViewSession").c_str(), s.props()) == win32::success);
        CHECK(s.name_from(name_offset) == u"PerfViewSession");
        CHECK(s.name_from(name_offset + 2048).empty());
        CHECK(s.guard_intact());
    }
    SUBCASE("krabsetw: a struct with two MAX_PATH arrays, LoggerNameOffset at the second") {
        struct trace_info {
            event_trace_properties properties;
            wide_char trace_name[260];
            wide_char logfile_name[260];
        };
        static trace_info info{};
        info = trace_info{};
        info.properties.wnode.buffer_size = sizeof(trace_info);
        info.properties.wnode.flags = wnode_flag::traced_guid;
        info.properties.wnode.client_context = 1;
        info.properties.log_file_mode = lfm::real_time | lfm::no_per_processor_buffering;
        info.properties.logger_name_offset = offsetof(trace_info, logfile_name);
        REQUIRE(compat::start_trace(*k, &h, w(u"krabs").c_str(), &info.properties) == win32::success);
        CHECK(info.logfile_name[0] == wide_char('k'));
        CHECK(info.trace_name[0] == wide_char(0));
        REQUIRE(compat::query_trace(*k, h, static_cast<wide_char const*>(nullptr), &info.properties) == win32::success);
        CHECK(info.properties.wnode.historical_context == h);
    }
    SUBCASE("Tracy: CHAR name[64] and the handle right after it; StartTraceA; an UPDATE keeps the handle") {
        struct session {
            event_trace_properties properties;
            char name[64];
            std::uint64_t handle;
        };
        static session s{};
        s = session{};
        s.properties.wnode.buffer_size = sizeof(session);
        s.properties.wnode.flags = wnode_flag::traced_guid;
        s.properties.log_file_mode = lfm::real_time | lfm::system_logger;
        s.properties.logger_name_offset = offsetof(session, name);
        s.properties.buffer_size = 1024;
        REQUIRE(compat::start_trace_a(*k, &s.handle, "TracySession", &s.properties) == win32::success);
        std::uint64_t const handle = s.handle;
        CHECK(std::string(s.name) == "TracySession");
        s.properties.enable_flags = 0x10;
        s.properties.log_file_name_offset = 0;
        REQUIRE(compat::update_trace_a(*k, s.handle, static_cast<char const*>(nullptr), &s.properties) == win32::success);
        CHECK(s.handle == handle);
    }
    SUBCASE("one-collect: LoggerNameOffset = 120 with an inline 1024-byte name") {
        struct props {
            event_trace_properties properties;
            unsigned char name[1024];
        };
        static props p{};
        p = props{};
        p.properties.wnode.buffer_size = sizeof(props);
        p.properties.wnode.flags = wnode_flag::traced_guid;
        p.properties.wnode.guid = guid::from_string("00000000-0000-0000-0000-000000000123");
        p.properties.log_file_mode = lfm::real_time | lfm::independent_session | lfm::system_logger;
        p.properties.logger_name_offset = 120;
        REQUIRE(compat::start_trace(*k, &h, w(u"one-collect").c_str(), &p.properties) == win32::success);
        // the fixed GUID makes the second session fail (one-collect #289)
        static props q{};
        q = p;
        CHECK(compat::start_trace(*k, &h, w(u"one-collect-2").c_str(), &q.properties) == win32::already_exists);
    }
    SUBCASE("ferrisetw: a [u16; 201] pair (924 bytes, not a multiple of 8)") {
        struct properties {
            event_trace_properties etw;
            std::uint16_t trace_name[201];
            std::uint16_t log_file_name[201];
        };
        static_assert(sizeof(event_trace_properties) + 4 * 201 == 924);
        block b(924);
        b.name_at(offsetof(properties, trace_name));
        b.props()->buffer_size = 32;
        b.props()->log_file_mode = lfm::real_time | lfm::no_per_processor_buffering;
        REQUIRE(compat::start_trace(*k, &h, w(u"ferrisetw").c_str(), b.props()) == win32::success);
        CHECK(b.guard_intact());
        block s(924);
        s.name_at(offsetof(properties, trace_name));
        s.props()->log_file_name_offset = offsetof(properties, log_file_name);
        REQUIRE(compat::stop_trace(*k, h, static_cast<wide_char const*>(nullptr), s.props()) == win32::success);
        CHECK(s.name_from(offsetof(properties, trace_name)) == u"ferrisetw");
        CHECK(s.guard_intact());
    }
    SUBCASE("a struct derived from EVENT_TRACE_PROPERTIES") {
        struct derived : event_trace_properties {
            wide_char names[64];
        };
        static derived d{};
        d = derived{};
        d.wnode.buffer_size = sizeof(derived);
        d.wnode.flags = wnode_flag::traced_guid;
        d.log_file_mode = lfm::real_time;
        d.logger_name_offset = sizeof(event_trace_properties); // the names follow the base
        REQUIRE(compat::start_trace(*k, &h, w(u"derived").c_str(), &d) == win32::success);
        CHECK(d.names[0] == wide_char('d'));
    }
}

// EnableTraceEx2 with a NULL ProviderId and NULL EnableParameters, spelled NULL, nullptr and 0 (each a
// null pointer constant of its own type), as a program written for the SDK passes them.
#define ETWCTL_TEST_ENABLE_NULLS(null_pointer)                                                                          \
    do {                                                                                                                \
        auto k = machine();                                                                                             \
        std::uint64_t const h = start(*k, u"E");                                                                        \
        REQUIRE(h != 0);                                                                                                \
        k->clear_requests();                                                                                            \
        /* EnableTraceEx2(h, NULL, ...): ERROR_INVALID_PARAMETER, whatever the code and parameters */                  \
        for (std::uint32_t c = 0; c <= 2; ++c)                                                                          \
            CHECK(compat::enable_trace_ex2(*k, h, null_pointer, c, 4, 0, 0, 0, null_pointer) == win32::invalid_parameter); \
        CHECK(compat::enable_trace_ex2(*k, 0, null_pointer, 1, 4, 0, 0, 0, null_pointer) == win32::invalid_parameter); \
        CHECK(k->request_count() == 0);                                                                                 \
        CHECK(k->sessions().enablement(static_cast<std::uint16_t>(h), provider) == nullptr);                           \
        /* TraceHandle 0 with a provider: ERROR_INVALID_PARAMETER */                                                    \
        CHECK(compat::enable_trace_ex2(*k, 0, &provider, 1, 4, 0, 0, 0, null_pointer) == win32::invalid_parameter);     \
        /* EnableParameters NULL is allowed: enabled with level and keywords only */                                    \
        REQUIRE(compat::enable_trace_ex2(*k, h, &provider, 1, 5, 0x30, 0, 0, null_pointer) == win32::success);         \
        auto const* e = k->sessions().enablement(static_cast<std::uint16_t>(h), provider);                              \
        REQUIRE(e != nullptr);                                                                                          \
        CHECK(e->level == 5);                                                                                           \
        CHECK(e->match_any == 0x30);                                                                            \
        REQUIRE(compat::enable_trace_ex2(*k, h, &provider, 0, 0, 0, 0, 0, null_pointer) == win32::success);            \
        CHECK(k->sessions().enablement(static_cast<std::uint16_t>(h), provider) == nullptr);                           \
    } while (false)

TEST_CASE("EnableTraceEx2: NULL, nullptr and 0 for ProviderId and EnableParameters get Windows' answers") {
    SUBCASE("NULL") { ETWCTL_TEST_ENABLE_NULLS(NULL); }
    SUBCASE("nullptr") { ETWCTL_TEST_ENABLE_NULLS(nullptr); }
    SUBCASE("0") { ETWCTL_TEST_ENABLE_NULLS(0); }
}
#undef ETWCTL_TEST_ENABLE_NULLS
