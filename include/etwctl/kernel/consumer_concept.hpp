// SPDX-License-Identifier: MIT
// etwctl/kernel/consumer_concept.hpp - the kernel layer for consuming traces: OpenTraceW, ProcessTrace and
// CloseTrace at Windows' documented level, as a concept of its own beside the session one
// (kernel/session_concept.hpp), so a kernel double written for the session calls keeps compiling; and the
// consumer's structures in the SDK's layout (EVENT_TRACE_LOGFILEW, EVENT_TRACE, EVENT_TRACE_HEADER,
// TRACE_LOGFILE_HEADER, EVENT_RECORD, EVENT_HEADER, EVENT_DESCRIPTOR, ETW_BUFFER_CONTEXT,
// EVENT_HEADER_EXTENDED_DATA_ITEM), with the PROCESS_TRACE_MODE_* values and the documented results.
//
// Sources: the SDK's evntrace.h / evntcons.h / evntprov.h field lists and Microsoft Learn's pages
// "OpenTraceW", "ProcessTrace", "CloseTrace", "EVENT_TRACE_LOGFILEW", "EVENT_RECORD", "EVENT_HEADER",
// "ETW_BUFFER_CONTEXT", "EVENT_HEADER_EXTENDED_DATA_ITEM", "TRACE_LOGFILE_HEADER"; the Win32 codes from
// winerror.h. The structures below are declared field for field in the SDK's order and types (pointers
// as pointers), so the compiler lays them out as the SDK's declarations are laid out on the same target
// (x64: EVENT_TRACE_LOGFILEW 0x1C0, EVENT_RECORD 0x70; x86: 0x1A0, 0x68); tests/windows pins every offset
// against mingw-w64's own headers.
//
// Implementations: etwctl::native_kernel (Windows: advapi32's exports, resolved lazily), etwctl::sim::kernel
// (a simulated session's buffers delivered to the consumer), or a user's own double.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

/// A kernel for consumers: the three documented calls.
///  - open_trace_w(logfile, handle_out): OpenTraceW(PEVENT_TRACE_LOGFILEW). Returns the Win32 code: 0 and
///    the PROCESSTRACE_HANDLE in *handle_out, or the error (native: GetLastError after
///    INVALID_PROCESSTRACE_HANDLE) and *handle_out = invalid_processtrace_handle.
///  - process_trace(handles, count, start, end): ProcessTrace(PTRACEHANDLE, ULONG, LPFILETIME, LPFILETIME);
///    start / end are FILETIMEs (100 ns since 1601, UTC) or null. Blocks until the events are delivered,
///    the session stops or close_trace is called; returns the Win32 code.
///  - close_trace(handle): CloseTrace(PROCESSTRACE_HANDLE); ERROR_CTX_CLOSE_PENDING (7007) is success.
template <class K>
concept consumer_kernel = requires(K& k, void* logfile, std::uint64_t* ph, std::uint64_t const* handles, std::uint64_t h,
                                   std::uint32_t count, std::uint64_t const* ft) {
    { k.open_trace_w(logfile, ph) } -> std::same_as<std::uint32_t>;
    { k.process_trace(handles, count, ft, ft) } -> std::same_as<std::uint32_t>;
    { k.close_trace(h) } -> std::same_as<std::uint32_t>;
};

/// Optional extension: the session's raw buffers instead of EVENT_RECORDs (as Windows 11's
/// PETW_BUFFER_CALLBACK hands a consumer the buffer itself, header and records in the format of a file:
/// Microsoft Learn, "PETW_BUFFER_CALLBACK", "OpenTraceFromRealTimeLogger"). process_trace_buffers(handle,
/// on_buffer, context) runs like ProcessTrace on the caller's thread and calls on_buffer(context, bytes)
/// with each buffer, the header buffer first; on_buffer returns false to stop (ERROR_CANCELLED, 1223).
/// The simulated kernel offers it (its recorder's buffers); etwctl's consume() reads them with the trace
/// reader, the same code that reads a file.
using buffer_callback = bool (*)(void* context, std::span<std::byte const> buffer) noexcept;
template <class K>
concept buffer_consumer_kernel = consumer_kernel<K> && requires(K& k, std::uint64_t h, buffer_callback f, void* ctx) {
    { k.process_trace_buffers(h, f, ctx) } -> std::same_as<std::uint32_t>;
};

struct event_record_layout;
/// A consumer's handler of each EVENT_RECORD: its state is EVENT_RECORD.UserContext (what
/// EVENT_TRACE_LOGFILEW.Context pointed at: ProcessTrace passes it on; Microsoft Learn, "EVENT_TRACE_LOGFILEW").
using event_record_handler = void (*)(event_record_layout const& record) noexcept;

namespace detail {
/// The handler event_record_consumer_kernel checks event_record_callback<F>() with.
inline void event_record_probe(event_record_layout const&) noexcept {}
} // namespace detail

/// Optional extension: event_record_callback<F>() returns the EventRecordCallback (as
/// EVENT_TRACE_LOGFILEW holds it) that makes ProcessTrace call F with each EVENT_RECORD: one function per
/// handler, so the OS calls the consumer's code through one pointer, as it calls a hand-written callback
/// (native_kernel: a WINAPI function, detail/windows_syscalls.hpp; a double: event_record_entry<F>).
/// etwctl's consume() opens a trace with it and turns the records into typed events.
template <class K>
concept event_record_consumer_kernel = consumer_kernel<K> && requires(K& k) {
    { k.template event_record_callback<&detail::event_record_probe>() } -> std::same_as<void*>;
};

/// The consumer calls, named (for records, availability and messages).
enum class consumer_function : std::uint8_t {
    open_trace_w,
    process_trace,
    close_trace,
};
inline constexpr std::size_t consumer_function_count = 3;

/// The export each call is ("OpenTraceW", ...). NUL-terminated.
constexpr std::string_view consumer_function_name(consumer_function f) noexcept {
    switch (f) {
    case consumer_function::open_trace_w: return "OpenTraceW";
    case consumer_function::process_trace: return "ProcessTrace";
    case consumer_function::close_trace: return "CloseTrace";
    }
    return "";
}

/// INVALID_PROCESSTRACE_HANDLE: (TRACEHANDLE)INVALID_HANDLE_VALUE, i.e. UINTPTR_MAX widened to 64 bits:
/// 0xFFFFFFFFFFFFFFFF in a 64-bit process, 0x00000000FFFFFFFF in a 32-bit one (Microsoft Learn, "OpenTraceW").
inline constexpr std::uint64_t invalid_processtrace_handle = std::uint64_t{~std::uintptr_t{0}};

/// The results the consumer calls document beside ERROR_SUCCESS (winerror.h values): ProcessTrace's
/// ERROR_CANCELLED when a buffer callback returned FALSE, CloseTrace's ERROR_CTX_CLOSE_PENDING (success:
/// ProcessTrace drains what is queued and returns).
namespace consumer_result {
inline constexpr std::uint32_t cancelled = 1223;
inline constexpr std::uint32_t ctx_close_pending = 7007;
} // namespace consumer_result

/// EVENT_TRACE_LOGFILEW.ProcessTraceMode (evntcons.h).
namespace process_trace_mode {
inline constexpr std::uint32_t real_time = 0x00000100;
inline constexpr std::uint32_t raw_timestamp = 0x00001000;
inline constexpr std::uint32_t event_record = 0x10000000;
} // namespace process_trace_mode

/// ETW_BUFFER_CONTEXT (evntcons.h): ProcessorNumber (low byte) and Alignment (high byte) in a union with
/// ProcessorIndex, then LoggerId.
struct etw_buffer_context {
    std::uint16_t processor_index = 0;
    std::uint16_t logger_id = 0;
    constexpr std::uint8_t processor_number() const noexcept { return static_cast<std::uint8_t>(processor_index & 0xFFU); }
    constexpr std::uint8_t alignment() const noexcept { return static_cast<std::uint8_t>(processor_index >> 8); }
};

/// EVENT_HEADER (evntcons.h), 0x50 bytes. KernelTime / UserTime are a union with ProcessorTime.
struct event_header_layout {
    std::uint16_t size = 0;
    std::uint16_t header_type = 0;
    std::uint16_t flags = 0;
    std::uint16_t event_property = 0;
    std::uint32_t thread_id = 0;
    std::uint32_t process_id = 0;
    std::int64_t time_stamp = 0;
    guid provider_id{};
    etwctl::event_descriptor event_descriptor{}; // EVENT_DESCRIPTOR (types.hpp)
    std::uint32_t kernel_time = 0;
    std::uint32_t user_time = 0;
    guid activity_id{};
};

/// EVENT_HEADER_EXTENDED_DATA_ITEM (evntcons.h), 0x10 bytes: Reserved1, ExtType, Linkage:1 | Reserved2:15,
/// DataSize, DataPtr (a ULONGLONG holding the address of the data).
struct event_header_extended_data_item_layout {
    std::uint16_t reserved1 = 0;
    std::uint16_t ext_type = 0;
    std::uint16_t linkage = 0; ///< bit 0: another item follows
    std::uint16_t data_size = 0;
    std::uint64_t data_ptr = 0;
};

/// EVENT_RECORD (evntcons.h): what ProcessTrace hands EventRecordCallback.
struct event_record_layout {
    event_header_layout event_header{};
    etw_buffer_context buffer_context{};
    std::uint16_t extended_data_count = 0;
    std::uint16_t user_data_length = 0;
    event_header_extended_data_item_layout* extended_data = nullptr;
    void* user_data = nullptr;
    void* user_context = nullptr;
};

/// EVENT_TRACE_HEADER (evntrace.h), 0x30 bytes; the unions read as their first members (Size,
/// HeaderType/MarkerFlags, Class.Type/Level/Version, Guid, KernelTime/UserTime).
struct event_trace_header_layout {
    std::uint16_t size = 0;
    std::uint8_t header_type = 0;
    std::uint8_t marker_flags = 0;
    std::uint8_t class_type = 0;
    std::uint8_t class_level = 0;
    std::uint16_t class_version = 0;
    std::uint32_t thread_id = 0;
    std::uint32_t process_id = 0;
    std::int64_t time_stamp = 0;
    guid event_guid{};
    std::uint32_t kernel_time = 0;
    std::uint32_t user_time = 0;
};

/// EVENT_TRACE (evntrace.h): the legacy callback's event, EVENT_TRACE_LOGFILEW.CurrentEvent.
struct event_trace_layout {
    event_trace_header_layout header{};
    std::uint32_t instance_id = 0;
    std::uint32_t parent_instance_id = 0;
    guid parent_guid{};
    void* mof_data = nullptr;
    std::uint32_t mof_length = 0;
    etw_buffer_context buffer_context{};
};

/// TRACE_LOGFILE_HEADER (evntrace.h) as the consumer's process lays it out (its own pointer size; the
/// trace reader's trace::layout::logfile_header reads the form stored in a file). LogInstanceGuid is a
/// union with StartBuffers, PointerSize, EventsLost, CpuSpeedInMHz; LoggerName and LogFileName are
/// pointers "not to be used"; TimeZone is TIME_ZONE_INFORMATION (0xAC bytes).
struct trace_logfile_header_layout {
    std::uint32_t buffer_size = 0;
    std::uint32_t version = 0;
    std::uint32_t provider_version = 0;
    std::uint32_t number_of_processors = 0;
    std::int64_t end_time = 0;
    std::uint32_t timer_resolution = 0;
    std::uint32_t maximum_file_size = 0;
    std::uint32_t log_file_mode = 0;
    std::uint32_t buffers_written = 0;
    std::uint32_t start_buffers = 0;
    std::uint32_t pointer_size = 0;
    std::uint32_t events_lost = 0;
    std::uint32_t cpu_speed_in_mhz = 0;
    wide_char* logger_name = nullptr;
    wide_char* log_file_name = nullptr;
    std::uint8_t time_zone[0xAC] = {};
    alignas(8) std::int64_t boot_time = 0;
    std::int64_t perf_freq = 0;
    std::int64_t start_time = 0;
    std::uint32_t reserved_flags = 0;
    std::uint32_t buffers_lost = 0;
};

/// EVENT_TRACE_LOGFILEW (evntrace.h): what OpenTraceW reads (LogFileName or LoggerName, ProcessTraceMode,
/// the callbacks, Context) and fills (CurrentTime, BuffersRead, LogfileHeader, BufferSize, Filled,
/// IsKernelTrace). The callbacks are WINAPI functions: on x86 they are __stdcall, which only the
/// Windows-only code that installs them (kernel/native.hpp's users) can name, so they are held as
/// opaque pointers here.
struct event_trace_logfilew_layout {
    wide_char* log_file_name = nullptr;
    wide_char* logger_name = nullptr;
    std::int64_t current_time = 0;
    std::uint32_t buffers_read = 0;
    std::uint32_t process_trace_mode = 0; ///< union with LogFileMode
    event_trace_layout current_event{};
    trace_logfile_header_layout logfile_header{};
    void* buffer_callback = nullptr; ///< PEVENT_TRACE_BUFFER_CALLBACKW
    std::uint32_t buffer_size = 0;
    std::uint32_t filled = 0;
    std::uint32_t events_lost = 0;
    void* event_record_callback = nullptr; ///< union EventCallback / EventRecordCallback
    std::uint32_t is_kernel_trace = 0;
    void* context = nullptr;
};

/// The EventRecordCallback of a kernel double (the platform's default calling convention): calls F with
/// the record (a null record is ignored).
template <event_record_handler F>
void event_record_entry(event_record_layout* record) noexcept {
    if (record) F(*record);
}

// The sizes the SDK's declarations have (Microsoft Learn's structures, the MSVC / mingw-w64 layout).
static_assert(sizeof(etw_buffer_context) == 4);
static_assert(sizeof(event_descriptor) == 0x10);
static_assert(sizeof(event_header_layout) == 0x50);
static_assert(sizeof(event_header_extended_data_item_layout) == 0x10);
static_assert(sizeof(event_trace_header_layout) == 0x30);
static_assert(sizeof(event_trace_layout) == 0x58);
static_assert(offsetof(event_header_layout, time_stamp) == 0x10 && offsetof(event_header_layout, activity_id) == 0x40);
static_assert(offsetof(event_record_layout, buffer_context) == 0x50 && offsetof(event_record_layout, extended_data) == 0x58);
static_assert(sizeof(void*) != 8 || (sizeof(event_record_layout) == 0x70 && sizeof(trace_logfile_header_layout) == 0x118 &&
                                     sizeof(event_trace_logfilew_layout) == 0x1C0));
static_assert(sizeof(void*) != 4 || (sizeof(event_record_layout) == 0x68 && sizeof(trace_logfile_header_layout) == 0x110 &&
                                     sizeof(event_trace_logfilew_layout) == 0x1A0));

ETWCTL_END_NAMESPACE
