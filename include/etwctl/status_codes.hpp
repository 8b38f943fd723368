// etwctl/status_codes.hpp - the numeric codes of the three error domains etwctl speaks:
// Win32 errors (what TraceSetInformation & co. return), NTSTATUS (what the kernel returns) and
// HRESULT (what TraceLoggingSetInformation returns), plus the one NTSTATUS -> Win32 mapping table.
//
// Values are those of winerror.h / ntstatus.h (kernel-facts.md section 8). They are spelled here so that
// no Windows header is needed; the Windows build static_asserts them against the SDK.
#pragma once

#include <cstdint>

#include "etwctl/config.hpp"

ETWCTL_BEGIN_NAMESPACE

/// Win32 error codes (ULONG results of TraceSetInformation, TraceQueryInformation, EventSetInformation).
namespace win32 {
inline constexpr std::uint32_t success = 0;
inline constexpr std::uint32_t invalid_function = 1;
inline constexpr std::uint32_t file_not_found = 2;
inline constexpr std::uint32_t access_denied = 5;
inline constexpr std::uint32_t invalid_handle = 6;
inline constexpr std::uint32_t not_enough_memory = 8;
inline constexpr std::uint32_t invalid_data = 13;
inline constexpr std::uint32_t outofmemory = 14;
inline constexpr std::uint32_t bad_length = 24;
inline constexpr std::uint32_t gen_failure = 31;
inline constexpr std::uint32_t not_supported = 50;
inline constexpr std::uint32_t invalid_parameter = 87;
inline constexpr std::uint32_t call_not_implemented = 120;
inline constexpr std::uint32_t insufficient_buffer = 122;
inline constexpr std::uint32_t proc_not_found = 127;
inline constexpr std::uint32_t more_data = 234;
inline constexpr std::uint32_t mr_mid_not_found = 317; ///< RtlNtStatusToDosError's answer for unmapped codes
inline constexpr std::uint32_t noaccess = 998;
inline constexpr std::uint32_t privilege_not_held = 1314;
inline constexpr std::uint32_t file_corrupt = 1392;
inline constexpr std::uint32_t no_system_resources = 1450;
inline constexpr std::uint32_t incorrect_size = 1462;
inline constexpr std::uint32_t wmi_guid_not_found = 4200;
inline constexpr std::uint32_t wmi_instance_not_found = 4201;
inline constexpr std::uint32_t wmi_already_enabled = 4206;
} // namespace win32

/// NTSTATUS values (kernel results). Stored as the signed 32-bit NTSTATUS the ABI uses.
namespace ntstatus {
namespace detail {
constexpr std::int32_t s(std::uint32_t v) noexcept { return static_cast<std::int32_t>(v); }
} // namespace detail
inline constexpr std::int32_t success = 0;
inline constexpr std::int32_t more_entries = detail::s(0x00000105U);
inline constexpr std::int32_t datatype_misalignment = detail::s(0x80000002U);
inline constexpr std::int32_t buffer_overflow = detail::s(0x80000005U);
inline constexpr std::int32_t unsuccessful = detail::s(0xC0000001U);
inline constexpr std::int32_t not_implemented = detail::s(0xC0000002U);
inline constexpr std::int32_t invalid_info_class = detail::s(0xC0000003U);
inline constexpr std::int32_t info_length_mismatch = detail::s(0xC0000004U);
inline constexpr std::int32_t access_violation = detail::s(0xC0000005U);
inline constexpr std::int32_t invalid_handle = detail::s(0xC0000008U);
inline constexpr std::int32_t invalid_parameter = detail::s(0xC000000DU);
inline constexpr std::int32_t invalid_device_request = detail::s(0xC0000010U);
inline constexpr std::int32_t no_memory = detail::s(0xC0000017U);
inline constexpr std::int32_t access_denied = detail::s(0xC0000022U);
inline constexpr std::int32_t buffer_too_small = detail::s(0xC0000023U);
inline constexpr std::int32_t object_name_not_found = detail::s(0xC0000034U);
inline constexpr std::int32_t privilege_not_held = detail::s(0xC0000061U);
inline constexpr std::int32_t procedure_not_found = detail::s(0xC000007AU);
inline constexpr std::int32_t insufficient_resources = detail::s(0xC000009AU);
inline constexpr std::int32_t not_supported = detail::s(0xC00000BBU);
inline constexpr std::int32_t file_corrupt_error = detail::s(0xC0000102U);
inline constexpr std::int32_t entrypoint_not_found = detail::s(0xC0000139U);
inline constexpr std::int32_t wmi_guid_not_found = detail::s(0xC0000295U);
inline constexpr std::int32_t wmi_instance_not_found = detail::s(0xC0000296U);
inline constexpr std::int32_t wmi_already_enabled = detail::s(0xC0000303U);

/// NT_SUCCESS: success and informational codes (severity 0 and 1).
constexpr bool is_success(std::int32_t status) noexcept { return status >= 0; }
} // namespace ntstatus

/// HRESULT helpers (TraceLoggingSetInformation's result type).
namespace hresult {
inline constexpr std::int32_t s_ok = 0;
inline constexpr std::uint32_t facility_win32 = 7;

/// HRESULT_FROM_WIN32: 0 stays 0; anything else becomes 0x8007xxxx (low 16 bits of the code).
constexpr std::int32_t from_win32(std::uint32_t error) noexcept {
    return static_cast<std::int32_t>(error) <= 0
               ? static_cast<std::int32_t>(error)
               : static_cast<std::int32_t>((error & 0x0000FFFFU) | (facility_win32 << 16) | 0x80000000U);
}
constexpr bool is_success(std::int32_t hr) noexcept { return hr >= 0; }
/// The Win32 code inside a FACILITY_WIN32 failure, or 0 when the HRESULT is not one.
constexpr std::uint32_t win32_of(std::int32_t hr) noexcept {
    auto const u = static_cast<std::uint32_t>(hr);
    return (u & 0xFFFF0000U) == 0x80070000U ? (u & 0xFFFFU) : 0U;
}
} // namespace hresult

namespace detail {
struct nt_to_win32_entry {
    std::uint32_t status;
    std::uint32_t error;
};
/// The single NTSTATUS -> Win32 table (RtlNtStatusToDosError for every status the ETW paths produce;
/// kernel-facts.md section 8, cross-checked with Wine's table). Sorted by status for the search below.
inline constexpr nt_to_win32_entry nt_to_win32_table[] = {
    {0x00000105U, win32::more_data},              // STATUS_MORE_ENTRIES
    {0x80000002U, win32::noaccess},               // STATUS_DATATYPE_MISALIGNMENT
    {0x80000005U, win32::more_data},              // STATUS_BUFFER_OVERFLOW
    {0xC0000001U, win32::gen_failure},            // STATUS_UNSUCCESSFUL
    {0xC0000002U, win32::invalid_function},       // STATUS_NOT_IMPLEMENTED
    {0xC0000003U, win32::invalid_parameter},      // STATUS_INVALID_INFO_CLASS
    {0xC0000004U, win32::bad_length},             // STATUS_INFO_LENGTH_MISMATCH
    {0xC0000005U, win32::noaccess},               // STATUS_ACCESS_VIOLATION
    {0xC0000008U, win32::invalid_handle},         // STATUS_INVALID_HANDLE
    {0xC000000DU, win32::invalid_parameter},      // STATUS_INVALID_PARAMETER
    {0xC0000010U, win32::invalid_function},       // STATUS_INVALID_DEVICE_REQUEST
    {0xC0000017U, win32::not_enough_memory},      // STATUS_NO_MEMORY
    {0xC0000022U, win32::access_denied},          // STATUS_ACCESS_DENIED
    {0xC0000023U, win32::insufficient_buffer},    // STATUS_BUFFER_TOO_SMALL
    {0xC0000034U, win32::file_not_found},         // STATUS_OBJECT_NAME_NOT_FOUND
    {0xC0000061U, win32::privilege_not_held},     // STATUS_PRIVILEGE_NOT_HELD
    {0xC000007AU, win32::proc_not_found},         // STATUS_PROCEDURE_NOT_FOUND
    {0xC000009AU, win32::no_system_resources},    // STATUS_INSUFFICIENT_RESOURCES
    {0xC00000BBU, win32::not_supported},          // STATUS_NOT_SUPPORTED
    {0xC0000102U, win32::file_corrupt},           // STATUS_FILE_CORRUPT_ERROR
    {0xC0000139U, win32::proc_not_found},         // STATUS_ENTRYPOINT_NOT_FOUND
    {0xC0000295U, win32::wmi_guid_not_found},     // STATUS_WMI_GUID_NOT_FOUND
    {0xC0000296U, win32::wmi_instance_not_found}, // STATUS_WMI_INSTANCE_NOT_FOUND
    {0xC0000303U, win32::wmi_already_enabled},    // STATUS_WMI_ALREADY_ENABLED
};
} // namespace detail

/// RtlNtStatusToDosError for the codes above: success -> 0; 0xC001xxxx and 0x8007xxxx carry a Win32
/// code in their low word; 0xDxxxxxxx maps like 0xCxxxxxxx; anything unknown -> ERROR_MR_MID_NOT_FOUND.
constexpr std::uint32_t nt_status_to_win32(std::int32_t status) noexcept {
    auto u = static_cast<std::uint32_t>(status);
    if (u == 0) return win32::success;
    if ((u & 0xFFFF0000U) == 0xC0010000U || (u & 0xFFFF0000U) == 0x80070000U) return u & 0xFFFFU;
    if ((u & 0xF0000000U) == 0xD0000000U) u = (u & 0x0FFFFFFFU) | 0xC0000000U;
    std::uint32_t lo = 0;
    std::uint32_t hi = sizeof(detail::nt_to_win32_table) / sizeof(detail::nt_to_win32_table[0]);
    while (lo < hi) {
        std::uint32_t const mid = lo + (hi - lo) / 2;
        if (detail::nt_to_win32_table[mid].status < u) lo = mid + 1;
        else hi = mid;
    }
    if (lo < sizeof(detail::nt_to_win32_table) / sizeof(detail::nt_to_win32_table[0]) &&
        detail::nt_to_win32_table[lo].status == u)
        return detail::nt_to_win32_table[lo].error;
    return win32::mr_mid_not_found;
}

ETWCTL_END_NAMESPACE
