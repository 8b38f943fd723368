// compat::control_trace and its wrappers, compat::query_all_traces: target selection, the documented
// errors, UPDATE's rules, what is written back (and nothing past Wnode.BufferSize), statistics.
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "session_test.hpp"

using namespace etwctl;
using namespace session_test;
namespace lfm = etwctl::log_file_mode;

namespace {
std::uint32_t code(control_code c) { return static_cast<std::uint32_t>(c); }
} // namespace

TEST_CASE("ControlTrace: the target is the name when given, else the handle; the name decides") {
    auto k = machine();
    std::uint64_t const a = start(*k, u"Alpha");
    std::uint64_t const b = start(*k, u"Beta");
    REQUIRE(a != 0);
    REQUIRE(b != 0);
    SUBCASE("a null name with a handle") {
        block q(full_size);
        q.name_at(name_offset);
        REQUIRE(compat::query_trace(*k, b, static_cast<wide_char const*>(nullptr), q.props()) == win32::success);
        CHECK(q.name_from(name_offset) == u"Beta");
        CHECK(q.props()->wnode.historical_context == b);
        CHECK(q.guard_intact());
    }
    SUBCASE("a null handle with a name, in any case") {
        block q(full_size);
        q.name_at(name_offset);
        REQUIRE(compat::query_trace(*k, 0, w(u"ALPHA").c_str(), q.props()) == win32::success);
        CHECK(q.name_from(name_offset) == u"Alpha"); // the session's own spelling
        CHECK(q.props()->wnode.historical_context == a);
    }
    SUBCASE("a name with an unrelated handle: the name decides") {
        block q(full_size);
        q.name_at(name_offset);
        REQUIRE(compat::query_trace(*k, b, w(u"Alpha").c_str(), q.props()) == win32::success);
        CHECK(q.props()->wnode.historical_context == a);
        block s(full_size);
        REQUIRE(compat::stop_trace(*k, b, w(u"Alpha").c_str(), s.props()) == win32::success);
        CHECK(k->sessions().find(static_cast<std::uint16_t>(a)) == nullptr);
        CHECK(k->sessions().find(static_cast<std::uint16_t>(b)) != nullptr);
    }
    SUBCASE("a name pointing into the caller's own block") {
        block q(full_size);
        q.log_file_at(file_offset, u"Beta"); // the caller keeps the name in its block ...
        q.props()->log_file_name_offset = 0;
        q.name_at(name_offset);
        auto const* inside = reinterpret_cast<wide_char const*>(q.bytes + file_offset);
        REQUIRE(compat::query_trace(*k, 0, inside, q.props()) == win32::success);
        CHECK(q.name_from(name_offset) == u"Beta");
        // ... even where the session's name is written back
        block s(full_size);
        s.log_file_at(name_offset, u"Beta");
        s.props()->log_file_name_offset = 0;
        s.name_at(name_offset);
        auto const* same = reinterpret_cast<wide_char const*>(s.bytes + name_offset);
        REQUIRE(compat::stop_trace(*k, 0, same, s.props()) == win32::success);
        CHECK(s.name_from(name_offset) == u"Beta");
        CHECK(k->sessions().find(static_cast<std::uint16_t>(b)) == nullptr);
    }
    SUBCASE("SystemTraceControlGuid names the NT Kernel Logger whatever the handle") {
        REQUIRE(k->start_kernel_logger() == 0xFFFF);
        block q(full_size);
        q.props()->wnode.guid = session_guids::system_trace_control;
        REQUIRE(compat::query_trace(*k, a, static_cast<wide_char const*>(nullptr), q.props()) == win32::success);
        CHECK(q.props()->wnode.historical_context == 0xFFFF);
    }
}

TEST_CASE("ControlTrace: the documented errors") {
    auto k = machine();
    std::uint64_t const h = start(*k, u"S");
    REQUIRE(h != 0);
    block q(full_size);
    q.name_at(name_offset);
    CHECK(compat::query_trace(*k, h, static_cast<wide_char const*>(nullptr), static_cast<event_trace_properties*>(nullptr)) ==
          win32::invalid_parameter);
    CHECK(compat::query_trace(*k, 0, static_cast<wide_char const*>(nullptr), q.props()) == win32::invalid_parameter); // no target
    CHECK(compat::query_trace(*k, 0, w(u"").c_str(), q.props()) == win32::invalid_parameter); // an empty name is none
    CHECK(compat::query_trace(*k, 0x40, static_cast<wide_char const*>(nullptr), q.props()) == win32::invalid_parameter); // not a logger id
    CHECK(compat::query_trace(*k, 0x3F, static_cast<wide_char const*>(nullptr), q.props()) == win32::wmi_instance_not_found);
    CHECK(compat::query_trace(*k, 0, w(u"nobody").c_str(), q.props()) == win32::wmi_instance_not_found);
    block undersized(0x77);
    CHECK(compat::query_trace(*k, h, static_cast<wide_char const*>(nullptr), undersized.props()) == win32::bad_length);
    block bad(full_size);
    bad.props()->logger_name_offset = 4;
    CHECK(compat::query_trace(*k, h, static_cast<wide_char const*>(nullptr), bad.props()) == win32::invalid_parameter);
    block kernel(full_size);
    kernel.props()->wnode.guid = session_guids::system_trace_control;
    CHECK(compat::query_trace(*k, 0, w(u"S").c_str(), kernel.props()) == win32::invalid_parameter);
    CHECK(compat::control_trace(*k, h, static_cast<wide_char const*>(nullptr), q.props(), 9) == win32::invalid_parameter);
    CHECK(compat::control_trace(*k, h, static_cast<wide_char const*>(nullptr), q.props(),
                                code(control_code::increment_file)) == win32::invalid_parameter); // not NEWFILE
    k->sessions().set_elevated(false);
    CHECK(compat::query_trace(*k, h, static_cast<wide_char const*>(nullptr), q.props()) == win32::access_denied);
    CHECK(q.guard_intact());
}

TEST_CASE("ControlTrace STOP: the final properties; a block too small for the names -> ERROR_MORE_DATA, stopped all the same") {
    auto k = machine();
    block s(full_size, lfm::sequential);
    s.name_at(name_offset);
    s.log_file_at(file_offset, u"c:\\final.etl");
    s.props()->buffer_size = 4; // 4 KB buffers
    std::uint64_t h = 0;
    REQUIRE(compat::start_trace(*k, &h, w(u"Final").c_str(), s.props()) == win32::success);
    REQUIRE(k->sessions().log_events(h, 1000, 100)); // 100,000 bytes: 24 buffers of 4 KB and a partial one
    REQUIRE(k->sessions().lose_events(h, 7));
    REQUIRE(k->sessions().lose_buffers(h, 2, 3));
    block q(full_size);
    q.name_at(name_offset);
    q.props()->log_file_name_offset = file_offset;
    REQUIRE(compat::query_trace(*k, h, static_cast<wide_char const*>(nullptr), q.props()) == win32::success);
    CHECK(q.props()->buffers_written == 24);
    CHECK(q.props()->events_lost == 7);
    CHECK(q.props()->log_buffers_lost == 2);
    CHECK(q.props()->real_time_buffers_lost == 3);
    CHECK(q.name_from(file_offset) == u"c:\\final.etl");
    // flush writes the partly filled buffer
    block f(full_size);
    REQUIRE(compat::flush_trace(*k, h, static_cast<wide_char const*>(nullptr), f.props()) == win32::success);
    CHECK(f.props()->buffers_written == 25);
    // stop with room for neither name: the statistics come back, the names do not fit
    block tiny(sizeof(event_trace_properties) + 6);
    tiny.name_at(name_offset);
    CHECK(compat::stop_trace(*k, h, static_cast<wide_char const*>(nullptr), tiny.props()) == win32::more_data);
    CHECK(tiny.props()->events_lost == 7);
    CHECK(tiny.props()->buffers_written == 25);
    CHECK(tiny.guard_intact());
    CHECK(k->sessions().find(static_cast<std::uint16_t>(h)) == nullptr); // already stopped
    CHECK(compat::stop_trace(*k, h, static_cast<wide_char const*>(nullptr), q.props()) == win32::wmi_instance_not_found);
    // the log file is free again
    block again(full_size, lfm::sequential);
    again.log_file_at(file_offset, u"c:\\final.etl");
    CHECK(compat::start_trace(*k, &h, w(u"Again").c_str(), again.props()) == win32::success);
}

TEST_CASE("ControlTrace UPDATE: only what Windows lets it change") {
    auto k = machine();
    block s(full_size, lfm::real_time | lfm::system_logger);
    s.name_at(name_offset);
    s.props()->flush_timer = 5;
    s.props()->maximum_buffers = 40;
    s.props()->enable_flags = 0x1;
    std::uint64_t h = 0;
    REQUIRE(compat::start_trace(*k, &h, w(u"U").c_str(), s.props()) == win32::success);
    SUBCASE("zeros keep; EnableFlags, MaximumBuffers, FlushTimer change; other mode bits stay") {
        block u(full_size, lfm::real_time | lfm::circular /* ignored: only REAL_TIME counts */);
        u.props()->enable_flags = 0x10;
        u.props()->maximum_buffers = 1; // raised to MinimumBuffers
        u.props()->buffer_size = 1024;  // not changeable
        REQUIRE(compat::update_trace(*k, h, static_cast<wide_char const*>(nullptr), u.props()) == win32::success);
        auto const& p = k->sessions().find(static_cast<std::uint16_t>(h))->properties;
        CHECK(p.enable_flags == 0x10);
        CHECK(p.flush_timer == 5); // 0 keeps
        CHECK(p.maximum_buffers == p.minimum_buffers);
        CHECK(p.buffer_size == s.props()->buffer_size);
        CHECK(p.log_file_mode == (lfm::real_time | lfm::system_logger));
        CHECK(u.props()->log_file_mode == p.log_file_mode); // written back as the session now is
        CHECK(u.guard_intact());
    }
    SUBCASE("REAL_TIME off without a file leaves no destination") {
        block u(full_size, lfm::none);
        CHECK(compat::update_trace(*k, h, static_cast<wide_char const*>(nullptr), u.props()) == win32::bad_pathname);
        block v(full_size, lfm::none);
        v.log_file_at(file_offset, u"c:\\switch.etl");
        REQUIRE(compat::update_trace(*k, h, static_cast<wide_char const*>(nullptr), v.props()) == win32::success);
        auto const* r = k->sessions().find(static_cast<std::uint16_t>(h));
        CHECK(k->sessions().log_file(*r) == u"c:\\switch.etl");
        CHECK((r->properties.log_file_mode & lfm::real_time) == 0);
        // the same file again: it is in use (by this very session)
        block again(full_size, lfm::none);
        again.log_file_at(file_offset, u"C:\\SWITCH.ETL");
        CHECK(compat::update_trace(*k, h, static_cast<wide_char const*>(nullptr), again.props()) == win32::bad_pathname);
    }
    SUBCASE("a mode the kernel refuses after the update -> ERROR_INVALID_PARAMETER, nothing changed") {
        block a(full_size, lfm::append);
        a.name_at(name_offset);
        a.log_file_at(file_offset, u"c:\\append.etl");
        std::uint64_t ah = 0;
        REQUIRE(compat::start_trace(*k, &ah, w(u"Appending").c_str(), a.props()) == win32::success);
        block u(full_size, lfm::real_time); // REAL_TIME on an APPEND session
        CHECK(compat::update_trace(*k, ah, static_cast<wide_char const*>(nullptr), u.props()) == win32::invalid_parameter);
        CHECK(k->sessions().find(static_cast<std::uint16_t>(ah))->properties.log_file_mode == lfm::append);
    }
    SUBCASE("APPEND with a new file -> ERROR_INVALID_PARAMETER before anything is sent") {
        k->clear_requests();
        block u(full_size, lfm::append);
        u.log_file_at(file_offset, u"c:\\x.etl");
        CHECK(compat::update_trace(*k, h, static_cast<wide_char const*>(nullptr), u.props()) == win32::invalid_parameter);
        CHECK(k->request_count() == 0);
    }
}

TEST_CASE("QueryAllTraces: the SDK's array of pointers, ERROR_MORE_DATA and the count, private loggers unlisted") {
    auto k = machine();
    REQUIRE(k->start_logger(5) == 5); // a logger the old tests start is a session like the others
    for (int i = 0; i < 3; ++i) REQUIRE(start(*k, numbered(u"q", i)) != 0);
    block p(full_size, lfm::private_logger | lfm::sequential);
    p.log_file_at(file_offset, u"c:\\p.etl");
    std::uint64_t h = 0;
    REQUIRE(compat::start_trace(*k, &h, w(u"private").c_str(), p.props()) == win32::success);

    static block blocks[6] = {block(full_size), block(full_size), block(full_size), block(full_size), block(full_size),
                              block(full_size)};
    event_trace_properties* array[6];
    for (int i = 0; i < 6; ++i) {
        blocks[i] = block(full_size);
        blocks[i].name_at(name_offset);
        array[i] = blocks[i].props();
    }
    std::uint32_t n = 0;
    CHECK(compat::query_all_traces(*k, array, 2, &n) == win32::more_data);
    CHECK(n == 4);
    CHECK(blocks[0].name_from(name_offset) == u"q0"); // in logger-id order: q0..q2 took ids 1..3
    CHECK(blocks[1].name_from(name_offset) == u"q1");
    CHECK(blocks[2].name_from(name_offset).empty()); // not written
    // the SDK's ULONG: unsigned long on Windows (not std::uint32_t there), unsigned int where long has 64 bits
    std::conditional_t<sizeof(unsigned long) == 4, unsigned long, unsigned int> ul = 0;
    CHECK(compat::query_all_traces(*k, array, 6, &ul) == win32::success);
    CHECK(ul == 4);
    CHECK(blocks[3].name_from(name_offset) == u"sim logger 5");
    CHECK(blocks[4].name_from(name_offset).empty());
    for (int i = 0; i < 6; ++i) CHECK(blocks[i].guard_intact());
    // errors
    CHECK(compat::query_all_traces(*k, array, 0, &n) == win32::invalid_parameter);
    CHECK(compat::query_all_traces(*k, static_cast<event_trace_properties**>(nullptr), 2, &n) == win32::invalid_parameter);
    CHECK(compat::query_all_traces(*k, array, 2, static_cast<std::uint32_t*>(nullptr)) == win32::invalid_parameter);
    array[1] = nullptr;
    CHECK(compat::query_all_traces(*k, array, 2, &n) == win32::invalid_parameter);
    array[1] = blocks[1].props();
    blocks[1].props()->wnode.buffer_size = 0x70;
    CHECK(compat::query_all_traces(*k, array, 2, &n) == win32::bad_length);
    blocks[1].props()->wnode.buffer_size = full_size;
    // above the machine's maximum (the kernel's check) and above any Windows' (etwctl's)
    static event_trace_properties* many[300];
    for (auto*& e : many) e = blocks[0].props();
    CHECK(compat::query_all_traces(*k, many, 65, &n) == win32::invalid_parameter);
    CHECK(k->query_all_traces_w(reinterpret_cast<void**>(many), 65, &n) == win32::invalid_parameter);
    CHECK(compat::query_all_traces(*k, many, 257, &n) == win32::invalid_parameter);
    // not elevated: nothing to list
    k->sessions().set_elevated(false);
    CHECK(compat::query_all_traces(*k, array, 6, &n) == win32::success);
    CHECK(n == 0);
}

TEST_CASE("QueryAllTracesA and ControlTraceA write CHAR names") {
    auto k = machine();
    REQUIRE(start(*k, u"Wide") != 0);
    block q(sizeof(event_trace_properties) + 64);
    q.name_at(name_offset);
    event_trace_properties* array[1] = {q.props()};
    std::uint32_t n = 0;
    REQUIRE(compat::query_all_traces_a(*k, array, 1, &n) == win32::success);
    CHECK(std::string(reinterpret_cast<char const*>(q.bytes + name_offset)) == "Wide");
    block s(sizeof(event_trace_properties) + 64);
    s.name_at(name_offset);
    REQUIRE(compat::stop_trace_a(*k, 0, "wide", s.props()) == win32::success);
    CHECK(std::string(reinterpret_cast<char const*>(s.bytes + name_offset)) == "Wide");
    CHECK(s.guard_intact());
}

TEST_CASE("the trace-control query by name finds StartTrace's sessions, case-insensitively") {
    auto k = machine();
    std::uint64_t const h = start(*k, u"Found Me");
    REQUIRE(h != 0);
    auto const found = find_session(*k, "found me");
    REQUIRE(found);
    CHECK(found->value == h);
    REQUIRE(k->set_logger_name(static_cast<std::uint16_t>(h), "Renamed"));
    CHECK(find_session(*k, "RENAMED").value_or(session_handle{}).value == h);
    CHECK_FALSE(find_session(*k, "Found Me"));
    REQUIRE(start(*k, u"Other") != 0);
    CHECK_FALSE(k->set_logger_name(static_cast<std::uint16_t>(h), "other")); // names stay unique
}

// ControlTrace, its wrappers and QueryAllTraces with null pointers spelled as a program written for the
// SDK spells them: NULL, nullptr, a literal 0 (each a null pointer constant of its own type).
#define ETWCTL_TEST_CONTROL_TRACE_NULLS(null_pointer)                                                                   \
    do {                                                                                                                \
        auto k = machine();                                                                                             \
        std::uint64_t const h = start(*k, u"Nulls");                                                                    \
        REQUIRE(h != 0);                                                                                                \
        k->clear_requests();                                                                                            \
        /* ControlTraceW(h, NULL, NULL, code): ERROR_INVALID_PARAMETER for every code, the session runs on */          \
        for (std::uint32_t code = 0; code <= 4; ++code) {                                                               \
            CAPTURE(code);                                                                                              \
            CHECK(compat::control_trace(*k, h, null_pointer, null_pointer, code) == win32::invalid_parameter);          \
            CHECK(compat::control_trace_a(*k, h, null_pointer, null_pointer, code) == win32::invalid_parameter);        \
        }                                                                                                               \
        CHECK(compat::stop_trace(*k, h, null_pointer, null_pointer) == win32::invalid_parameter);                       \
        CHECK(compat::query_trace(*k, h, null_pointer, null_pointer) == win32::invalid_parameter);                      \
        CHECK(compat::update_trace(*k, h, null_pointer, null_pointer) == win32::invalid_parameter);                     \
        CHECK(compat::flush_trace(*k, h, null_pointer, null_pointer) == win32::invalid_parameter);                      \
        CHECK(compat::stop_trace_a(*k, h, null_pointer, null_pointer) == win32::invalid_parameter);                     \
        CHECK(compat::query_trace_a(*k, h, null_pointer, null_pointer) == win32::invalid_parameter);                    \
        CHECK(compat::update_trace_a(*k, h, null_pointer, null_pointer) == win32::invalid_parameter);                   \
        CHECK(compat::flush_trace_a(*k, h, null_pointer, null_pointer) == win32::invalid_parameter);                    \
        /* a name given with a NULL block: ERROR_INVALID_PARAMETER too */                                               \
        CHECK(compat::stop_trace(*k, 0, w(u"Nulls").c_str(), null_pointer) == win32::invalid_parameter);                \
        CHECK(compat::stop_trace_a(*k, 0, "Nulls", null_pointer) == win32::invalid_parameter);                          \
        CHECK(k->request_count() == 0);                                                                                 \
        CHECK(k->sessions().find(static_cast<std::uint16_t>(h)) != nullptr);                                            \
        /* a NULL name: the handle decides; no name and handle 0: ERROR_INVALID_PARAMETER */                           \
        block q(full_size);                                                                                             \
        q.name_at(name_offset);                                                                                         \
        CHECK(compat::query_trace(*k, 0, null_pointer, q.props()) == win32::invalid_parameter);                         \
        CHECK(compat::query_trace_a(*k, 0, null_pointer, q.props()) == win32::invalid_parameter);                       \
        REQUIRE(compat::query_trace(*k, h, null_pointer, q.props()) == win32::success);                                 \
        CHECK(q.name_from(name_offset) == u"Nulls");                                                                    \
        /* QueryAllTracesW(NULL, n, &count) and (array, n, NULL): ERROR_INVALID_PARAMETER */                           \
        event_trace_properties* array[1] = {q.props()};                                                                 \
        std::uint32_t n = 99;                                                                                           \
        CHECK(compat::query_all_traces(*k, null_pointer, 1, &n) == win32::invalid_parameter);                           \
        CHECK(compat::query_all_traces(*k, array, 1, null_pointer) == win32::invalid_parameter);                        \
        CHECK(compat::query_all_traces_a(*k, null_pointer, 1, &n) == win32::invalid_parameter);                         \
        CHECK(compat::query_all_traces_a(*k, array, 1, null_pointer) == win32::invalid_parameter);                      \
        CHECK(compat::query_all_traces(*k, null_pointer, 1, null_pointer) == win32::invalid_parameter);                 \
        CHECK(n == 99);                                                                                                 \
        /* ControlTraceW(h, NULL, props, STOP) stops it */                                                              \
        REQUIRE(compat::control_trace(*k, h, null_pointer, q.props(), 1) == win32::success);                            \
        CHECK(k->sessions().find(static_cast<std::uint16_t>(h)) == nullptr);                                            \
    } while (false)

TEST_CASE("ControlTrace and QueryAllTraces: NULL, nullptr and 0 for each pointer get Windows' answers") {
    SUBCASE("NULL") { ETWCTL_TEST_CONTROL_TRACE_NULLS(NULL); }
    SUBCASE("nullptr") { ETWCTL_TEST_CONTROL_TRACE_NULLS(nullptr); }
    SUBCASE("0") { ETWCTL_TEST_CONTROL_TRACE_NULLS(0); }
}
#undef ETWCTL_TEST_CONTROL_TRACE_NULLS

TEST_CASE("QueryAllTraces: SessionCount as std::uint32_t or as the caller's own 32-bit unsigned type") {
    auto k = machine();
    REQUIRE(start(*k, u"Counted") != 0);
    block q(full_size);
    q.name_at(name_offset);
    event_trace_properties* array[1] = {q.props()};
    event_trace_properties* const* const_array = array; // PEVENT_TRACE_PROPERTIES const*: also an array
#if defined(_WIN32)
    unsigned long count = 0; // the SDK's ULONG: not std::uint32_t on Windows
#else
    unsigned int count = 0;
#endif
    REQUIRE(compat::query_all_traces(*k, const_array, 1, &count) == win32::success);
    CHECK(count == 1);
    std::uint32_t u32 = 0;
    REQUIRE(compat::query_all_traces_a(*k, array, 1, &u32) == win32::success);
    CHECK(u32 == 1);
    // an entry that is NULL: ERROR_INVALID_PARAMETER
    event_trace_properties* with_null[2] = {q.props(), nullptr};
    CHECK(compat::query_all_traces(*k, with_null, 2, &u32) == win32::invalid_parameter);
}
