// The information-class drop-in functions (TraceSetInformation, TraceQueryInformation,
// EtwGetTraceEnableFlags, TraceLoggingSetInformation, and compat::current's two) with null pointers spelled
// as a program written for the SDK spells them: NULL (<cstddef>), nullptr and a literal 0, each a null
// pointer constant of its own type. Each call compiles with each spelling and gets the answer SECHOST
// gives (Geoff Chappell's TraceSetInformation / TraceQueryInformation pages; EtwGetTraceEnableFlags:
// the error pointer may be NULL).
#include <cstddef>
#include <cstdint>

#include "sim_fixture.hpp"

#if defined(_WIN32)
#include "etwctl/default_kernel.hpp"
#endif

using namespace etwctl;
using namespace etwctl_test;

#define ETWCTL_TEST_INFO_CLASS_NULLS(null_pointer)                                                                       \
    do {                                                                                                                 \
        machine m;                                                                                                       \
        std::uint64_t const s = m.kernel_session;                                                                        \
        /* TraceStackTracingInfo (3): an empty buffer must be NULL; it disables stacks. NULL with a length: 87 */       \
        classic_event_id const one[1] = {event(0x05, 0x24)};                                                             \
        REQUIRE(compat::trace_set_information(m.k, s, 3, one, sizeof one) == win32::success);                          \
        CHECK(m.k.stack_tracing_hooks(0xFFFF).size() == 1);                                                              \
        CHECK(compat::trace_set_information(m.k, s, 3, null_pointer, 0) == win32::success);                            \
        CHECK(m.k.stack_tracing_hooks(0xFFFF).empty());                                                                  \
        CHECK(compat::trace_set_information(m.k, s, 3, null_pointer, 24) == win32::invalid_parameter);                 \
        /* TraceProfileSourceConfigInfo (6), TracePmcCounterListInfo (9): NULL -> 87 */                                 \
        CHECK(compat::trace_set_information(m.k, s, 6, null_pointer, 4) == win32::invalid_parameter);                  \
        CHECK(compat::trace_set_information(m.k, s, 9, null_pointer, 0) == win32::invalid_parameter);                  \
        /* TraceSampledProfileIntervalInfo (5): session 0, exact struct; NULL with its size -> 87 */                    \
        CHECK(compat::trace_set_information(m.k, 0, 5, null_pointer, 8) == win32::invalid_parameter);                  \
        /* TraceQueryInformation: ReturnLength may be NULL; a NULL buffer with a length is 87 */                        \
        std::uint32_t masks[8] = {0x7};                                                                                  \
        REQUIRE(compat::trace_set_information(m.k, s, 4, masks, sizeof masks) == win32::success);                      \
        std::uint32_t out[8] = {};                                                                                       \
        CHECK(compat::trace_query_information(m.k, s, 4, out, sizeof out, null_pointer) == win32::success);             \
        CHECK(out[0] == 0x7);                                                                                            \
        std::uint32_t ret = 0;                                                                                           \
        CHECK(compat::trace_query_information(m.k, s, 4, null_pointer, 32, &ret) == win32::invalid_parameter);         \
        CHECK(compat::trace_query_information(m.k, s, 4, null_pointer, 32, null_pointer) == win32::invalid_parameter); \
        /* TraceSetDisallowList (14) query: NULL, 0 is the size probe, with or without ReturnLength */                  \
        guid const disallowed[1] = {guid::from_string("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716")};                          \
        REQUIRE(compat::trace_set_information(m.k, s, 10, disallowed, sizeof disallowed) == win32::success);           \
        ret = 0;                                                                                                         \
        CHECK(compat::trace_query_information(m.k, s, 14, null_pointer, 0, &ret) == win32::insufficient_buffer);       \
        CHECK(ret == sizeof disallowed);                                                                                 \
        CHECK(compat::trace_query_information(m.k, s, 14, null_pointer, 0, null_pointer) == win32::insufficient_buffer); \
        /* EtwGetTraceEnableFlags: the error pointer may be NULL */                                                     \
        CHECK(compat::get_trace_enable_flags(0x0000000500040005ULL, null_pointer) == 5);                                 \
        CHECK(compat::get_trace_enable_flags(0, null_pointer) == 0);                                                     \
        /* EventSetInformation's checks: binary tracking takes no buffer; traits need one (E_INVALIDARG form) */       \
        auto const reg = m.k.register_provider();                                                                        \
        CHECK(compat::tracelogging_set_information(m.k, reg, 0, null_pointer, 0) == 0);                                 \
        CHECK(m.k.binary_tracked(reg));                                                                                  \
        CHECK(static_cast<std::uint32_t>(compat::tracelogging_set_information(m.k, reg, 2, null_pointer, 3)) == 0x80070057U); \
        /* compat::current: 16 with NULL, 0 clears; 17 with a NULL ReturnLength; a NULL buffer with a length -> 87 */   \
        CHECK(compat::current::trace_set_information(m.k, s, 16, null_pointer, 0) == win32::success);                  \
        CHECK(compat::current::trace_set_information(m.k, s, 16, null_pointer, 8) == win32::invalid_parameter);        \
        std::uint32_t limits_out[2] = {};                                                                                \
        CHECK(compat::current::trace_query_information(m.k, 0, 17, limits_out, 8, null_pointer) == win32::success);    \
        CHECK(limits_out[0] == limits::min_periodic_capture_seconds);                                                    \
        CHECK(compat::current::trace_query_information(m.k, 0, 19, null_pointer, 4, null_pointer) == win32::invalid_parameter); \
    } while (false)

TEST_CASE("info-class drop-ins: NULL, nullptr and 0 for every pointer parameter get SECHOST's answers") {
    SUBCASE("NULL") { ETWCTL_TEST_INFO_CLASS_NULLS(NULL); }
    SUBCASE("nullptr") { ETWCTL_TEST_INFO_CLASS_NULLS(nullptr); }
    SUBCASE("0") { ETWCTL_TEST_INFO_CLASS_NULLS(0); }
}
#undef ETWCTL_TEST_INFO_CLASS_NULLS

#if defined(_WIN32)
// The forms without the kernel argument (default_kernel.hpp) take the same spellings. Compiled, never
// called: under Wine, SECHOST's functions are Wine's, not Windows'.
[[maybe_unused]] static void etwctl_test_native_info_class_nulls() {
    std::uint32_t out[8] = {};
    (void)compat::trace_set_information(0, 3, NULL, 0);
    (void)compat::trace_set_information(0, 3, nullptr, 0);
    (void)compat::trace_set_information(0, 3, 0, 0);
    (void)compat::trace_query_information(0, 4, out, sizeof out, NULL);
    (void)compat::trace_query_information(0, 4, out, sizeof out, nullptr);
    (void)compat::trace_query_information(0, 4, out, sizeof out, 0);
    (void)compat::tracelogging_set_information(0, 0, NULL, 0);
    (void)compat::tracelogging_set_information(0, 0, nullptr, 0);
    (void)compat::tracelogging_set_information(0, 0, 0, 0);
}
#endif
