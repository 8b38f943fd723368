// SPDX-License-Identifier: MIT
// etwctl/compat_current.hpp - the drop-in TraceSetInformation / TraceQueryInformation of a current Windows
// release, as an explicit opt-in:
//
//   etwctl::compat::current::trace_set_information(k, session, TraceStackCachingInfo, &info, sizeof info);
//
// etwctl::compat:: answers as the documented Windows 10 RTM SECHOST does: every class >= 16 is
// ERROR_NOT_SUPPORTED, unchanged. compat::current:: answers classes 0-15 exactly as compat:: does and
// also accepts the classes later releases added (16-28; 17 is answered without a kernel call: the limits
// the kernel enforces, docs/choices.md). SECHOST's own buffer checks for those classes are not documented
// anywhere: the checks are etwctl's inference, chosen as the neighbouring documented classes do
// (exact structs -> ERROR_BAD_LENGTH, arrays -> whole elements and a count limit -> ERROR_INCORRECT_SIZE,
// machine-global classes -> session 0). They are the rows of classes 16-28 in the one class table
// (classes/info_classes.hpp), checked by the same request/checks.hpp as every class and listed in
// docs/choices.md; the requests come from request/encode.hpp's encoders.
// The kernel's own refusals (clamps, second enable, privilege, a Windows without the class ->
// ERROR_INVALID_FUNCTION) arrive through RtlNtStatusToDosError as usual.
//
// Caller's buffers (SDK evntrace.h):
//   16 set   TRACE_PERIODIC_CAPTURE_STATE_INFO {ULONG Frequency; USHORT ProviderCount; USHORT Reserved} +
//            ProviderCount GUIDs (<= 16); NULL with length 0 clears
//   17 query TRACE_PERIODIC_CAPTURE_STATE_INFO out (>= 8 bytes; ReturnLength 8; the session is not used):
//            {5, 16, 0}, the kernel's minimum frequency and most providers
//   18 set   one BOOLEAN byte
//   19 query ULONG (>= 4 bytes; the session is not used)
//   20 set   one ULONG of TRACE_LBR_CONFIGURATION
//   21 set   ULONG hook ids (<= 4; more -> ERROR_IMPLEMENTATION_LIMIT as TraceConfigureLastBranchRecord)
//   22 query ULONG (>= 4 bytes; the session is not used)
//   23 query ULONG (>= 4 bytes) for the session
//   24, 26 set TRACE_STACK_CACHING_INFO {BOOLEAN Enabled; ULONG CacheSize; ULONG BucketCount} (12 bytes)
//   25 query ETW_PMC_COUNTER_OWNERSHIP_STATUS in and out (>= 8 bytes; the kernel wants 8 + 12 x counters);
//            session must be 0
//   27 query a chain of ETW_PMC_SESSION_INFO (any size; ReturnLength says what suffices); session must be 0
//   28 set   TRACE_CONTEXT_REGISTER_INFO {ULONG RegisterTypes; ULONG Reserved} + CLASSIC_EVENT_IDs (<= 8);
//            events whose GUID is no kernel group are skipped, as SECHOST skips them for PMC events
#pragma once

#include <cstdint>

#include "etwctl/classes/info_classes.hpp"
#include "etwctl/compat.hpp"
#include "etwctl/config.hpp"
#include "etwctl/kernel/concept.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace compat::current {

/// TraceSetInformation of a current Windows release: classes 0-15 as compat::trace_set_information,
/// classes 16 and 18-28 by their rows.
template <kernel K>
std::uint32_t trace_set_information(K& k, std::uint64_t session, info_class_arg information_class,
                                    void const* information, std::uint32_t length) noexcept {
    return detail::raw_set(k, session, information_class.value, information, length, windows_release::windows_10_later)
        .win32();
}

/// TraceQueryInformation of a current Windows release. return_length may be NULL.
template <kernel K>
std::uint32_t trace_query_information(K& k, std::uint64_t session, info_class_arg information_class, void* information,
                                      std::uint32_t length, std::uint32_t* return_length) noexcept {
    return detail::raw_query(k, session, information_class.value, information, length, return_length,
                             windows_release::windows_10_later)
        .win32();
}

/// The same, for a ReturnLength declared as the SDK's ULONG (unsigned long on Windows), without a cast.
template <kernel K, sdk_ulong U>
std::uint32_t trace_query_information(K& k, std::uint64_t session, info_class_arg information_class, void* information,
                                      std::uint32_t length, U* return_length) noexcept {
    return detail::through_u32(return_length, [&](std::uint32_t* r) {
        return current::trace_query_information(k, session, information_class, information, length, r);
    });
}

} // namespace compat::current
ETWCTL_END_NAMESPACE
