// The session layouts and constants against the SDK's (mingw-w64's headers): sizes, alignments and
// offsets of WNODE_HEADER, EVENT_TRACE_PROPERTIES(_V2), ENABLE_TRACE_PARAMETERS and
// EVENT_FILTER_DESCRIPTOR; every LogFileMode bit, WNODE flag, control code, enable code and enable
// property the SDK defines; the reserved names and GUIDs. INITGUID is this test's own choice (the GUIDs
// are compared with the SDK's definitions); the library never needs it.
#define INITGUID
#include <windows.h>
#include <evntrace.h>
#include <evntprov.h>
#include <evntcons.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/session/checks.hpp"
#include "etwctl/session/layouts.hpp"
#include "etwctl_test.hpp"
#include "sdk_layout.hpp"

namespace {


ETWCTL_SAME_LAYOUT(WNODE_HEADER, etwctl::wnode_header);
ETWCTL_SAME_OFFSET(WNODE_HEADER, BufferSize, etwctl::wnode_header, buffer_size);
ETWCTL_SAME_OFFSET(WNODE_HEADER, ProviderId, etwctl::wnode_header, provider_id);
ETWCTL_SAME_OFFSET(WNODE_HEADER, HistoricalContext, etwctl::wnode_header, historical_context);
ETWCTL_SAME_OFFSET(WNODE_HEADER, TimeStamp, etwctl::wnode_header, time_stamp);
ETWCTL_SAME_OFFSET(WNODE_HEADER, Guid, etwctl::wnode_header, guid);
ETWCTL_SAME_OFFSET(WNODE_HEADER, ClientContext, etwctl::wnode_header, client_context);
ETWCTL_SAME_OFFSET(WNODE_HEADER, Flags, etwctl::wnode_header, flags);

#define ETWCTL_PROPERTIES_FIELDS(sdk, ours)                                                             \
    ETWCTL_SAME_OFFSET(sdk, Wnode, ours, wnode);                                                        \
    ETWCTL_SAME_OFFSET(sdk, BufferSize, ours, buffer_size);                                             \
    ETWCTL_SAME_OFFSET(sdk, MinimumBuffers, ours, minimum_buffers);                                     \
    ETWCTL_SAME_OFFSET(sdk, MaximumBuffers, ours, maximum_buffers);                                     \
    ETWCTL_SAME_OFFSET(sdk, MaximumFileSize, ours, maximum_file_size);                                  \
    ETWCTL_SAME_OFFSET(sdk, LogFileMode, ours, log_file_mode);                                          \
    ETWCTL_SAME_OFFSET(sdk, FlushTimer, ours, flush_timer);                                             \
    ETWCTL_SAME_OFFSET(sdk, EnableFlags, ours, enable_flags);                                           \
    ETWCTL_SAME_OFFSET(sdk, AgeLimit, ours, flush_threshold);                                           \
    ETWCTL_SAME_OFFSET(sdk, NumberOfBuffers, ours, number_of_buffers);                                  \
    ETWCTL_SAME_OFFSET(sdk, FreeBuffers, ours, free_buffers);                                           \
    ETWCTL_SAME_OFFSET(sdk, EventsLost, ours, events_lost);                                             \
    ETWCTL_SAME_OFFSET(sdk, BuffersWritten, ours, buffers_written);                                     \
    ETWCTL_SAME_OFFSET(sdk, LogBuffersLost, ours, log_buffers_lost);                                    \
    ETWCTL_SAME_OFFSET(sdk, RealTimeBuffersLost, ours, real_time_buffers_lost);                         \
    ETWCTL_SAME_OFFSET(sdk, LoggerThreadId, ours, logger_thread_id);                                    \
    ETWCTL_SAME_OFFSET(sdk, LogFileNameOffset, ours, log_file_name_offset);                             \
    ETWCTL_SAME_OFFSET(sdk, LoggerNameOffset, ours, logger_name_offset)

ETWCTL_SAME_LAYOUT(EVENT_TRACE_PROPERTIES, etwctl::event_trace_properties);
ETWCTL_PROPERTIES_FIELDS(EVENT_TRACE_PROPERTIES, etwctl::event_trace_properties);
static_assert(sizeof(EVENT_TRACE_PROPERTIES) == 0x78);

ETWCTL_SAME_LAYOUT(EVENT_TRACE_PROPERTIES_V2, etwctl::event_trace_properties_v2);
ETWCTL_PROPERTIES_FIELDS(EVENT_TRACE_PROPERTIES_V2, etwctl::event_trace_properties_v2);
ETWCTL_SAME_OFFSET(EVENT_TRACE_PROPERTIES_V2, V2Control, etwctl::event_trace_properties_v2, v2_control);
ETWCTL_SAME_OFFSET(EVENT_TRACE_PROPERTIES_V2, FilterDescCount, etwctl::event_trace_properties_v2, filter_desc_count);
ETWCTL_SAME_OFFSET(EVENT_TRACE_PROPERTIES_V2, FilterDesc, etwctl::event_trace_properties_v2, filter_desc);
ETWCTL_SAME_OFFSET(EVENT_TRACE_PROPERTIES_V2, V2Options, etwctl::event_trace_properties_v2, v2_options);
static_assert(sizeof(EVENT_TRACE_PROPERTIES_V2) == (sizeof(void*) == 8 ? 0x90 : 0x88));

ETWCTL_SAME_LAYOUT(EVENT_FILTER_DESCRIPTOR, etwctl::event_filter_descriptor);
ETWCTL_SAME_OFFSET(EVENT_FILTER_DESCRIPTOR, Ptr, etwctl::event_filter_descriptor, ptr);
ETWCTL_SAME_OFFSET(EVENT_FILTER_DESCRIPTOR, Size, etwctl::event_filter_descriptor, size);
ETWCTL_SAME_OFFSET(EVENT_FILTER_DESCRIPTOR, Type, etwctl::event_filter_descriptor, type);

ETWCTL_SAME_LAYOUT(ENABLE_TRACE_PARAMETERS, etwctl::enable_trace_parameters);
ETWCTL_SAME_OFFSET(ENABLE_TRACE_PARAMETERS, Version, etwctl::enable_trace_parameters, version);
ETWCTL_SAME_OFFSET(ENABLE_TRACE_PARAMETERS, EnableProperty, etwctl::enable_trace_parameters, enable_property);
ETWCTL_SAME_OFFSET(ENABLE_TRACE_PARAMETERS, ControlFlags, etwctl::enable_trace_parameters, control_flags);
ETWCTL_SAME_OFFSET(ENABLE_TRACE_PARAMETERS, SourceId, etwctl::enable_trace_parameters, source_id);
ETWCTL_SAME_OFFSET(ENABLE_TRACE_PARAMETERS, EnableFilterDesc, etwctl::enable_trace_parameters, enable_filter_desc);
ETWCTL_SAME_OFFSET(ENABLE_TRACE_PARAMETERS, FilterDescCount, etwctl::enable_trace_parameters, filter_desc_count);
static_assert(ENABLE_TRACE_PARAMETERS_VERSION_2 == etwctl::enable_trace_parameters_version);
static_assert(ENABLE_TRACE_PARAMETERS_VERSION == etwctl::enable_trace_parameters_version_1);
// EVENT_FILTER_EVENT_ID and EVENT_FILTER_LEVEL_KW are missing from mingw-w64's evntprov.h: their
// layouts are pinned in session/layouts.hpp against the SDK's field lists.

// WCHAR and the 16-bit unit etwctl takes; TRACEHANDLE is 64 bits.
static_assert(std::is_same_v<WCHAR, etwctl::wide_char>);
static_assert(sizeof(TRACEHANDLE) == sizeof(std::uint64_t));

// ---- constants ----------------------------------------------------------------------------------------
namespace lfm = etwctl::log_file_mode;
static_assert(EVENT_TRACE_FILE_MODE_NONE == lfm::none);
static_assert(EVENT_TRACE_FILE_MODE_SEQUENTIAL == lfm::sequential);
static_assert(EVENT_TRACE_FILE_MODE_CIRCULAR == lfm::circular);
static_assert(EVENT_TRACE_FILE_MODE_APPEND == lfm::append);
static_assert(EVENT_TRACE_FILE_MODE_NEWFILE == lfm::newfile);
static_assert(EVENT_TRACE_FILE_MODE_PREALLOCATE == lfm::preallocate);
static_assert(EVENT_TRACE_NONSTOPPABLE_MODE == lfm::nonstoppable);
static_assert(EVENT_TRACE_SECURE_MODE == lfm::secure);
static_assert(EVENT_TRACE_REAL_TIME_MODE == lfm::real_time);
static_assert(EVENT_TRACE_DELAY_OPEN_FILE_MODE == lfm::delay_open_file);
static_assert(EVENT_TRACE_BUFFERING_MODE == lfm::buffering);
static_assert(EVENT_TRACE_PRIVATE_LOGGER_MODE == lfm::private_logger);
static_assert(EVENT_TRACE_ADD_HEADER_MODE == lfm::add_header);
static_assert(EVENT_TRACE_USE_KBYTES_FOR_SIZE == lfm::use_kbytes_for_size);
static_assert(EVENT_TRACE_USE_GLOBAL_SEQUENCE == lfm::use_global_sequence);
static_assert(EVENT_TRACE_USE_LOCAL_SEQUENCE == lfm::use_local_sequence);
static_assert(EVENT_TRACE_RELOG_MODE == lfm::relog);
static_assert(EVENT_TRACE_MODE_RESERVED == lfm::realtime_relog);
static_assert(EVENT_TRACE_USE_PAGED_MEMORY == lfm::use_paged_memory);
static_assert(EVENT_TRACE_SYSTEM_LOGGER_MODE == lfm::system_logger);
static_assert(EVENT_TRACE_COMPRESSED_MODE == lfm::compressed);
static_assert(EVENT_TRACE_INDEPENDENT_SESSION_MODE == lfm::independent_session);
static_assert(EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING == lfm::no_per_processor_buffering);
static_assert(EVENT_TRACE_ADDTO_TRIAGE_DUMP == lfm::addto_triage_dump);
static_assert(WNODE_FLAG_TRACED_GUID == etwctl::wnode_flag::traced_guid);
static_assert(WNODE_FLAG_LOG_WNODE == etwctl::wnode_flag::log_wnode);
static_assert(WNODE_FLAG_USE_GUID_PTR == etwctl::wnode_flag::use_guid_ptr);
static_assert(EVENT_TRACE_CONTROL_QUERY == static_cast<unsigned>(etwctl::control_code::query));
static_assert(EVENT_TRACE_CONTROL_STOP == static_cast<unsigned>(etwctl::control_code::stop));
static_assert(EVENT_TRACE_CONTROL_UPDATE == static_cast<unsigned>(etwctl::control_code::update));
static_assert(EVENT_TRACE_CONTROL_FLUSH == static_cast<unsigned>(etwctl::control_code::flush));
static_assert(EVENT_TRACE_CONTROL_INCREMENT_FILE == static_cast<unsigned>(etwctl::control_code::increment_file));
static_assert(EVENT_CONTROL_CODE_DISABLE_PROVIDER == static_cast<unsigned>(etwctl::enable_code::disable));
static_assert(EVENT_CONTROL_CODE_ENABLE_PROVIDER == static_cast<unsigned>(etwctl::enable_code::enable));
static_assert(EVENT_CONTROL_CODE_CAPTURE_STATE == static_cast<unsigned>(etwctl::enable_code::capture_state));
static_assert(EVENT_ENABLE_PROPERTY_SID == etwctl::enable_property::sid);
static_assert(EVENT_ENABLE_PROPERTY_TS_ID == etwctl::enable_property::ts_id);
static_assert(EVENT_ENABLE_PROPERTY_STACK_TRACE == etwctl::enable_property::stack_trace);
static_assert(EVENT_FILTER_TYPE_SCHEMATIZED == etwctl::filter_type::schematized);
static_assert(EVENT_FILTER_TYPE_SYSTEM_FLAGS == etwctl::filter_type::system_flags);
static_assert(EVENT_FILTER_TYPE_TRACEHANDLE == etwctl::filter_type::trace_handle);
static_assert(MAX_EVENT_FILTER_DATA_SIZE == etwctl::limits::max_event_filter_data_size);

constexpr bool same_text(wchar_t const* sdk, std::u16string_view ours) {
    std::size_t i = 0;
    for (; sdk[i] != 0; ++i)
        if (i >= ours.size() || static_cast<char16_t>(sdk[i]) != ours[i]) return false;
    return i == ours.size();
}
static_assert(same_text(KERNEL_LOGGER_NAMEW, etwctl::session_names::kernel_logger));
static_assert(same_text(GLOBAL_LOGGER_NAMEW, etwctl::session_names::global_logger));
static_assert(same_text(EVENT_LOGGER_NAMEW, etwctl::session_names::event_log));
static_assert(same_text(DIAG_LOGGER_NAMEW, etwctl::session_names::diag_log));

} // namespace

TEST_CASE("the reserved GUIDs equal the SDK's definitions") {
    CHECK(etwctl::guid(SystemTraceControlGuid) == etwctl::session_guids::system_trace_control);
    CHECK(etwctl::guid(EventTraceGuid) == etwctl::session_guids::event_trace);
    CHECK(etwctl::guid(DefaultTraceSecurityGuid) == etwctl::session_guids::default_trace_security);
}

TEST_CASE("the checks take the SDK's own names and structures without casts") {
    CHECK(etwctl::check_kernel_logger_guid(SystemTraceControlGuid, std::wstring_view(KERNEL_LOGGER_NAMEW)) == etwctl::rule::ok);
    CHECK(etwctl::check_kernel_logger_guid(SystemTraceControlGuid, std::wstring_view(L"wine")) ==
          etwctl::rule::session_kernel_logger_guid);
    EVENT_TRACE_PROPERTIES p = {};
    p.Wnode.BufferSize = sizeof p;
    p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    p.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL | EVENT_TRACE_FILE_MODE_CIRCULAR;
    CHECK(etwctl::check_properties_size(p.Wnode.BufferSize, p.Wnode.Flags) == etwctl::rule::ok);
    CHECK(etwctl::check_log_file_mode(p.LogFileMode, 10, true, false) == etwctl::rule::session_log_file_mode_conflict);
}
