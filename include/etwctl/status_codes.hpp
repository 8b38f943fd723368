// SPDX-License-Identifier: MIT
// etwctl/status_codes.hpp - THE status table: the numeric codes of the three error domains etwctl speaks
// (Win32 errors: what TraceSetInformation & co. return; NTSTATUS: what the kernel returns; HRESULT: what
// TraceLoggingSetInformation returns), their names, and the one NTSTATUS -> Win32 mapping.
//
// Each code is spelled once, in the lists below: its constant (win32::invalid_parameter), its value,
// its SDK name and, for an NTSTATUS, the Win32 code RtlNtStatusToDosError gives it. Values are those of
// winerror.h and ntstatus.h; the mapping is RtlNtStatusToDosError's (Microsoft's "Mapping NT status
// error codes to Win32 error codes", KB 113996, cross-checked with Wine's ntdll/error.c table). The
// Windows build static_asserts every value against the SDK. No Windows header is needed here.
#pragma once

#include <cstdint>

#include "etwctl/config.hpp"

// X(constant, value, "NAME")
#define ETWCTL_DETAIL_WIN32_CODES(X) \
    X(success, 0, "ERROR_SUCCESS") \
    X(invalid_function, 1, "ERROR_INVALID_FUNCTION") \
    X(file_not_found, 2, "ERROR_FILE_NOT_FOUND") \
    X(access_denied, 5, "ERROR_ACCESS_DENIED") \
    X(invalid_handle, 6, "ERROR_INVALID_HANDLE") \
    X(not_enough_memory, 8, "ERROR_NOT_ENOUGH_MEMORY") \
    X(invalid_data, 13, "ERROR_INVALID_DATA") \
    X(outofmemory, 14, "ERROR_OUTOFMEMORY") \
    X(bad_length, 24, "ERROR_BAD_LENGTH") \
    X(gen_failure, 31, "ERROR_GEN_FAILURE") \
    X(not_supported, 50, "ERROR_NOT_SUPPORTED") \
    X(invalid_parameter, 87, "ERROR_INVALID_PARAMETER") \
    X(disk_full, 112, "ERROR_DISK_FULL") \
    X(call_not_implemented, 120, "ERROR_CALL_NOT_IMPLEMENTED") \
    X(insufficient_buffer, 122, "ERROR_INSUFFICIENT_BUFFER") \
    X(invalid_name, 123, "ERROR_INVALID_NAME") \
    X(proc_not_found, 127, "ERROR_PROC_NOT_FOUND") \
    X(bad_pathname, 161, "ERROR_BAD_PATHNAME") \
    X(already_exists, 183, "ERROR_ALREADY_EXISTS") \
    X(more_data, 234, "ERROR_MORE_DATA") \
    X(mr_mid_not_found, 317, "ERROR_MR_MID_NOT_FOUND") \
    X(noaccess, 998, "ERROR_NOACCESS") \
    X(privilege_not_held, 1314, "ERROR_PRIVILEGE_NOT_HELD") \
    X(implementation_limit, 1292, "ERROR_IMPLEMENTATION_LIMIT") \
    X(not_all_assigned, 1300, "ERROR_NOT_ALL_ASSIGNED") \
    X(revision_mismatch, 1306, "ERROR_REVISION_MISMATCH") \
    X(file_corrupt, 1392, "ERROR_FILE_CORRUPT") \
    X(no_system_resources, 1450, "ERROR_NO_SYSTEM_RESOURCES") \
    X(timeout, 1460, "ERROR_TIMEOUT") \
    X(incorrect_size, 1462, "ERROR_INCORRECT_SIZE") \
    X(active_connections, 2402, "ERROR_ACTIVE_CONNECTIONS") \
    X(wmi_guid_not_found, 4200, "ERROR_WMI_GUID_NOT_FOUND") \
    X(wmi_instance_not_found, 4201, "ERROR_WMI_INSTANCE_NOT_FOUND") \
    X(wmi_already_enabled, 4206, "ERROR_WMI_ALREADY_ENABLED")

// X(constant, value, "NAME", Win32 code RtlNtStatusToDosError gives it). Sorted by value.
#define ETWCTL_DETAIL_NTSTATUS_CODES(X) \
    X(success, 0x00000000U, "STATUS_SUCCESS", win32::success) \
    X(more_entries, 0x00000105U, "STATUS_MORE_ENTRIES", win32::more_data) \
    X(datatype_misalignment, 0x80000002U, "STATUS_DATATYPE_MISALIGNMENT", win32::noaccess) \
    X(buffer_overflow, 0x80000005U, "STATUS_BUFFER_OVERFLOW", win32::more_data) \
    X(unsuccessful, 0xC0000001U, "STATUS_UNSUCCESSFUL", win32::gen_failure) \
    X(not_implemented, 0xC0000002U, "STATUS_NOT_IMPLEMENTED", win32::invalid_function) \
    X(invalid_info_class, 0xC0000003U, "STATUS_INVALID_INFO_CLASS", win32::invalid_parameter) \
    X(info_length_mismatch, 0xC0000004U, "STATUS_INFO_LENGTH_MISMATCH", win32::bad_length) \
    X(access_violation, 0xC0000005U, "STATUS_ACCESS_VIOLATION", win32::noaccess) \
    X(invalid_handle, 0xC0000008U, "STATUS_INVALID_HANDLE", win32::invalid_handle) \
    X(invalid_parameter, 0xC000000DU, "STATUS_INVALID_PARAMETER", win32::invalid_parameter) \
    X(invalid_device_request, 0xC0000010U, "STATUS_INVALID_DEVICE_REQUEST", win32::invalid_function) \
    X(no_memory, 0xC0000017U, "STATUS_NO_MEMORY", win32::not_enough_memory) \
    X(access_denied, 0xC0000022U, "STATUS_ACCESS_DENIED", win32::access_denied) \
    X(buffer_too_small, 0xC0000023U, "STATUS_BUFFER_TOO_SMALL", win32::insufficient_buffer) \
    X(object_name_not_found, 0xC0000034U, "STATUS_OBJECT_NAME_NOT_FOUND", win32::file_not_found) \
    X(object_name_collision, 0xC0000035U, "STATUS_OBJECT_NAME_COLLISION", win32::already_exists) \
    X(revision_mismatch, 0xC0000059U, "STATUS_REVISION_MISMATCH", win32::revision_mismatch) \
    X(privilege_not_held, 0xC0000061U, "STATUS_PRIVILEGE_NOT_HELD", win32::privilege_not_held) \
    X(procedure_not_found, 0xC000007AU, "STATUS_PROCEDURE_NOT_FOUND", win32::proc_not_found) \
    X(insufficient_resources, 0xC000009AU, "STATUS_INSUFFICIENT_RESOURCES", win32::no_system_resources) \
    X(not_supported, 0xC00000BBU, "STATUS_NOT_SUPPORTED", win32::not_supported) \
    X(file_corrupt_error, 0xC0000102U, "STATUS_FILE_CORRUPT_ERROR", win32::file_corrupt) \
    X(entrypoint_not_found, 0xC0000139U, "STATUS_ENTRYPOINT_NOT_FOUND", win32::proc_not_found) \
    X(wmi_guid_not_found, 0xC0000295U, "STATUS_WMI_GUID_NOT_FOUND", win32::wmi_guid_not_found) \
    X(wmi_instance_not_found, 0xC0000296U, "STATUS_WMI_INSTANCE_NOT_FOUND", win32::wmi_instance_not_found) \
    X(wmi_already_enabled, 0xC0000303U, "STATUS_WMI_ALREADY_ENABLED", win32::wmi_already_enabled)

ETWCTL_BEGIN_NAMESPACE

/// Win32 error codes (ULONG results of TraceSetInformation, TraceQueryInformation, EventSetInformation).
namespace win32 {
#define ETWCTL_DETAIL_X(constant, value, name) inline constexpr std::uint32_t constant = value;
ETWCTL_DETAIL_WIN32_CODES(ETWCTL_DETAIL_X)
#undef ETWCTL_DETAIL_X

/// The SDK name of a Win32 error ("ERROR_INVALID_PARAMETER"), or nullptr for a code not in the table.
constexpr char const* name(std::uint32_t error) noexcept {
    switch (error) {
#define ETWCTL_DETAIL_X(constant, value, text) case value: return text;
        ETWCTL_DETAIL_WIN32_CODES(ETWCTL_DETAIL_X)
#undef ETWCTL_DETAIL_X
    default: return nullptr;
    }
}
} // namespace win32

/// NTSTATUS values (kernel results). Stored as the signed 32-bit NTSTATUS the ABI uses.
namespace ntstatus {
#define ETWCTL_DETAIL_X(constant, value, name, error) inline constexpr std::int32_t constant = static_cast<std::int32_t>(value);
ETWCTL_DETAIL_NTSTATUS_CODES(ETWCTL_DETAIL_X)
#undef ETWCTL_DETAIL_X

/// NT_SUCCESS: success and informational codes (severity 0 and 1).
constexpr bool is_success(std::int32_t status) noexcept { return status >= 0; }

/// The SDK name of an NTSTATUS ("STATUS_INVALID_PARAMETER"), or nullptr for a code not in the table.
constexpr char const* name(std::int32_t status) noexcept {
    switch (static_cast<std::uint32_t>(status)) {
#define ETWCTL_DETAIL_X(constant, value, text, error) case value: return text;
        ETWCTL_DETAIL_NTSTATUS_CODES(ETWCTL_DETAIL_X)
#undef ETWCTL_DETAIL_X
    default: return nullptr;
    }
}
/// One row of the table: an NTSTATUS, its name and the Win32 code RtlNtStatusToDosError gives it.
struct info {
    std::uint32_t status;
    char const* name;
    std::uint32_t win32;
};
/// Every NTSTATUS etwctl knows, sorted by value (STATUS_SUCCESS first).
inline constexpr info table[] = {
#define ETWCTL_DETAIL_X(constant, value, text, error) {value, text, error},
    ETWCTL_DETAIL_NTSTATUS_CODES(ETWCTL_DETAIL_X)
#undef ETWCTL_DETAIL_X
};
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

/// RtlNtStatusToDosError for the codes above: success -> 0; 0xC001xxxx and 0x8007xxxx carry a Win32
/// code in their low word; 0xDxxxxxxx maps like 0xCxxxxxxx; anything unknown -> ERROR_MR_MID_NOT_FOUND.
constexpr std::uint32_t nt_status_to_win32(std::int32_t status) noexcept {
    auto u = static_cast<std::uint32_t>(status);
    if (u == 0) return win32::success;
    if ((u & 0xFFFF0000U) == 0xC0010000U || (u & 0xFFFF0000U) == 0x80070000U) return u & 0xFFFFU;
    if ((u & 0xF0000000U) == 0xD0000000U) u = (u & 0x0FFFFFFFU) | 0xC0000000U;
    switch (u) {
#define ETWCTL_DETAIL_X(constant, value, text, error) case value: return error;
        ETWCTL_DETAIL_NTSTATUS_CODES(ETWCTL_DETAIL_X)
#undef ETWCTL_DETAIL_X
    default: return win32::mr_mid_not_found;
    }
}

ETWCTL_END_NAMESPACE

#undef ETWCTL_DETAIL_WIN32_CODES
#undef ETWCTL_DETAIL_NTSTATUS_CODES
