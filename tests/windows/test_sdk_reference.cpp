// The Windows SDK (here: mingw-w64's headers) as the reference: etwctl's layout-compatible types,
// information-class values and status codes must equal the SDK's, and SDK types from user code pass
// to etwctl without casts.
#define WIN32_NO_STATUS // ntstatus.h supplies every STATUS_ value below
#include <windows.h>
#undef WIN32_NO_STATUS
#include <ntstatus.h>
#include <winerror.h>
#include <evntrace.h>
#include <evntprov.h>

#include <array>
#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "etwctl_test.hpp"
#include "sdk_layout.hpp"
#include "etwctl/compat_structs.hpp"

namespace {

// ---- layouts ---------------------------------------------------------------------------------------

ETWCTL_SAME_LAYOUT(GUID, etwctl::guid);
ETWCTL_SAME_OFFSET(GUID, Data1, etwctl::guid, data1);
ETWCTL_SAME_OFFSET(GUID, Data2, etwctl::guid, data2);
ETWCTL_SAME_OFFSET(GUID, Data3, etwctl::guid, data3);
ETWCTL_SAME_OFFSET(GUID, Data4, etwctl::guid, data4);

ETWCTL_SAME_LAYOUT(CLASSIC_EVENT_ID, etwctl::classic_event_id);
ETWCTL_SAME_OFFSET(CLASSIC_EVENT_ID, EventGuid, etwctl::classic_event_id, event_guid);
ETWCTL_SAME_OFFSET(CLASSIC_EVENT_ID, Type, etwctl::classic_event_id, type);
ETWCTL_SAME_OFFSET(CLASSIC_EVENT_ID, Reserved, etwctl::classic_event_id, reserved);
static_assert(sizeof(CLASSIC_EVENT_ID) == 24 && offsetof(CLASSIC_EVENT_ID, Type) == 16);

ETWCTL_SAME_LAYOUT(TRACE_PROFILE_INTERVAL, etwctl::trace_profile_interval);
ETWCTL_SAME_OFFSET(TRACE_PROFILE_INTERVAL, Source, etwctl::trace_profile_interval, source);
ETWCTL_SAME_OFFSET(TRACE_PROFILE_INTERVAL, Interval, etwctl::trace_profile_interval, interval);

ETWCTL_SAME_LAYOUT(TRACE_VERSION_INFO, etwctl::trace_version_info);
ETWCTL_SAME_OFFSET(TRACE_VERSION_INFO, EtwTraceProcessingVersion, etwctl::trace_version_info, etw_trace_processing_version);
ETWCTL_SAME_OFFSET(TRACE_VERSION_INFO, Reserved, etwctl::trace_version_info, reserved);

// PROFILE_SOURCE_INFO = the fixed header, then WCHAR Description[] at 0x18 (size 32 with the 1-element array).
static_assert(offsetof(PROFILE_SOURCE_INFO, Description) == sizeof(etwctl::profile_source_info_header));
static_assert(offsetof(PROFILE_SOURCE_INFO, Description) == etwctl::profile_source_info_description_offset);
static_assert(offsetof(PROFILE_SOURCE_INFO, Description) == 0x18 && sizeof(PROFILE_SOURCE_INFO) == 32);
static_assert(alignof(PROFILE_SOURCE_INFO) == alignof(etwctl::profile_source_info_header));
ETWCTL_SAME_OFFSET(PROFILE_SOURCE_INFO, NextEntryOffset, etwctl::profile_source_info_header, next_entry_offset);
ETWCTL_SAME_OFFSET(PROFILE_SOURCE_INFO, Source, etwctl::profile_source_info_header, source);
ETWCTL_SAME_OFFSET(PROFILE_SOURCE_INFO, MinInterval, etwctl::profile_source_info_header, min_interval);
ETWCTL_SAME_OFFSET(PROFILE_SOURCE_INFO, MaxInterval, etwctl::profile_source_info_header, max_interval);
ETWCTL_SAME_OFFSET(PROFILE_SOURCE_INFO, Reserved, etwctl::profile_source_info_header, reserved);

// The SDK-named structs of classes 16-28 (compat_structs.hpp): where mingw-w64's evntrace.h has them, the same
// layout; the ULONGs are the SDK's own type (unsigned long), so SDK values assign without conversions.
ETWCTL_SAME_LAYOUT(TRACE_PERIODIC_CAPTURE_STATE_INFO, etwctl::compat::TRACE_PERIODIC_CAPTURE_STATE_INFO);
ETWCTL_SAME_OFFSET(TRACE_PERIODIC_CAPTURE_STATE_INFO, CaptureStateFrequencyInSeconds,
                   etwctl::compat::TRACE_PERIODIC_CAPTURE_STATE_INFO, CaptureStateFrequencyInSeconds);
ETWCTL_SAME_OFFSET(TRACE_PERIODIC_CAPTURE_STATE_INFO, ProviderCount, etwctl::compat::TRACE_PERIODIC_CAPTURE_STATE_INFO,
                   ProviderCount);
ETWCTL_SAME_OFFSET(TRACE_PERIODIC_CAPTURE_STATE_INFO, Reserved, etwctl::compat::TRACE_PERIODIC_CAPTURE_STATE_INFO, Reserved);
static_assert(std::is_same_v<etwctl::compat::sdk::ulong_t, ULONG>);
static_assert(std::is_same_v<decltype(etwctl::compat::TRACE_STACK_CACHING_INFO::CacheSize), ULONG>);
static_assert(std::is_same_v<decltype(etwctl::compat::TRACE_STACK_CACHING_INFO::Enabled), BOOLEAN>);
static_assert(etwctl::compat::TraceMaxLoggersQuery == static_cast<etwctl::trace_info_class>(TraceMaxLoggersQuery));
static_assert(etwctl::compat::TracePeriodicCaptureStateListInfo ==
              static_cast<etwctl::trace_info_class>(TracePeriodicCaptureStateListInfo));

// Handles: TRACEHANDLE and REGHANDLE are 64-bit on every target, as etwctl's handle values.
static_assert(sizeof(TRACEHANDLE) == sizeof(etwctl::session_handle::value));
static_assert(sizeof(REGHANDLE) == sizeof(etwctl::registration_handle::value));

// ---- information-class values ----------------------------------------------------------------------
template <class SdkEnum>
constexpr bool same_value(SdkEnum sdk, etwctl::trace_info_class ours) {
    return static_cast<std::uint32_t>(sdk) == static_cast<std::uint32_t>(ours);
}
using tic = etwctl::trace_info_class;
static_assert(same_value(TraceGuidQueryList, tic::guid_query_list));
static_assert(same_value(TraceGuidQueryInfo, tic::guid_query_info));
static_assert(same_value(TraceGuidQueryProcess, tic::guid_query_process));
static_assert(same_value(TraceStackTracingInfo, tic::stack_tracing));
static_assert(same_value(TraceSystemTraceEnableFlagsInfo, tic::system_trace_enable_flags));
static_assert(same_value(TraceSampledProfileIntervalInfo, tic::sampled_profile_interval));
static_assert(same_value(TraceProfileSourceConfigInfo, tic::profile_source_config));
static_assert(same_value(TraceProfileSourceListInfo, tic::profile_source_list));
static_assert(same_value(TracePmcEventListInfo, tic::pmc_event_list));
static_assert(same_value(TracePmcCounterListInfo, tic::pmc_counter_list));
static_assert(same_value(TraceSetDisallowList, tic::set_disallow_list));
static_assert(same_value(TraceVersionInfo, tic::version));
static_assert(same_value(TraceGroupQueryList, tic::group_query_list));
static_assert(same_value(TraceGroupQueryInfo, tic::group_query_info));
static_assert(same_value(TraceDisallowListQuery, tic::disallow_list_query));
// Class 15: mingw-w64's evntrace.h calls it TraceCompressionInfo, the current Windows SDK
// TraceInfoReserved15; no name is in every SDK, so the value is checked against the neighbours'.
static_assert(static_cast<unsigned>(tic::reserved15) == 15U);
static_assert(static_cast<unsigned>(TraceDisallowListQuery) + 1U == static_cast<unsigned>(tic::reserved15));
static_assert(static_cast<unsigned>(TracePeriodicCaptureStateListInfo) - 1U == static_cast<unsigned>(tic::reserved15));
static_assert(same_value(TracePeriodicCaptureStateListInfo, tic::periodic_capture_state_list));
static_assert(same_value(TracePeriodicCaptureStateInfo, tic::periodic_capture_state));
static_assert(same_value(TraceProviderBinaryTracking, tic::provider_binary_tracking));
static_assert(same_value(TraceMaxLoggersQuery, tic::max_loggers_query));
// mingw-w64 10 ends the enum here (MaxTraceSetInfoClass = 20); classes 20-28 of the current SDK are
// etwctl's own (checked against the SDK's documented numbering in tests/core and docs).
static_assert(static_cast<std::uint32_t>(MaxTraceSetInfoClass) == 20 ||
              static_cast<std::uint32_t>(MaxTraceSetInfoClass) == static_cast<std::uint32_t>(tic::context_register) + 1);
// The typed API's tags carry the SDK's values.
static_assert(same_value(TraceStackTracingInfo, etwctl::stack_tracing::info_class));
static_assert(same_value(TraceSystemTraceEnableFlagsInfo, etwctl::system_trace_enable_flags::info_class));
static_assert(same_value(TraceSampledProfileIntervalInfo, etwctl::sampled_profile_interval::info_class));
static_assert(same_value(TraceProfileSourceConfigInfo, etwctl::profile_source_config::info_class));
static_assert(same_value(TraceProfileSourceListInfo, etwctl::profile_source_list::info_class));
static_assert(same_value(TracePmcEventListInfo, etwctl::pmc_event_list::info_class));
static_assert(same_value(TracePmcCounterListInfo, etwctl::pmc_counter_list::info_class));
static_assert(same_value(TraceSetDisallowList, etwctl::disallow_list::info_class));
static_assert(same_value(TraceDisallowListQuery, etwctl::disallow_list_query::info_class));
static_assert(same_value(TraceVersionInfo, etwctl::version::info_class));
// EVENT_INFO_CLASS: mingw has only EventProviderBinaryTrackInfo (0); 2 and 3 are missing there.
static_assert(static_cast<std::uint32_t>(EventProviderBinaryTrackInfo) ==
              static_cast<std::uint32_t>(etwctl::event_info_class::provider_binary_track_info));
static_assert(static_cast<std::uint32_t>(EventProviderBinaryTrackInfo) ==
              static_cast<std::uint32_t>(etwctl::provider_binary_tracking::info_class));
// The enums are int-sized in the ABI, as native_kernel passes them.
static_assert(sizeof(TRACE_INFO_CLASS) == 4 && sizeof(EVENT_INFO_CLASS) == 4);

// ---- status codes ----------------------------------------------------------------------------------
#define ETWCTL_SAME_WIN32(sdk, ours) static_assert(static_cast<std::uint32_t>(sdk) == etwctl::win32::ours, #sdk)
ETWCTL_SAME_WIN32(ERROR_SUCCESS, success);
ETWCTL_SAME_WIN32(ERROR_INVALID_FUNCTION, invalid_function);
ETWCTL_SAME_WIN32(ERROR_FILE_NOT_FOUND, file_not_found);
ETWCTL_SAME_WIN32(ERROR_ALREADY_EXISTS, already_exists);
#if defined(ERROR_IMPLEMENTATION_LIMIT)
ETWCTL_SAME_WIN32(ERROR_IMPLEMENTATION_LIMIT, implementation_limit);
#else // mingw-w64's winerror.h lacks it; the current SDK's winerror.h: ERROR_IMPLEMENTATION_LIMIT 1292L
static_assert(etwctl::win32::implementation_limit == 1292);
#endif
ETWCTL_SAME_WIN32(ERROR_ACCESS_DENIED, access_denied);
ETWCTL_SAME_WIN32(ERROR_INVALID_HANDLE, invalid_handle);
ETWCTL_SAME_WIN32(ERROR_NOT_ENOUGH_MEMORY, not_enough_memory);
ETWCTL_SAME_WIN32(ERROR_INVALID_DATA, invalid_data);
ETWCTL_SAME_WIN32(ERROR_OUTOFMEMORY, outofmemory);
ETWCTL_SAME_WIN32(ERROR_BAD_LENGTH, bad_length);
ETWCTL_SAME_WIN32(ERROR_GEN_FAILURE, gen_failure);
ETWCTL_SAME_WIN32(ERROR_NOT_SUPPORTED, not_supported);
ETWCTL_SAME_WIN32(ERROR_INVALID_PARAMETER, invalid_parameter);
ETWCTL_SAME_WIN32(ERROR_CALL_NOT_IMPLEMENTED, call_not_implemented);
ETWCTL_SAME_WIN32(ERROR_INSUFFICIENT_BUFFER, insufficient_buffer);
ETWCTL_SAME_WIN32(ERROR_PROC_NOT_FOUND, proc_not_found);
ETWCTL_SAME_WIN32(ERROR_MORE_DATA, more_data);
ETWCTL_SAME_WIN32(ERROR_MR_MID_NOT_FOUND, mr_mid_not_found);
ETWCTL_SAME_WIN32(ERROR_NOACCESS, noaccess);
ETWCTL_SAME_WIN32(ERROR_PRIVILEGE_NOT_HELD, privilege_not_held);
ETWCTL_SAME_WIN32(ERROR_REVISION_MISMATCH, revision_mismatch);
ETWCTL_SAME_WIN32(ERROR_FILE_CORRUPT, file_corrupt);
ETWCTL_SAME_WIN32(ERROR_NO_SYSTEM_RESOURCES, no_system_resources);
ETWCTL_SAME_WIN32(ERROR_INCORRECT_SIZE, incorrect_size);
ETWCTL_SAME_WIN32(ERROR_WMI_GUID_NOT_FOUND, wmi_guid_not_found);
ETWCTL_SAME_WIN32(ERROR_WMI_INSTANCE_NOT_FOUND, wmi_instance_not_found);
ETWCTL_SAME_WIN32(ERROR_WMI_ALREADY_ENABLED, wmi_already_enabled);

#define ETWCTL_SAME_NTSTATUS(sdk, ours) static_assert(static_cast<std::int32_t>(sdk) == etwctl::ntstatus::ours, #sdk)
ETWCTL_SAME_NTSTATUS(STATUS_SUCCESS, success);
ETWCTL_SAME_NTSTATUS(STATUS_MORE_ENTRIES, more_entries);
ETWCTL_SAME_NTSTATUS(STATUS_DATATYPE_MISALIGNMENT, datatype_misalignment);
ETWCTL_SAME_NTSTATUS(STATUS_BUFFER_OVERFLOW, buffer_overflow);
ETWCTL_SAME_NTSTATUS(STATUS_UNSUCCESSFUL, unsuccessful);
ETWCTL_SAME_NTSTATUS(STATUS_NOT_IMPLEMENTED, not_implemented);
ETWCTL_SAME_NTSTATUS(STATUS_INVALID_INFO_CLASS, invalid_info_class);
ETWCTL_SAME_NTSTATUS(STATUS_INFO_LENGTH_MISMATCH, info_length_mismatch);
ETWCTL_SAME_NTSTATUS(STATUS_ACCESS_VIOLATION, access_violation);
ETWCTL_SAME_NTSTATUS(STATUS_INVALID_HANDLE, invalid_handle);
ETWCTL_SAME_NTSTATUS(STATUS_INVALID_PARAMETER, invalid_parameter);
ETWCTL_SAME_NTSTATUS(STATUS_INVALID_DEVICE_REQUEST, invalid_device_request);
ETWCTL_SAME_NTSTATUS(STATUS_NO_MEMORY, no_memory);
ETWCTL_SAME_NTSTATUS(STATUS_ACCESS_DENIED, access_denied);
ETWCTL_SAME_NTSTATUS(STATUS_BUFFER_TOO_SMALL, buffer_too_small);
ETWCTL_SAME_NTSTATUS(STATUS_OBJECT_NAME_NOT_FOUND, object_name_not_found);
ETWCTL_SAME_NTSTATUS(STATUS_OBJECT_NAME_COLLISION, object_name_collision);
ETWCTL_SAME_NTSTATUS(STATUS_REVISION_MISMATCH, revision_mismatch);
ETWCTL_SAME_NTSTATUS(STATUS_PRIVILEGE_NOT_HELD, privilege_not_held);
ETWCTL_SAME_NTSTATUS(STATUS_PROCEDURE_NOT_FOUND, procedure_not_found);
ETWCTL_SAME_NTSTATUS(STATUS_INSUFFICIENT_RESOURCES, insufficient_resources);
ETWCTL_SAME_NTSTATUS(STATUS_NOT_SUPPORTED, not_supported);
ETWCTL_SAME_NTSTATUS(STATUS_FILE_CORRUPT_ERROR, file_corrupt_error);
ETWCTL_SAME_NTSTATUS(STATUS_ENTRYPOINT_NOT_FOUND, entrypoint_not_found);
ETWCTL_SAME_NTSTATUS(STATUS_WMI_GUID_NOT_FOUND, wmi_guid_not_found);
ETWCTL_SAME_NTSTATUS(STATUS_WMI_INSTANCE_NOT_FOUND, wmi_instance_not_found);
ETWCTL_SAME_NTSTATUS(STATUS_WMI_ALREADY_ENABLED, wmi_already_enabled);

static_assert(etwctl::hresult::from_win32(ERROR_INVALID_PARAMETER) == HRESULT_FROM_WIN32(ERROR_INVALID_PARAMETER));
static_assert(etwctl::hresult::from_win32(ERROR_NOT_SUPPORTED) == HRESULT_FROM_WIN32(ERROR_NOT_SUPPORTED));
static_assert(etwctl::hresult::s_ok == S_OK);

// SystemTraceControlGuid, parsed by etwctl from its text form.
constexpr etwctl::guid system_trace_control = etwctl::guid::from_string("9e814aad-3204-441b-811d-c8ad0d8fee7a");

} // namespace

// ---- interop: SDK types from user code, no casts ----------------------------------------------------

TEST_CASE("an SDK GUID converts to etwctl::guid without a cast, field for field") {
    GUID const g = {0x9e814aadU, 0x3204, 0x441b, {0x81, 0x1d, 0xc8, 0xad, 0x0d, 0x8f, 0xee, 0x7a}};
    etwctl::guid const ours = g;
    CHECK(ours == system_trace_control);
    CHECK(std::memcmp(&ours, &g, sizeof g) == 0);
}

TEST_CASE("CLASSIC_EVENT_ID[], TRACEHANDLE and GUID[] go straight into the typed API") {
    etwctl::sim::kernel k;
    TRACEHANDLE const session = k.start_logger(0x21);
    // Thread group (EventTraceGuid of the Thread class), CSwitch type 36; Process group, type 1.
    GUID const thread_guid = {0x3d6fa8d1U, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}};
    GUID const process_guid = {0x3d6fa8d0U, 0xfe05, 0x11d0, {0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}};
    CLASSIC_EVENT_ID events[2] = {};
    events[0].EventGuid = thread_guid;
    events[0].Type = 36;
    events[1].EventGuid = process_guid;
    events[1].Type = 1;

    REQUIRE_FALSE(etwctl::set<etwctl::stack_tracing>(k, session, events));
    auto const hooks = k.stack_tracing_hooks(static_cast<std::uint16_t>(session & 0xFFFF));
    REQUIRE(hooks.size() == 2);
    CHECK(hooks[0] == 0x0524U);
    CHECK(hooks[1] == 0x0301U);

    // The same list through the compat layer, as TraceSetInformation takes it.
    CHECK(etwctl::compat::trace_set_information(k, session, TraceStackTracingInfo, events, sizeof events) == ERROR_SUCCESS);
    // std::array, std::vector and std::span of CLASSIC_EVENT_ID work too.
    std::array<CLASSIC_EVENT_ID, 1> const one = {events[0]};
    REQUIRE_FALSE(etwctl::set<etwctl::pmc_event_list>(k, session, one));
    CHECK(k.pmc_events(static_cast<std::uint16_t>(session & 0xFFFF)).size() == 1);
    std::vector<CLASSIC_EVENT_ID> const many(events, events + 2);
    CHECK_FALSE(etwctl::set<etwctl::stack_tracing>(k, session, std::span<CLASSIC_EVENT_ID const>(many)));

    // GUID[] for the disallow list.
    GUID const disallowed[1] = {thread_guid};
    REQUIRE_FALSE(etwctl::set<etwctl::disallow_list>(k, session, disallowed));
    auto const list = k.disallow_list(static_cast<std::uint16_t>(session & 0xFFFF));
    REQUIRE(list.size() == 1);
    CHECK(list[0] == etwctl::guid(thread_guid));

    // TRACE_PROFILE_INTERVAL and TRACE_VERSION_INFO buffers through the compat layer.
    TRACE_PROFILE_INTERVAL tpi = {0, 10000};
    CHECK(etwctl::compat::trace_set_information(k, 0, TraceSampledProfileIntervalInfo, &tpi, sizeof tpi) == ERROR_SUCCESS);
    tpi.Interval = 0;
    ULONG returned = 0; // the SDK's ULONG (unsigned long on Windows), as TraceQueryInformation takes it
    CHECK(etwctl::compat::trace_query_information(k, 0, TraceSampledProfileIntervalInfo, &tpi, sizeof tpi, &returned) ==
          ERROR_SUCCESS);
    CHECK(returned == sizeof(TRACE_PROFILE_INTERVAL));
    CHECK(tpi.Interval == 10000);
    TRACE_VERSION_INFO vi = {};
    CHECK(etwctl::compat::trace_query_information(k, 0, TraceVersionInfo, &vi, sizeof vi, nullptr) == ERROR_SUCCESS);
    CHECK(vi.EtwTraceProcessingVersion == etwctl::etw_trace_processing_version);
}

TEST_CASE("every drop-in function takes the SDK's own types without casts") {
    etwctl::sim::kernel k;
    TRACEHANDLE const session = k.start_logger(0x21);
    TRACE_INFO_CLASS const max_loggers = TraceMaxLoggersQuery;
    ULONG value = 0;
    ULONG const length = sizeof value;
    ULONG returned = 0;

    // compat::current::trace_query_information with the SDK's PULONG ReturnLength (and NULL).
    CHECK(etwctl::compat::current::trace_query_information(k, 0, max_loggers, &value, length, &returned) ==
          ERROR_SUCCESS);
    CHECK(returned == sizeof(ULONG));
    CHECK(value == etwctl::limits::max_loggers);
    returned = 77;
    CHECK(etwctl::compat::current::trace_query_information(k, 0, max_loggers, &value, 1, &returned) ==
          ERROR_BAD_LENGTH);
    CHECK(returned == sizeof(ULONG)); // SECHOST writes the size before the buffer check
    CHECK(etwctl::compat::current::trace_query_information(k, 0, max_loggers, &value, length, nullptr) ==
          ERROR_SUCCESS);

    // compat::current::trace_set_information with TRACEHANDLE, TRACE_INFO_CLASS and a ULONG length.
    BOOLEAN const on = TRUE;
    ULONG const one = sizeof on;
    CHECK(etwctl::compat::current::trace_set_information(k, session, TraceProviderBinaryTracking, &on, one) ==
          ERROR_SUCCESS);

    // etwctl's own trace_info_class passes where the SDK's enum does, in both faces.
    CHECK(etwctl::compat::current::trace_query_information(k, 0, etwctl::trace_info_class::max_loggers_query, &value,
                                                           length, &returned) == ERROR_SUCCESS);
    TRACE_VERSION_INFO vi = {};
    CHECK(etwctl::compat::trace_query_information(k, 0, etwctl::trace_info_class::version, &vi, sizeof vi, &returned) ==
          ERROR_SUCCESS);
    CHECK(returned == sizeof(TRACE_VERSION_INFO));
    TRACE_PROFILE_INTERVAL tpi = {0, 10000};
    CHECK(etwctl::compat::trace_set_information(k, 0, etwctl::trace_info_class::sampled_profile_interval, &tpi,
                                                sizeof tpi) == ERROR_SUCCESS);

    // The SDK-named structs of the classes mingw-w64 lacks, with the SDK's ULONG, and set<lbr_event_list> with a
    // ULONG[] of hook ids.
    etwctl::compat::TRACE_STACK_CACHING_INFO cache = {TRUE, 0, 0}; // the kernel's default
    CHECK(etwctl::compat::current::trace_set_information(k, session, etwctl::compat::TraceStackCachingInfo, &cache,
                                                         sizeof cache) == ERROR_SUCCESS);
    ULONG const lbr_hooks[2] = {0x0524, 0x0532};
    CHECK_FALSE(etwctl::set<etwctl::lbr_event_list>(k, session, lbr_hooks));

    // TraceLoggingSetInformation's EVENT_INFO_CLASS and REGHANDLE as the SDK spells them.
    EVENT_INFO_CLASS const binary_track = EventProviderBinaryTrackInfo; // mingw-w64 stops at 0
    REGHANDLE const reg = 0x1234;
    CHECK(etwctl::compat::tracelogging_set_information(k, reg, binary_track, nullptr, 0) ==
          etwctl::compat::tracelogging_set_information(k, reg, 0U, nullptr, 0));
    // The functions without a kernel argument (the native kernel) take the same types: compiled, not run.
    [[maybe_unused]] auto const native = [] {
        ULONG r = 0;
        TRACE_VERSION_INFO v = {};
        return etwctl::compat::trace_query_information(TRACEHANDLE{0}, TraceVersionInfo, &v, ULONG{sizeof v}, &r) +
               etwctl::compat::trace_query_information(TRACEHANDLE{0}, etwctl::trace_info_class::version, &v, sizeof v,
                                                       nullptr);
    };

    // EtwGetTraceEnableFlags' error as a DWORD / ULONG.
    DWORD error = 12345;
    CHECK(etwctl::compat::get_trace_enable_flags(TRACEHANDLE{0}, &error) == 0U);
    CHECK(error == ERROR_INVALID_HANDLE);
    ULONG no_error = 12345;
    (void)etwctl::compat::get_trace_enable_flags(TRACEHANDLE{0x0000000100000000ULL | 0x0021U}, &no_error);
    CHECK(no_error == ERROR_SUCCESS);
}
