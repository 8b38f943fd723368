// native_kernel's session calls for real: each resolves through advapi32 (or is reported missing as
// ERROR_PROC_NOT_FOUND), the SDK's own types pass to the drop-in functions without casts, and
// Windows' documented checks run before anything is sent. Under Wine the session functions are stubs
// (dlls/sechost/trace.c: StartTrace succeeds with the fake handle 0xcafe4242, ControlTrace and
// EnableTraceEx2 succeed): what Wine answers is asserted as Wine's, never taken for Windows'
// behaviour (the simulated kernel is the model of that, tests/sessions). On Windows the Wine-only
// expectations are skipped.
#include "etwctl_test.hpp"

#include <windows.h>
#include <evntrace.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "host.hpp"

using namespace etwctl;
using etwctl_test::has_export;
using etwctl_test::running_on_wine;

namespace {

constexpr session_function all_functions[] = {
    session_function::start_trace_w,    session_function::control_trace_w, session_function::query_all_traces_w,
    session_function::enable_trace_ex2, session_function::start_trace_a,   session_function::control_trace_a,
    session_function::query_all_traces_a,
};

/// SystemTraceControlGuid's value: mingw-w64 declares the SDK's only with INITGUID (which etwctl's users
/// need not define: etwctl::session_guids has it).
constexpr GUID system_trace = {0x9e814aad, 0x3204, 0x11d2, {0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39}};
static_assert(guid(system_trace) == session_guids::system_trace_control);

/// A block as Microsoft's examples build it: the structure, then room for the session name.
struct named_properties {
    EVENT_TRACE_PROPERTIES properties;
    WCHAR name[64];
};

} // namespace

TEST_CASE("every session export is resolved or reported missing, as the OS says") {
    native_kernel& k = native_kernel::instance();
    for (session_function f : all_functions) {
        CAPTURE(session_function_name(f).data());
        CHECK(k.session_available(f) == has_export(L"advapi32.dll", session_function_name(f).data()));
    }
    CHECK(k.current_process_id() == ::GetCurrentProcessId());
    CHECK(k.process_alive(::GetCurrentProcessId()));
    CHECK_FALSE(k.process_alive(0));
}

TEST_CASE("the SDK's types go straight into the drop-in functions; the checks run before the call") {
    named_properties p{};
    p.properties.Wnode.BufferSize = sizeof p;
    p.properties.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    p.properties.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_CIRCULAR;
    p.properties.LoggerNameOffset = offsetof(named_properties, name);
    TRACEHANDLE handle = 1;
    // refused by etwctl before anything is sent: Wine's stub would have said ERROR_SUCCESS
    CHECK(compat::start_trace(&handle, L"etwctl native test", &p.properties) == ERROR_INVALID_PARAMETER);
    CHECK(handle == 0);
    p.properties.Wnode.BufferSize = 0;
    CHECK(compat::start_trace(&handle, L"etwctl native test", &p.properties) == ERROR_BAD_LENGTH);
    p.properties.Wnode.BufferSize = sizeof p;
    p.properties.LogFileMode = EVENT_TRACE_FILE_MODE_NONE;
    CHECK(compat::start_trace(&handle, L"etwctl native test", &p.properties) == ERROR_BAD_PATHNAME);
    p.properties.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    p.properties.Wnode.Guid = system_trace; // with another name: refused
    CHECK(compat::start_trace(&handle, L"etwctl native test", &p.properties) == ERROR_INVALID_PARAMETER);
    CHECK(compat::control_trace(0, static_cast<LPCWSTR>(nullptr), &p.properties, EVENT_TRACE_CONTROL_QUERY) ==
          ERROR_INVALID_PARAMETER);
    PEVENT_TRACE_PROPERTIES array[1] = {&p.properties};
    ULONG count = 0;
    CHECK(compat::query_all_traces(array, 0, &count) == ERROR_INVALID_PARAMETER);
    GUID const provider = system_trace;
    CHECK(compat::enable_trace_ex2(0, &provider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 4, 0, 0, 0,
                                   static_cast<PENABLE_TRACE_PARAMETERS>(nullptr)) == ERROR_INVALID_PARAMETER);
}

TEST_CASE("Wine's stubs answer through native_kernel (Wine only)") {
    if (!running_on_wine()) return; // on Windows this would start a real session
    named_properties p{};
    p.properties.Wnode.BufferSize = sizeof p;
    p.properties.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    p.properties.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    p.properties.LoggerNameOffset = offsetof(named_properties, name);
    TRACEHANDLE handle = 0;
    native_kernel& k = native_kernel::instance();
    REQUIRE(k.session_available(session_function::start_trace_w));
    std::uint32_t const started = compat::start_trace(&handle, L"etwctl wine", &p.properties);
    CHECK(started == ERROR_SUCCESS);
    CHECK(handle == 0xcafe4242ULL); // Wine's fake handle: no session runs
    CHECK(compat::query_trace(handle, static_cast<LPCWSTR>(nullptr), &p.properties) == ERROR_SUCCESS);
    GUID const provider = {0x22fb2cd6, 0x0e7b, 0x422b, {0xa0, 0xc7, 0x2f, 0xad, 0x1f, 0xd0, 0xe7, 0x16}};
    ENABLE_TRACE_PARAMETERS params{};
    params.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    CHECK(compat::enable_trace_ex2(handle, &provider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, TRACE_LEVEL_INFORMATION, 0, 0, 0,
                                   &params) == ERROR_SUCCESS);
    CHECK(compat::stop_trace(handle, static_cast<LPCWSTR>(nullptr), &p.properties) == ERROR_SUCCESS);
    // the A form
    struct ansi_properties {
        EVENT_TRACE_PROPERTIES properties;
        char name[64];
    } a{};
    a.properties.Wnode.BufferSize = sizeof a;
    a.properties.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    a.properties.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    a.properties.LoggerNameOffset = offsetof(ansi_properties, name);
    if (k.session_available(session_function::start_trace_a)) {
        handle = 0;
        CHECK(compat::start_trace_a(&handle, "etwctl wine a", &a.properties) == ERROR_SUCCESS);
    }
}
