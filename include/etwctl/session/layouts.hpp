// SPDX-License-Identifier: MIT
// etwctl/session/layouts.hpp - the byte layouts and constants of ETW's session API, layout-compatible
// with the SDK's: WNODE_HEADER, EVENT_TRACE_PROPERTIES (0x78 bytes), EVENT_TRACE_PROPERTIES_V2 (0x90 on
// x64, 0x88 on x86), ENABLE_TRACE_PARAMETERS, EVENT_FILTER_DESCRIPTOR and the filter heads; the
// LogFileMode bits, WNODE flags, clock types, control codes, enable properties, filter types, the
// reserved session names and GUIDs, and the documented limits.
//
// Sources: the SDK's evntrace.h, evntprov.h, evntcons.h and wmistr.h (field lists, values, names);
// https://learn.microsoft.com/en-us/windows/win32/api/evntrace/ns-evntrace-event_trace_properties and
// ns-evntrace-event_trace_properties_v2 (offsets, names after the structure); WNODE_HEADER:
// https://learn.microsoft.com/en-us/windows/win32/etw/wnode-header; the internal LogFileMode bits and
// clock values: phnt's ntwmi.h. tests/windows static_asserts every size and offset below against the
// SDK's own structures.
//
// Names on the wire are 16-bit units on every platform: `wide_char` (kernel/session_concept.hpp) is
// wchar_t where that is 16 bits (Windows) and char16_t elsewhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

/// WNODE_HEADER (wmistr.h), the first 0x30 bytes of every properties block. Same offsets on x86 and x64.
struct wnode_header {
    std::uint32_t buffer_size = 0;        ///< the whole block: properties + names (Wnode.BufferSize)
    std::uint32_t provider_id = 0;        ///< reserved
    alignas(8) std::uint64_t historical_context = 0; ///< out: the session's TRACEHANDLE (low 16 bits: logger id)
    std::int64_t time_stamp = 0;          ///< union CountLost / KernelHandle / TimeStamp
    ::etwctl::guid guid{};                ///< the session's GUID (0: ETW makes one)
    std::uint32_t client_context = 0;     ///< the clock type (clock_type)
    std::uint32_t flags = 0;              ///< WNODE_FLAG_* (wnode_flag): TRACED_GUID is required
};

/// EVENT_TRACE_PROPERTIES (evntrace.h): 0x78 bytes on x86 and x64 (x86: LoggerThreadId is 4 bytes, then 4
/// bytes of tail padding). The names follow the structure inside the caller's block (Wnode.BufferSize).
struct event_trace_properties {
    wnode_header wnode{};
    std::uint32_t buffer_size = 0;       ///< KB per buffer
    std::uint32_t minimum_buffers = 0;
    std::uint32_t maximum_buffers = 0;
    std::uint32_t maximum_file_size = 0; ///< MB (KB with EVENT_TRACE_USE_KBYTES_FOR_SIZE)
    std::uint32_t log_file_mode = 0;     ///< log_file_mode bits
    std::uint32_t flush_timer = 0;       ///< seconds
    std::uint32_t enable_flags = 0;      ///< system loggers only
    std::int32_t flush_threshold = 0;    ///< union AgeLimit (unused since Vista) / FlushThreshold (8.1+)
    std::uint32_t number_of_buffers = 0; ///< out
    std::uint32_t free_buffers = 0;      ///< out
    std::uint32_t events_lost = 0;       ///< out
    std::uint32_t buffers_written = 0;   ///< out
    std::uint32_t log_buffers_lost = 0;  ///< out
    std::uint32_t real_time_buffers_lost = 0; ///< out
    std::uintptr_t logger_thread_id = 0; ///< out; a HANDLE: pointer-sized
    std::uint32_t log_file_name_offset = 0;
    std::uint32_t logger_name_offset = 0;
};

struct event_filter_descriptor;

/// EVENT_TRACE_PROPERTIES_V2 (evntrace.h, Windows 10 1703+): EVENT_TRACE_PROPERTIES' fields, then the V2
/// fields; on x86 they begin in V1's tail padding (0x74), so V1 is not a base class here.
/// Honoured only with wnode_flag::versioned_properties in Wnode.Flags.
struct event_trace_properties_v2 {
    wnode_header wnode{};
    std::uint32_t buffer_size = 0;
    std::uint32_t minimum_buffers = 0;
    std::uint32_t maximum_buffers = 0;
    std::uint32_t maximum_file_size = 0;
    std::uint32_t log_file_mode = 0;
    std::uint32_t flush_timer = 0;
    std::uint32_t enable_flags = 0;
    std::int32_t flush_threshold = 0;
    std::uint32_t number_of_buffers = 0;
    std::uint32_t free_buffers = 0;
    std::uint32_t events_lost = 0;
    std::uint32_t buffers_written = 0;
    std::uint32_t log_buffers_lost = 0;
    std::uint32_t real_time_buffers_lost = 0;
    std::uintptr_t logger_thread_id = 0;
    std::uint32_t log_file_name_offset = 0;
    std::uint32_t logger_name_offset = 0;
    std::uint32_t v2_control = 0;        ///< union: VersionNumber is the low 8 bits (set 2)
    std::uint32_t filter_desc_count = 0; ///< system-wide private loggers only
    event_filter_descriptor* filter_desc = nullptr;
    alignas(8) std::uint64_t v2_options = 0; ///< union: Wow:1 (out), QpcDeltaTracking:1, ...
};

/// EVENT_FILTER_DESCRIPTOR (evntprov.h): 16 bytes on x86 and x64.
struct event_filter_descriptor {
    alignas(8) std::uint64_t ptr = 0; ///< the filter data's address
    std::uint32_t size = 0; ///< bytes
    std::uint32_t type = 0; ///< filter_type
};

/// ENABLE_TRACE_PARAMETERS (evntrace.h), version 2: 0x30 bytes on x64, 0x24 on x86.
struct enable_trace_parameters {
    std::uint32_t version = 0;          ///< enable_trace_parameters_version (2)
    std::uint32_t enable_property = 0;  ///< enable_property bits
    std::uint32_t control_flags = 0;    ///< reserved, 0
    ::etwctl::guid source_id{};
    event_filter_descriptor* enable_filter_desc = nullptr;
    std::uint32_t filter_desc_count = 0;
};

/// The head of EVENT_FILTER_EVENT_ID (evntprov.h): { BOOLEAN FilterIn; UCHAR Reserved; USHORT Count;
/// USHORT Events[Count]; } - the event ids follow at offset 4.
struct event_filter_event_id_header {
    std::uint8_t filter_in = 0;
    std::uint8_t reserved = 0;
    std::uint16_t count = 0;
};

/// EVENT_FILTER_LEVEL_KW (evntprov.h): the stack-walk level/keyword filter, 24 bytes (align 8).
struct event_filter_level_kw {
    alignas(8) std::uint64_t match_any_keyword = 0;
    std::uint64_t match_all_keyword = 0;
    std::uint8_t level = 0;
    std::uint8_t filter_in = 0;
};

inline constexpr std::uint32_t enable_trace_parameters_version_1 = 1; ///< ENABLE_TRACE_PARAMETERS_VERSION
inline constexpr std::uint32_t enable_trace_parameters_version = 2;   ///< ENABLE_TRACE_PARAMETERS_VERSION_2
/// EVENT_TRACE_PROPERTIES_V2's VersionNumber (the low 8 bits of V2Control).
inline constexpr std::uint32_t event_trace_properties_version_2 = 2;

/// EVENT_TRACE_PROPERTIES.LogFileMode bits (evntrace.h; the internal ones from phnt ntwmi.h).
namespace log_file_mode {
inline constexpr std::uint32_t none = 0x00000000;                ///< EVENT_TRACE_FILE_MODE_NONE
inline constexpr std::uint32_t sequential = 0x00000001;          ///< EVENT_TRACE_FILE_MODE_SEQUENTIAL
inline constexpr std::uint32_t circular = 0x00000002;            ///< EVENT_TRACE_FILE_MODE_CIRCULAR
inline constexpr std::uint32_t append = 0x00000004;              ///< EVENT_TRACE_FILE_MODE_APPEND
inline constexpr std::uint32_t newfile = 0x00000008;             ///< EVENT_TRACE_FILE_MODE_NEWFILE
inline constexpr std::uint32_t use_ms_flush_timer = 0x00000010;  ///< phnt: FlushTimer in milliseconds
inline constexpr std::uint32_t preallocate = 0x00000020;         ///< EVENT_TRACE_FILE_MODE_PREALLOCATE
inline constexpr std::uint32_t nonstoppable = 0x00000040;        ///< EVENT_TRACE_NONSTOPPABLE_MODE (AutoLoggers)
inline constexpr std::uint32_t secure = 0x00000080;              ///< EVENT_TRACE_SECURE_MODE
inline constexpr std::uint32_t real_time = 0x00000100;           ///< EVENT_TRACE_REAL_TIME_MODE
inline constexpr std::uint32_t delay_open_file = 0x00000200;     ///< EVENT_TRACE_DELAY_OPEN_FILE_MODE
inline constexpr std::uint32_t buffering = 0x00000400;           ///< EVENT_TRACE_BUFFERING_MODE
inline constexpr std::uint32_t private_logger = 0x00000800;      ///< EVENT_TRACE_PRIVATE_LOGGER_MODE
inline constexpr std::uint32_t add_header = 0x00001000;          ///< EVENT_TRACE_ADD_HEADER_MODE
inline constexpr std::uint32_t use_kbytes_for_size = 0x00002000; ///< EVENT_TRACE_USE_KBYTES_FOR_SIZE
inline constexpr std::uint32_t use_global_sequence = 0x00004000; ///< EVENT_TRACE_USE_GLOBAL_SEQUENCE
inline constexpr std::uint32_t use_local_sequence = 0x00008000;  ///< EVENT_TRACE_USE_LOCAL_SEQUENCE
inline constexpr std::uint32_t relog = 0x00010000;               ///< EVENT_TRACE_RELOG_MODE
inline constexpr std::uint32_t private_in_proc = 0x00020000;     ///< EVENT_TRACE_PRIVATE_IN_PROC
inline constexpr std::uint32_t buffer_interface = 0x00040000;    ///< phnt: EVENT_TRACE_BUFFER_INTERFACE_MODE
inline constexpr std::uint32_t kd_filter = 0x00080000;           ///< phnt: EVENT_TRACE_KD_FILTER_MODE
inline constexpr std::uint32_t realtime_relog = 0x00100000;      ///< EVENT_TRACE_MODE_RESERVED
inline constexpr std::uint32_t lost_events_debug = 0x00200000;   ///< phnt: EVENT_TRACE_LOST_EVENTS_DEBUG_MODE
inline constexpr std::uint32_t stop_on_hybrid_shutdown = 0x00400000;
inline constexpr std::uint32_t persist_on_hybrid_shutdown = 0x00800000;
inline constexpr std::uint32_t use_paged_memory = 0x01000000;    ///< EVENT_TRACE_USE_PAGED_MEMORY
inline constexpr std::uint32_t system_logger = 0x02000000;       ///< EVENT_TRACE_SYSTEM_LOGGER_MODE (8+)
inline constexpr std::uint32_t compressed = 0x04000000;          ///< EVENT_TRACE_COMPRESSED_MODE (1607+)
inline constexpr std::uint32_t independent_session = 0x08000000; ///< EVENT_TRACE_INDEPENDENT_SESSION_MODE (8.1+)
inline constexpr std::uint32_t no_per_processor_buffering = 0x10000000; ///< EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING
inline constexpr std::uint32_t blocking = 0x20000000;            ///< phnt: EVENT_TRACE_BLOCKING_MODE
inline constexpr std::uint32_t addto_triage_dump = 0x80000000;   ///< EVENT_TRACE_ADDTO_TRIAGE_DUMP
} // namespace log_file_mode

/// The SDK name of one LogFileMode bit ("EVENT_TRACE_FILE_MODE_CIRCULAR"), or "" for a bit without one.
constexpr std::string_view log_file_mode_name(std::uint32_t bit) noexcept {
    switch (bit) {
    case log_file_mode::sequential: return "EVENT_TRACE_FILE_MODE_SEQUENTIAL";
    case log_file_mode::circular: return "EVENT_TRACE_FILE_MODE_CIRCULAR";
    case log_file_mode::append: return "EVENT_TRACE_FILE_MODE_APPEND";
    case log_file_mode::newfile: return "EVENT_TRACE_FILE_MODE_NEWFILE";
    case log_file_mode::use_ms_flush_timer: return "EVENT_TRACE_USE_MS_FLUSH_TIMER";
    case log_file_mode::preallocate: return "EVENT_TRACE_FILE_MODE_PREALLOCATE";
    case log_file_mode::nonstoppable: return "EVENT_TRACE_NONSTOPPABLE_MODE";
    case log_file_mode::secure: return "EVENT_TRACE_SECURE_MODE";
    case log_file_mode::real_time: return "EVENT_TRACE_REAL_TIME_MODE";
    case log_file_mode::delay_open_file: return "EVENT_TRACE_DELAY_OPEN_FILE_MODE";
    case log_file_mode::buffering: return "EVENT_TRACE_BUFFERING_MODE";
    case log_file_mode::private_logger: return "EVENT_TRACE_PRIVATE_LOGGER_MODE";
    case log_file_mode::add_header: return "EVENT_TRACE_ADD_HEADER_MODE";
    case log_file_mode::use_kbytes_for_size: return "EVENT_TRACE_USE_KBYTES_FOR_SIZE";
    case log_file_mode::use_global_sequence: return "EVENT_TRACE_USE_GLOBAL_SEQUENCE";
    case log_file_mode::use_local_sequence: return "EVENT_TRACE_USE_LOCAL_SEQUENCE";
    case log_file_mode::relog: return "EVENT_TRACE_RELOG_MODE";
    case log_file_mode::private_in_proc: return "EVENT_TRACE_PRIVATE_IN_PROC";
    case log_file_mode::buffer_interface: return "EVENT_TRACE_BUFFER_INTERFACE_MODE";
    case log_file_mode::kd_filter: return "EVENT_TRACE_KD_FILTER_MODE";
    case log_file_mode::realtime_relog: return "EVENT_TRACE_MODE_RESERVED";
    case log_file_mode::lost_events_debug: return "EVENT_TRACE_LOST_EVENTS_DEBUG_MODE";
    case log_file_mode::stop_on_hybrid_shutdown: return "EVENT_TRACE_STOP_ON_HYBRID_SHUTDOWN";
    case log_file_mode::persist_on_hybrid_shutdown: return "EVENT_TRACE_PERSIST_ON_HYBRID_SHUTDOWN";
    case log_file_mode::use_paged_memory: return "EVENT_TRACE_USE_PAGED_MEMORY";
    case log_file_mode::system_logger: return "EVENT_TRACE_SYSTEM_LOGGER_MODE";
    case log_file_mode::compressed: return "EVENT_TRACE_COMPRESSED_MODE";
    case log_file_mode::independent_session: return "EVENT_TRACE_INDEPENDENT_SESSION_MODE";
    case log_file_mode::no_per_processor_buffering: return "EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING";
    case log_file_mode::blocking: return "EVENT_TRACE_BLOCKING_MODE";
    case log_file_mode::addto_triage_dump: return "EVENT_TRACE_ADDTO_TRIAGE_DUMP";
    default: return "";
    }
}

/// WNODE_HEADER.Flags bits (wmistr.h) a properties block uses.
namespace wnode_flag {
inline constexpr std::uint32_t traced_guid = 0x00020000;          ///< WNODE_FLAG_TRACED_GUID: required
inline constexpr std::uint32_t log_wnode = 0x00040000;
inline constexpr std::uint32_t use_guid_ptr = 0x00080000;
inline constexpr std::uint32_t use_mof_ptr = 0x00100000;
inline constexpr std::uint32_t no_header = 0x00200000;
inline constexpr std::uint32_t send_data_block = 0x00400000;
inline constexpr std::uint32_t versioned_properties = 0x00800000; ///< WNODE_FLAG_VERSIONED_PROPERTIES: the block is _V2
inline constexpr std::uint32_t severity_mask = 0xFF000000;
} // namespace wnode_flag

/// WNODE_HEADER.ClientContext of a session: its clock (phnt EVENT_TRACE_CLOCK_*; the WNODE_HEADER page).
enum class clock_type : std::uint32_t { raw = 0, qpc = 1, system_time = 2, cpu_cycle = 3 };

/// ControlTrace's ControlCode (evntrace.h EVENT_TRACE_CONTROL_*).
enum class control_code : std::uint32_t {
    query = 0,
    stop = 1,
    update = 2,
    flush = 3,
    increment_file = 4,      ///< Windows 10 1809+, NEWFILE sessions only
    convert_to_realtime = 5, ///< Windows 10 20H2+
};

/// EnableTraceEx2's ControlCode (evntrace.h EVENT_CONTROL_CODE_*).
enum class enable_code : std::uint32_t { disable = 0, enable = 1, capture_state = 2 };

/// ENABLE_TRACE_PARAMETERS.EnableProperty bits (evntcons.h EVENT_ENABLE_PROPERTY_*).
namespace enable_property {
inline constexpr std::uint32_t sid = 0x001;
inline constexpr std::uint32_t ts_id = 0x002;
inline constexpr std::uint32_t stack_trace = 0x004;
inline constexpr std::uint32_t psm_key = 0x008;
inline constexpr std::uint32_t ignore_keyword_0 = 0x010;
inline constexpr std::uint32_t provider_group = 0x020;
inline constexpr std::uint32_t enable_keyword_0 = 0x040;
inline constexpr std::uint32_t process_start_key = 0x080;
inline constexpr std::uint32_t event_key = 0x100;
inline constexpr std::uint32_t exclude_inprivate = 0x200;
inline constexpr std::uint32_t enable_silos = 0x400;
inline constexpr std::uint32_t source_container_tracking = 0x800;
} // namespace enable_property

/// EVENT_FILTER_DESCRIPTOR.Type values (evntprov.h EVENT_FILTER_TYPE_*).
namespace filter_type {
inline constexpr std::uint32_t none = 0x00000000;
inline constexpr std::uint32_t schematized = 0x80000000;
inline constexpr std::uint32_t system_flags = 0x80000001;
inline constexpr std::uint32_t trace_handle = 0x80000002;
inline constexpr std::uint32_t pid = 0x80000004;
inline constexpr std::uint32_t executable_name = 0x80000008;
inline constexpr std::uint32_t package_id = 0x80000010;
inline constexpr std::uint32_t package_app_id = 0x80000020;
inline constexpr std::uint32_t payload = 0x80000100;
inline constexpr std::uint32_t event_id = 0x80000200;
inline constexpr std::uint32_t event_name = 0x80000400;
inline constexpr std::uint32_t stackwalk = 0x80001000;
inline constexpr std::uint32_t stackwalk_name = 0x80002000;
inline constexpr std::uint32_t stackwalk_level_kw = 0x80004000;
inline constexpr std::uint32_t container = 0x80008000;
} // namespace filter_type

/// The reserved session names (evntrace.h KERNEL_LOGGER_NAMEW & co.; phnt for the CKCL), as 16-bit units.
namespace session_names {
inline constexpr std::u16string_view kernel_logger = u"NT Kernel Logger";
inline constexpr std::u16string_view circular_kernel_context_logger = u"Circular Kernel Context Logger";
inline constexpr std::u16string_view global_logger = u"GlobalLogger";
inline constexpr std::u16string_view event_log = u"EventLog";
inline constexpr std::u16string_view diag_log = u"DiagLog";
} // namespace session_names

/// The GUIDs of the reserved sessions (evntrace.h; phnt ntwmi.h for CKCLGuid and GlobalLoggerGuid).
namespace session_guids {
inline constexpr guid system_trace_control = guid::from_string("9e814aad-3204-11d2-9a82-006008a86939");
inline constexpr guid circular_kernel_context_logger = guid::from_string("54dea73a-ed1f-42a4-af71-3e63d056f174");
inline constexpr guid global_logger = guid::from_string("e8908abc-aa84-11d2-9a93-00805f85d7c6");
inline constexpr guid event_trace = guid::from_string("68fdd900-4a3e-11d1-84f4-0000f80464e3");
inline constexpr guid default_trace_security = guid::from_string("0811c1af-7a07-4a06-82ed-869455cdf713");
} // namespace session_guids

/// The documented limits of sessions (StartTraceW, EVENT_TRACE_PROPERTIES, EnableTraceEx2 pages; evntprov.h).
namespace limits {
inline constexpr std::size_t max_session_name_length = 1024;  ///< characters, without the NUL
inline constexpr std::size_t max_log_file_name_length = 1024; ///< characters, without the NUL
inline constexpr std::size_t max_system_loggers = 8;
inline constexpr std::size_t max_sessions_per_provider = 8;   ///< manifest / TraceLogging providers
inline constexpr std::uint32_t min_buffer_size_kb = 4;
inline constexpr std::uint32_t max_buffer_size_kb = 16384;    ///< 1024 before Windows 8
/// FlushTimer is a ULONG of seconds (evntrace.h): a longer interval does not fit and is refused.
inline constexpr std::uint32_t max_flush_timer_seconds = 0xFFFFFFFFU;
/// etwctl's file_size holds KB in 32 bits (the unit EVENT_TRACE_USE_KBYTES_FOR_SIZE uses): the most whole
/// MB it holds, 4,194,303 MB (4 TB less 1 MB); a larger size is refused, never saturated.
inline constexpr std::uint32_t max_file_size_megabytes = 0xFFFFFFFFU / 1024U;
inline constexpr std::size_t max_event_filters = 13;          ///< MAX_EVENT_FILTERS_COUNT
inline constexpr std::size_t max_event_filter_data_size = 1024;  ///< MAX_EVENT_FILTER_DATA_SIZE
inline constexpr std::size_t max_event_filter_pids = 8;          ///< MAX_EVENT_FILTER_PID_COUNT
inline constexpr std::size_t max_event_filter_event_ids = 64;    ///< MAX_EVENT_FILTER_EVENT_ID_COUNT
inline constexpr std::size_t max_event_filter_payload_size = 4096;   ///< MAX_EVENT_FILTER_PAYLOAD_SIZE
inline constexpr std::size_t max_event_filter_event_name_size = 4096; ///< MAX_EVENT_FILTER_EVENT_NAME_SIZE
/// The block Microsoft documents for querying a session whose names you do not know: the structure
/// plus room for two names of 1024 characters (ControlTraceW, QueryAllTracesW pages).
inline constexpr std::size_t control_block_names_bytes = 2 * (max_session_name_length + max_log_file_name_length);
} // namespace limits

// The layouts, proved here for the ABI being compiled (and against the SDK in tests/windows).
static_assert(sizeof(wnode_header) == 0x30 && alignof(wnode_header) == 8);
static_assert(offsetof(wnode_header, historical_context) == 0x08 && offsetof(wnode_header, guid) == 0x18);
static_assert(offsetof(wnode_header, client_context) == 0x28 && offsetof(wnode_header, flags) == 0x2C);
static_assert(sizeof(event_trace_properties) == 0x78);
static_assert(offsetof(event_trace_properties, buffer_size) == 0x30 && offsetof(event_trace_properties, log_file_mode) == 0x40);
static_assert(offsetof(event_trace_properties, logger_thread_id) == 0x68);
static_assert(offsetof(event_trace_properties, log_file_name_offset) == (sizeof(void*) == 8 ? 0x70 : 0x6C));
static_assert(offsetof(event_trace_properties, logger_name_offset) == (sizeof(void*) == 8 ? 0x74 : 0x70));
static_assert(offsetof(event_trace_properties_v2, logger_name_offset) == offsetof(event_trace_properties, logger_name_offset));
static_assert(offsetof(event_trace_properties_v2, v2_control) == (sizeof(void*) == 8 ? 0x78 : 0x74));
static_assert(sizeof(event_trace_properties_v2) == (sizeof(void*) == 8 ? 0x90 : 0x88));
static_assert(sizeof(event_filter_descriptor) == 16);
static_assert(sizeof(enable_trace_parameters) == (sizeof(void*) == 8 ? 0x30 : 0x24));
static_assert(sizeof(event_filter_event_id_header) == 4 && sizeof(event_filter_level_kw) == 24);

ETWCTL_END_NAMESPACE
