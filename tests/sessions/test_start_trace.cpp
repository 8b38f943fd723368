// compat::start_trace (and start_trace_a) on the simulated kernel: every documented error of
// StartTrace that is known, the shapes real clients pass, and what is written back (nothing past
// Wnode.BufferSize: guard bytes follow every block).
#include <cstddef>
#include <cstdint>
#include <string>

#include "session_test.hpp"

using namespace etwctl;
using namespace session_test;
namespace lfm = etwctl::log_file_mode;

TEST_CASE("StartTrace: a session starts, its handle comes back, the block gets its output fields") {
    auto k = machine();
    block b(full_size);
    b.name_at(name_offset);
    b.props()->minimum_buffers = 1; // raised to 2 per processor
    b.props()->maximum_buffers = 3; // raised to MinimumBuffers
    b.props()->buffer_size = 64;
    std::uint64_t h = 99;
    REQUIRE(compat::start_trace(*k, &h, w(u"My Session").c_str(), b.props()) == win32::success);
    CHECK(h != 0);
    CHECK(h < limits::max_loggers);
    CHECK(b.props()->wnode.historical_context == h);
    CHECK(b.name_from(name_offset) == u"My Session");
    CHECK(b.props()->minimum_buffers == 2 * sim::current_windows_model::processors);
    CHECK(b.props()->maximum_buffers == b.props()->minimum_buffers);
    CHECK(b.props()->number_of_buffers == b.props()->minimum_buffers);
    CHECK(b.props()->buffer_size == 64);
    CHECK(b.props()->wnode.buffer_size == full_size);
    CHECK(b.guard_intact());
    auto const* r = k->sessions().find(static_cast<std::uint16_t>(h));
    REQUIRE(r != nullptr);
    CHECK(k->sessions().name(*r) == u"My Session");
    CHECK(r->properties.wnode.guid != guid{}); // ETW made a GUID for the zero one
    // NO_PER_PROCESSOR_BUFFERING: 2 in all
    block c(full_size, lfm::real_time | lfm::no_per_processor_buffering);
    c.name_at(name_offset);
    REQUIRE(compat::start_trace(*k, &h, w(u"Second").c_str(), c.props()) == win32::success);
    CHECK(c.props()->minimum_buffers == 2);
}

TEST_CASE("StartTrace: the errors Windows documents and Wine's test observed on Windows") {
    auto k = machine();
    std::uint64_t h = 7;
    auto const name = w(u"wine");
    SUBCASE("BufferSize 0 -> ERROR_BAD_LENGTH, and the handle is 0") {
        block b(full_size);
        b.props()->wnode.buffer_size = 0;
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::bad_length);
        CHECK(h == 0);
    }
    SUBCASE("a name longer than the room reserved -> ERROR_BAD_LENGTH") {
        block b(sizeof(event_trace_properties) + 2 * 4); // room for 3 characters and the NUL
        b.name_at(name_offset);
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::bad_length);
        block c(sizeof(event_trace_properties) + 2 * 5);
        c.name_at(name_offset);
        CHECK(compat::start_trace(*k, &h, name.c_str(), c.props()) == win32::success);
        CHECK(c.guard_intact());
    }
    SUBCASE("NULL properties, NULL handle -> ERROR_INVALID_PARAMETER") {
        CHECK(compat::start_trace(*k, &h, name.c_str(), static_cast<event_trace_properties*>(nullptr)) == win32::invalid_parameter);
        block b(full_size);
        CHECK(compat::start_trace(*k, static_cast<std::uint64_t*>(nullptr), name.c_str(), b.props()) == win32::invalid_parameter);
    }
    SUBCASE("either offset = 1 -> ERROR_INVALID_PARAMETER; past the block too") {
        block b(full_size);
        b.props()->logger_name_offset = 1;
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::invalid_parameter);
        b.props()->logger_name_offset = 0;
        b.props()->log_file_name_offset = 1;
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::invalid_parameter);
        b.props()->log_file_name_offset = full_size;
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::invalid_parameter);
    }
    SUBCASE("SEQUENTIAL | CIRCULAR -> ERROR_INVALID_PARAMETER") {
        block b(full_size, lfm::sequential | lfm::circular);
        b.props()->maximum_file_size = 10;
        b.log_file_at(file_offset, u"c:\\t.etl");
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::invalid_parameter);
    }
    SUBCASE("SystemTraceControlGuid named \"wine\" -> ERROR_INVALID_PARAMETER") {
        block b(full_size);
        b.props()->wnode.guid = session_guids::system_trace_control;
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::invalid_parameter);
    }
    SUBCASE("mode NONE, LogFileNameOffset 0 -> ERROR_BAD_PATHNAME") {
        block b(full_size, lfm::none);
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::bad_pathname);
    }
    SUBCASE("a second start -> ERROR_ALREADY_EXISTS; by name (any case) and by GUID") {
        block b(full_size);
        b.props()->wnode.guid = guid::from_string("11111111-2222-3333-4444-555555555555");
        REQUIRE(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::success);
        block c(full_size);
        CHECK(compat::start_trace(*k, &h, w(u"WINE").c_str(), c.props()) == win32::already_exists);
        block d(full_size);
        d.props()->wnode.guid = guid::from_string("11111111-2222-3333-4444-555555555555");
        CHECK(compat::start_trace(*k, &h, w(u"other").c_str(), d.props()) == win32::already_exists);
        CHECK(h == 0);
    }
    SUBCASE("names: NULL, empty, over 1024 characters -> ERROR_INVALID_NAME") {
        block b(full_size);
        CHECK(compat::start_trace(*k, &h, static_cast<wide_char const*>(nullptr), b.props()) == win32::invalid_name);
        CHECK(compat::start_trace(*k, &h, w(u"").c_str(), b.props()) == win32::invalid_name);
        std::basic_string<wide_char> const longest(1024, wide_char('a')), too_long(1025, wide_char('a'));
        CHECK(compat::start_trace(*k, &h, too_long.c_str(), b.props()) == win32::invalid_name);
        CHECK(compat::start_trace(*k, &h, longest.c_str(), b.props()) == win32::success);
    }
    SUBCASE("NEWFILE without exactly one %d -> ERROR_INVALID_NAME; with it, the session starts") {
        block b(full_size, lfm::newfile);
        b.props()->maximum_file_size = 1;
        b.log_file_at(file_offset, u"c:\\trace.etl");
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::invalid_name);
        b.log_file_at(file_offset, u"c:\\trace_%d.etl");
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::success);
    }
    SUBCASE("a log file another session writes -> ERROR_BAD_PATHNAME (compared case-insensitively)") {
        block b(full_size, lfm::sequential);
        b.log_file_at(file_offset, u"c:\\t.etl");
        REQUIRE(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::success);
        block c(full_size, lfm::sequential);
        c.log_file_at(file_offset, u"C:\\T.ETL");
        CHECK(compat::start_trace(*k, &h, w(u"other").c_str(), c.props()) == win32::bad_pathname);
    }
    SUBCASE("Wnode.Flags without WNODE_FLAG_TRACED_GUID -> ERROR_INVALID_PARAMETER") {
        block b(full_size);
        b.props()->wnode.flags = 0;
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::invalid_parameter);
    }
    SUBCASE("a malformed EnableFlags extension -> ERROR_INVALID_PARAMETER; one inside the block starts") {
        block b(sizeof(event_trace_properties) + 16, lfm::real_time | lfm::system_logger);
        b.props()->enable_flags = 0x80000000U | (4U << 16) | sizeof(event_trace_properties); // 4 ULONGs: 16 bytes
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::success);
        block c(sizeof(event_trace_properties) + 12, lfm::real_time | lfm::system_logger);
        c.props()->enable_flags = 0x80000000U | (4U << 16) | sizeof(event_trace_properties); // runs past the block
        CHECK(compat::start_trace(*k, &h, w(u"other").c_str(), c.props()) == win32::invalid_parameter);
    }
    SUBCASE("a log-file name over 1024 characters -> ERROR_INVALID_PARAMETER (the simulated kernel's choice)") {
        block b(sizeof(event_trace_properties) + 2 * 1026, lfm::sequential);
        b.log_file_at(sizeof(event_trace_properties), std::u16string(1025, u'f'));
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::invalid_parameter);
        b.log_file_at(sizeof(event_trace_properties), std::u16string(1024, u'f'));
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::success);
    }
    SUBCASE("the LogFileMode rules of the kernel: COMPRESSED without BUFFERING, NEWFILE on a system logger") {
        block b(full_size, lfm::real_time | lfm::compressed);
        CHECK(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::invalid_parameter);
        block c(full_size, lfm::newfile | lfm::system_logger);
        c.props()->maximum_file_size = 1;
        c.log_file_at(file_offset, u"c:\\t_%d.etl");
        CHECK(compat::start_trace(*k, &h, name.c_str(), c.props()) == win32::invalid_parameter);
    }
}

TEST_CASE("StartTrace: a refused call sends nothing (the checks run before the kernel is called)") {
    auto k = machine();
    block b(full_size, lfm::sequential | lfm::circular);
    std::uint64_t h = 0;
    CHECK(compat::start_trace(*k, &h, w(u"x").c_str(), b.props()) == win32::invalid_parameter);
    CHECK(k->request_count() == 0);
    // the simulated kernel applies the same checks when called directly
    CHECK(k->start_trace_w(&h, w(u"x").c_str(), b.props()) == win32::invalid_parameter);
    CHECK(k->request_count() == 1);
    CHECK(k->last_request().status == static_cast<std::int32_t>(win32::invalid_parameter));
}

TEST_CASE("StartTrace: 64 loggers, 8 system loggers, then ERROR_NO_SYSTEM_RESOURCES") {
    auto k = machine();
    std::uint64_t h = 0;
    // 8 system loggers: the NT Kernel Logger and 7 SYSTEM_LOGGER_MODE sessions
    block kb(sizeof(event_trace_properties) + 2 * 17);
    kb.name_at(name_offset); // 154 bytes: exactly the NT Kernel Logger's name
    REQUIRE(kb.size == 154);
    REQUIRE(compat::start_trace(*k, &h, w(session_names::kernel_logger).c_str(), kb.props()) == win32::success);
    CHECK(h == limits::kernel_logger_id);
    CHECK(kb.guard_intact());
    for (int i = 0; i < 7; ++i) CHECK(start(*k, numbered(u"system ", i), lfm::real_time | lfm::system_logger) != 0);
    CHECK(k->sessions().system_loggers() == 8);
    block b(full_size, lfm::real_time | lfm::system_logger);
    b.name_at(name_offset);
    CHECK(compat::start_trace(*k, &h, w(u"ninth").c_str(), b.props()) == win32::no_system_resources);
    // the circular kernel context logger by name is a system logger too
    CHECK(compat::start_trace(*k, &h, w(session_names::circular_kernel_context_logger).c_str(), b.props()) ==
          win32::no_system_resources);
    // user sessions up to 64 loggers in all
    int started = 0;
    for (int i = 0; i < 70; ++i) started += start(*k, numbered(u"user ", i)) != 0 ? 1 : 0;
    CHECK(started == 64 - 8);
    CHECK(k->sessions().running() == 64);
    CHECK(start(*k, u"one more") == 0);
    block c(full_size);
    CHECK(compat::start_trace(*k, &h, w(u"one more").c_str(), c.props()) == win32::no_system_resources);
    // a private logger does not count against the 64 (but needs a free slot of the model's table)
    CHECK(k->sessions().max_loggers() == 64);
}

TEST_CASE("StartTrace: the NT Kernel Logger is a singleton with its id and GUID") {
    auto k = machine();
    std::uint64_t h = 0;
    block b(full_size);
    b.name_at(name_offset);
    REQUIRE(compat::start_trace(*k, &h, w(u"NT Kernel Logger").c_str(), b.props()) == win32::success);
    CHECK(h == 0xFFFF);
    auto const* r = k->sessions().find(0xFFFF);
    REQUIRE(r != nullptr);
    CHECK(r->properties.wnode.guid == session_guids::system_trace_control); // the reserved name takes its GUID
    CHECK(r->system_slot != sim::no_slot);
    block c(full_size);
    CHECK(compat::start_trace(*k, &h, w(u"nt kernel logger").c_str(), c.props()) == win32::already_exists);
    block d(full_size);
    d.props()->wnode.guid = session_guids::system_trace_control;
    CHECK(compat::start_trace(*k, &h, w(u"NT Kernel Logger").c_str(), d.props()) == win32::already_exists);
    // group masks and stacks work on it (one logger table)
    CHECK(k->logger_exists(0xFFFF));
}

TEST_CASE("StartTrace: not elevated -> ERROR_ACCESS_DENIED, but a private logger starts") {
    auto k = machine();
    k->sessions().set_elevated(false);
    std::uint64_t h = 0;
    block b(full_size);
    CHECK(compat::start_trace(*k, &h, w(u"NT Kernel Logger").c_str(), b.props()) == win32::access_denied);
    CHECK(compat::start_trace(*k, &h, w(u"user").c_str(), b.props()) == win32::access_denied);
    block p(full_size, lfm::private_logger | lfm::sequential);
    p.log_file_at(file_offset, u"c:\\private.etl");
    CHECK(compat::start_trace(*k, &h, w(u"private").c_str(), p.props()) == win32::success);
    CHECK(k->sessions().running() == 0); // private loggers are not counted
}

TEST_CASE("StartTraceA: CHAR names, in the block too") {
    auto k = machine();
    std::uint64_t h = 0;
    block b(sizeof(event_trace_properties) + 64, lfm::sequential);
    b.name_at(name_offset);
    b.log_file_at_a(name_offset + 16, "c:\\a.etl");
    REQUIRE(compat::start_trace_a(*k, &h, "ansi", b.props()) == win32::success);
    CHECK(std::string(reinterpret_cast<char const*>(b.bytes + name_offset)) == "ansi");
    auto const* r = k->sessions().find(static_cast<std::uint16_t>(h));
    REQUIRE(r != nullptr);
    CHECK(k->sessions().name(*r) == u"ansi");
    CHECK(k->sessions().log_file(*r) == u"c:\\a.etl");
    CHECK(b.guard_intact());
    // a CHAR name longer than its room: ERROR_BAD_LENGTH, counted in bytes
    block c(sizeof(event_trace_properties) + 4);
    c.name_at(name_offset);
    CHECK(compat::start_trace_a(*k, &h, "long", c.props()) == win32::bad_length);
}

TEST_CASE("StartTrace: EVENT_TRACE_PROPERTIES_V2") {
    auto k = machine();
    std::uint64_t h = 0;
    block b(sizeof(event_trace_properties_v2) + 64);
    b.props()->wnode.flags |= wnode_flag::versioned_properties;
    b.name_at(sizeof(event_trace_properties_v2));
    auto* v2 = std::launder(reinterpret_cast<event_trace_properties_v2*>(b.bytes));
    v2->v2_control = event_trace_properties_version_2;
    REQUIRE(compat::start_trace(*k, &h, w(u"v2").c_str(), v2) == win32::success);
    CHECK(b.name_from(sizeof(event_trace_properties_v2)) == u"v2");
    CHECK(v2->v2_control == event_trace_properties_version_2); // the V2 fields are the caller's
    CHECK(b.guard_intact());
    // the versioned flag on a block that cannot hold the V2 structure
    block undersized(sizeof(event_trace_properties) + 8);
    undersized.props()->wnode.flags |= wnode_flag::versioned_properties;
    CHECK(compat::start_trace(*k, &h, w(u"v2b").c_str(), undersized.props()) == win32::bad_length);
    // FilterDescCount without FilterDesc
    block f(sizeof(event_trace_properties_v2) + 64);
    f.props()->wnode.flags |= wnode_flag::versioned_properties;
    auto* fv = std::launder(reinterpret_cast<event_trace_properties_v2*>(f.bytes));
    fv->filter_desc_count = 1;
    CHECK(compat::start_trace(*k, &h, w(u"v2c").c_str(), fv) == win32::invalid_parameter);
}

// Wine's StartTrace conformance test (dlls/advapi32/tests/eventlog.c) passes its null pointers as a C
// program does. The same shapes here, each with the three spellings a program written for the SDK uses:
// NULL (<cstddef>: __null with g++ and clang, 0 or 0LL elsewhere), nullptr and a literal 0. Each is a null
// pointer constant of its own type; each must reach the drop-in function and get Windows' answer.
#define ETWCTL_TEST_START_TRACE_NULLS(null_pointer)                                                                     \
    do {                                                                                                                \
        auto k = machine();                                                                                             \
        auto const name = w(u"wine");                                                                                   \
        std::uint64_t h = 7;                                                                                            \
        /* StartTraceW(&h, name, NULL): ERROR_INVALID_PARAMETER, the handle 0 */                                       \
        CHECK(compat::start_trace(*k, &h, name.c_str(), null_pointer) == win32::invalid_parameter);                     \
        CHECK(h == 0);                                                                                                  \
        block b(full_size);                                                                                             \
        b.name_at(name_offset);                                                                                         \
        /* StartTraceW(NULL, name, props): ERROR_INVALID_PARAMETER, the block untouched */                             \
        CHECK(compat::start_trace(*k, null_pointer, name.c_str(), b.props()) == win32::invalid_parameter);              \
        CHECK(b.props()->wnode.historical_context == 0);                                                                \
        CHECK(compat::start_trace(*k, null_pointer, name.c_str(), null_pointer) == win32::invalid_parameter);           \
        /* StartTraceW(&h, NULL, props): ERROR_INVALID_NAME */                                                          \
        h = 7;                                                                                                          \
        CHECK(compat::start_trace(*k, &h, null_pointer, b.props()) == win32::invalid_name);                             \
        CHECK(h == 0);                                                                                                  \
        /* the A forms */                                                                                               \
        CHECK(compat::start_trace_a(*k, &h, "wine", null_pointer) == win32::invalid_parameter);                         \
        CHECK(compat::start_trace_a(*k, null_pointer, "wine", b.props()) == win32::invalid_parameter);                  \
        CHECK(compat::start_trace_a(*k, &h, null_pointer, b.props()) == win32::invalid_name);                           \
        CHECK(compat::start_trace_a(*k, null_pointer, null_pointer, null_pointer) == win32::invalid_parameter);         \
        /* nothing reached the kernel: the name is free, a typed call starts the session */                            \
        CHECK(k->request_count() == 0);                                                                                 \
        REQUIRE(compat::start_trace(*k, &h, name.c_str(), b.props()) == win32::success);                                \
        CHECK(h != 0);                                                                                                  \
        CHECK(b.guard_intact());                                                                                        \
    } while (false)

TEST_CASE("StartTrace: NULL, nullptr and 0 for each pointer, as Wine's conformance test passes them") {
    SUBCASE("NULL") { ETWCTL_TEST_START_TRACE_NULLS(NULL); }
    SUBCASE("nullptr") { ETWCTL_TEST_START_TRACE_NULLS(nullptr); }
    SUBCASE("0") { ETWCTL_TEST_START_TRACE_NULLS(0); }
}
#undef ETWCTL_TEST_START_TRACE_NULLS

TEST_CASE("StartTrace: the TRACEHANDLE in either 64-bit spelling (unsigned long long, std::uint64_t)") {
    auto k = machine();
    block b(full_size);
    b.name_at(name_offset);
    unsigned long long ull = 5;
    REQUIRE(compat::start_trace(*k, &ull, w(u"ull").c_str(), b.props()) == win32::success);
    CHECK(ull == b.props()->wnode.historical_context);
    block c(full_size);
    c.name_at(name_offset);
    std::uint64_t u64 = 5;
    REQUIRE(compat::start_trace(*k, &u64, w(u"u64").c_str(), c.props()) == win32::success);
    CHECK(u64 == c.props()->wnode.historical_context);
    CHECK(u64 != ull);
    // a failure writes 0 through either spelling
    ull = 5;
    CHECK(compat::start_trace(*k, &ull, w(u"u64").c_str(), c.props()) == win32::already_exists);
    CHECK(ull == 0);
}

#if defined(_WIN32)
// The forms without the kernel argument (native_kernel::instance()) take the same spellings. Compiled,
// never called: under Wine, StartTrace & co. are Wine's (a fake handle and ERROR_SUCCESS), not Windows'.
[[maybe_unused]] static void etwctl_test_native_session_nulls() {
    std::uint64_t h = 0;
    event_trace_properties p{};
    event_trace_properties* array[1] = {&p};
    (void)compat::start_trace(&h, L"n", NULL);
    (void)compat::start_trace(nullptr, L"n", &p);
    (void)compat::start_trace(0, 0, 0);
    (void)compat::start_trace_a(NULL, NULL, NULL);
    (void)compat::control_trace(h, NULL, NULL, 1);
    (void)compat::control_trace_a(h, nullptr, nullptr, 1);
    (void)compat::stop_trace(h, 0, 0);
    (void)compat::query_trace(h, NULL, &p);
    (void)compat::update_trace_a(h, NULL, NULL);
    (void)compat::flush_trace(h, nullptr, nullptr);
    (void)compat::query_all_traces(NULL, 1, NULL);
    (void)compat::query_all_traces_a(array, 1, nullptr);
    (void)compat::enable_trace_ex2(h, NULL, 1, 4, 0, 0, 0, NULL);
    (void)compat::enable_trace_ex2(h, 0, 1, 4, 0, 0, 0, 0);
}
#endif

// Issue 35 item 2: the NT Kernel Logger is logger 0xFFFF (KERNEL_LOGGER_ID, evntrace.h; `xperf -loggers`
// prints "Logger Id : ffff" for it in Microsoft's xperf documentation, "Avoiding Lost Buffers"), and
// StartTrace gives it the TRACEHANDLE 0x000000000000FFFF: the low word is the logger id (WNODE_HEADER's
// page; Chappell's NtTraceControl), the zero upper bits are inferred (a client's `handle == 0xFFFF`,
// Tracy's, must hold). No session has logger id 0: a handle naming logger 0 names none.
TEST_CASE("StartTrace: the NT Kernel Logger's handle is 0x000000000000FFFF; a handle naming logger 0 names no session") {
    auto k = machine();
    block kb(full_size);
    kb.name_at(name_offset);
    std::uint64_t h = 0;
    REQUIRE(k->start_trace_w(&h, w(session_names::kernel_logger).c_str(), kb.props()) == win32::success);
    CHECK(h == 0xFFFFU);                 // the whole handle: a client's `handle == 0xFFFF` test holds
    CHECK(kb.props()->wnode.historical_context == 0xFFFFU); // written back as the handle
    // Requests to the kernel logger carry 0xFFFF in TraceHandle's low word and reach it ...
    group_mask m;
    m.masks[0] = 0x10; // EVENT_TRACE_FLAG_CSWITCH
    CHECK_FALSE(set<system_trace_enable_flags>(*k, session_handle{h}, m));
    CHECK(k->group_masks(0xFFFF).masks[0] == 0x10U);
    // ... while logger id 0 is no session, for the kernel's classes and for ControlTrace alike
    m.masks[0] = 0x1; // EVENT_TRACE_FLAG_PROCESS
    std::error_code const no_session = ntstatus_error_code(ntstatus::wmi_instance_not_found);
    CHECK(set<system_trace_enable_flags>(*k, session_handle{0}, m) == no_session);
    CHECK(set<system_trace_enable_flags>(*k, session_handle{0x0000000100000000ULL}, m) == no_session);
    CHECK(k->group_masks(0xFFFF).masks[0] == 0x10U); // unchanged
    CHECK(k->group_masks(0).masks[0] == 0U);
    block q(full_size);
    CHECK(k->control_trace_w(0x0000000100000000ULL, nullptr, q.props(), static_cast<std::uint32_t>(control_code::query)) ==
          win32::wmi_instance_not_found);
    CHECK(k->control_trace_w(0xFFFF, nullptr, q.props(), static_cast<std::uint32_t>(control_code::query)) == win32::success);
    CHECK(q.props()->wnode.historical_context == 0xFFFFU);
}
