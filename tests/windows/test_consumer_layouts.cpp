// The consumer layouts and constants (kernel/consumer_concept.hpp) against the SDK's (mingw-w64's
// headers): sizes, alignments and every field's offset of EVENT_TRACE_LOGFILEW, EVENT_TRACE,
// EVENT_TRACE_HEADER, TRACE_LOGFILE_HEADER, EVENT_RECORD, EVENT_HEADER, EVENT_DESCRIPTOR,
// ETW_BUFFER_CONTEXT and EVENT_HEADER_EXTENDED_DATA_ITEM; PROCESS_TRACE_MODE_* and
// INVALID_PROCESSTRACE_HANDLE; and native_kernel's three consumer calls resolved and answering.
#include <windows.h>
#include <evntrace.h>
#include <evntprov.h>
#include <evntcons.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "etwctl/compat_consume.hpp"
#include "etwctl/kernel/consumer_concept.hpp"
#include "etwctl/kernel/native.hpp"
#include "etwctl/trace/consume.hpp"
#include "etwctl_test.hpp"
#include "sdk_layout.hpp"

namespace {

ETWCTL_SAME_LAYOUT(ETW_BUFFER_CONTEXT, etwctl::etw_buffer_context);
ETWCTL_SAME_OFFSET(ETW_BUFFER_CONTEXT, ProcessorIndex, etwctl::etw_buffer_context, processor_index);
ETWCTL_SAME_OFFSET(ETW_BUFFER_CONTEXT, LoggerId, etwctl::etw_buffer_context, logger_id);

ETWCTL_SAME_LAYOUT(EVENT_DESCRIPTOR, etwctl::event_descriptor);
ETWCTL_SAME_OFFSET(EVENT_DESCRIPTOR, Id, etwctl::event_descriptor, id);
ETWCTL_SAME_OFFSET(EVENT_DESCRIPTOR, Version, etwctl::event_descriptor, version);
ETWCTL_SAME_OFFSET(EVENT_DESCRIPTOR, Channel, etwctl::event_descriptor, channel);
ETWCTL_SAME_OFFSET(EVENT_DESCRIPTOR, Level, etwctl::event_descriptor, level);
ETWCTL_SAME_OFFSET(EVENT_DESCRIPTOR, Opcode, etwctl::event_descriptor, opcode);
ETWCTL_SAME_OFFSET(EVENT_DESCRIPTOR, Task, etwctl::event_descriptor, task);
ETWCTL_SAME_OFFSET(EVENT_DESCRIPTOR, Keyword, etwctl::event_descriptor, keyword);

ETWCTL_SAME_LAYOUT(EVENT_HEADER, etwctl::event_header_layout);
ETWCTL_SAME_OFFSET(EVENT_HEADER, Size, etwctl::event_header_layout, size);
ETWCTL_SAME_OFFSET(EVENT_HEADER, HeaderType, etwctl::event_header_layout, header_type);
ETWCTL_SAME_OFFSET(EVENT_HEADER, Flags, etwctl::event_header_layout, flags);
ETWCTL_SAME_OFFSET(EVENT_HEADER, EventProperty, etwctl::event_header_layout, event_property);
ETWCTL_SAME_OFFSET(EVENT_HEADER, ThreadId, etwctl::event_header_layout, thread_id);
ETWCTL_SAME_OFFSET(EVENT_HEADER, ProcessId, etwctl::event_header_layout, process_id);
ETWCTL_SAME_OFFSET(EVENT_HEADER, TimeStamp, etwctl::event_header_layout, time_stamp);
ETWCTL_SAME_OFFSET(EVENT_HEADER, ProviderId, etwctl::event_header_layout, provider_id);
ETWCTL_SAME_OFFSET(EVENT_HEADER, EventDescriptor, etwctl::event_header_layout, event_descriptor);
ETWCTL_SAME_OFFSET(EVENT_HEADER, KernelTime, etwctl::event_header_layout, kernel_time);
ETWCTL_SAME_OFFSET(EVENT_HEADER, UserTime, etwctl::event_header_layout, user_time);
ETWCTL_SAME_OFFSET(EVENT_HEADER, ActivityId, etwctl::event_header_layout, activity_id);

ETWCTL_SAME_LAYOUT(EVENT_HEADER_EXTENDED_DATA_ITEM, etwctl::event_header_extended_data_item_layout);
ETWCTL_SAME_OFFSET(EVENT_HEADER_EXTENDED_DATA_ITEM, Reserved1, etwctl::event_header_extended_data_item_layout, reserved1);
ETWCTL_SAME_OFFSET(EVENT_HEADER_EXTENDED_DATA_ITEM, ExtType, etwctl::event_header_extended_data_item_layout, ext_type);
ETWCTL_SAME_OFFSET(EVENT_HEADER_EXTENDED_DATA_ITEM, DataSize, etwctl::event_header_extended_data_item_layout, data_size);
ETWCTL_SAME_OFFSET(EVENT_HEADER_EXTENDED_DATA_ITEM, DataPtr, etwctl::event_header_extended_data_item_layout, data_ptr);
static_assert(offsetof(etwctl::event_header_extended_data_item_layout, linkage) == 4); // Linkage:1 / Reserved2:15 (bit-fields)

ETWCTL_SAME_LAYOUT(EVENT_RECORD, etwctl::event_record_layout);
ETWCTL_SAME_OFFSET(EVENT_RECORD, EventHeader, etwctl::event_record_layout, event_header);
ETWCTL_SAME_OFFSET(EVENT_RECORD, BufferContext, etwctl::event_record_layout, buffer_context);
ETWCTL_SAME_OFFSET(EVENT_RECORD, ExtendedDataCount, etwctl::event_record_layout, extended_data_count);
ETWCTL_SAME_OFFSET(EVENT_RECORD, UserDataLength, etwctl::event_record_layout, user_data_length);
ETWCTL_SAME_OFFSET(EVENT_RECORD, ExtendedData, etwctl::event_record_layout, extended_data);
ETWCTL_SAME_OFFSET(EVENT_RECORD, UserData, etwctl::event_record_layout, user_data);
ETWCTL_SAME_OFFSET(EVENT_RECORD, UserContext, etwctl::event_record_layout, user_context);

ETWCTL_SAME_LAYOUT(EVENT_TRACE_HEADER, etwctl::event_trace_header_layout);
ETWCTL_SAME_OFFSET(EVENT_TRACE_HEADER, Size, etwctl::event_trace_header_layout, size);
ETWCTL_SAME_OFFSET(EVENT_TRACE_HEADER, HeaderType, etwctl::event_trace_header_layout, header_type);
ETWCTL_SAME_OFFSET(EVENT_TRACE_HEADER, MarkerFlags, etwctl::event_trace_header_layout, marker_flags);
ETWCTL_SAME_OFFSET(EVENT_TRACE_HEADER, Class, etwctl::event_trace_header_layout, class_type);
ETWCTL_SAME_OFFSET(EVENT_TRACE_HEADER, ThreadId, etwctl::event_trace_header_layout, thread_id);
ETWCTL_SAME_OFFSET(EVENT_TRACE_HEADER, ProcessId, etwctl::event_trace_header_layout, process_id);
ETWCTL_SAME_OFFSET(EVENT_TRACE_HEADER, TimeStamp, etwctl::event_trace_header_layout, time_stamp);
ETWCTL_SAME_OFFSET(EVENT_TRACE_HEADER, Guid, etwctl::event_trace_header_layout, event_guid);
ETWCTL_SAME_OFFSET(EVENT_TRACE_HEADER, KernelTime, etwctl::event_trace_header_layout, kernel_time);
ETWCTL_SAME_OFFSET(EVENT_TRACE_HEADER, UserTime, etwctl::event_trace_header_layout, user_time);

ETWCTL_SAME_LAYOUT(EVENT_TRACE, etwctl::event_trace_layout);
ETWCTL_SAME_OFFSET(EVENT_TRACE, Header, etwctl::event_trace_layout, header);
ETWCTL_SAME_OFFSET(EVENT_TRACE, InstanceId, etwctl::event_trace_layout, instance_id);
ETWCTL_SAME_OFFSET(EVENT_TRACE, ParentInstanceId, etwctl::event_trace_layout, parent_instance_id);
ETWCTL_SAME_OFFSET(EVENT_TRACE, ParentGuid, etwctl::event_trace_layout, parent_guid);
ETWCTL_SAME_OFFSET(EVENT_TRACE, MofData, etwctl::event_trace_layout, mof_data);
ETWCTL_SAME_OFFSET(EVENT_TRACE, MofLength, etwctl::event_trace_layout, mof_length);
ETWCTL_SAME_OFFSET(EVENT_TRACE, BufferContext, etwctl::event_trace_layout, buffer_context);

ETWCTL_SAME_LAYOUT(TRACE_LOGFILE_HEADER, etwctl::trace_logfile_header_layout);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, BufferSize, etwctl::trace_logfile_header_layout, buffer_size);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, Version, etwctl::trace_logfile_header_layout, version);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, ProviderVersion, etwctl::trace_logfile_header_layout, provider_version);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, NumberOfProcessors, etwctl::trace_logfile_header_layout, number_of_processors);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, EndTime, etwctl::trace_logfile_header_layout, end_time);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, TimerResolution, etwctl::trace_logfile_header_layout, timer_resolution);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, MaximumFileSize, etwctl::trace_logfile_header_layout, maximum_file_size);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, LogFileMode, etwctl::trace_logfile_header_layout, log_file_mode);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, BuffersWritten, etwctl::trace_logfile_header_layout, buffers_written);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, StartBuffers, etwctl::trace_logfile_header_layout, start_buffers);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, PointerSize, etwctl::trace_logfile_header_layout, pointer_size);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, EventsLost, etwctl::trace_logfile_header_layout, events_lost);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, CpuSpeedInMHz, etwctl::trace_logfile_header_layout, cpu_speed_in_mhz);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, LoggerName, etwctl::trace_logfile_header_layout, logger_name);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, LogFileName, etwctl::trace_logfile_header_layout, log_file_name);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, TimeZone, etwctl::trace_logfile_header_layout, time_zone);
static_assert(sizeof(TIME_ZONE_INFORMATION) == sizeof(etwctl::trace_logfile_header_layout::time_zone));
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, BootTime, etwctl::trace_logfile_header_layout, boot_time);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, PerfFreq, etwctl::trace_logfile_header_layout, perf_freq);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, StartTime, etwctl::trace_logfile_header_layout, start_time);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, ReservedFlags, etwctl::trace_logfile_header_layout, reserved_flags);
ETWCTL_SAME_OFFSET(TRACE_LOGFILE_HEADER, BuffersLost, etwctl::trace_logfile_header_layout, buffers_lost);

ETWCTL_SAME_LAYOUT(EVENT_TRACE_LOGFILEW, etwctl::event_trace_logfilew_layout);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, LogFileName, etwctl::event_trace_logfilew_layout, log_file_name);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, LoggerName, etwctl::event_trace_logfilew_layout, logger_name);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, CurrentTime, etwctl::event_trace_logfilew_layout, current_time);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, BuffersRead, etwctl::event_trace_logfilew_layout, buffers_read);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, ProcessTraceMode, etwctl::event_trace_logfilew_layout, process_trace_mode);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, CurrentEvent, etwctl::event_trace_logfilew_layout, current_event);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, LogfileHeader, etwctl::event_trace_logfilew_layout, logfile_header);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, BufferCallback, etwctl::event_trace_logfilew_layout, buffer_callback);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, BufferSize, etwctl::event_trace_logfilew_layout, buffer_size);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, Filled, etwctl::event_trace_logfilew_layout, filled);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, EventsLost, etwctl::event_trace_logfilew_layout, events_lost);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, EventRecordCallback, etwctl::event_trace_logfilew_layout, event_record_callback);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, IsKernelTrace, etwctl::event_trace_logfilew_layout, is_kernel_trace);
ETWCTL_SAME_OFFSET(EVENT_TRACE_LOGFILEW, Context, etwctl::event_trace_logfilew_layout, context);

static_assert(etwctl::process_trace_mode::real_time == PROCESS_TRACE_MODE_REAL_TIME);
static_assert(etwctl::process_trace_mode::raw_timestamp == PROCESS_TRACE_MODE_RAW_TIMESTAMP);
static_assert(etwctl::process_trace_mode::event_record == PROCESS_TRACE_MODE_EVENT_RECORD);

} // namespace

TEST_CASE("windows consumer: native_kernel resolves OpenTraceW, ProcessTrace and CloseTrace and gets Windows' answers") {
    auto& k = etwctl::native_kernel::instance();
    CHECK(etwctl::invalid_processtrace_handle == static_cast<std::uint64_t>(INVALID_PROCESSTRACE_HANDLE));
    static_assert(etwctl::consumer_kernel<etwctl::native_kernel>);
    CHECK(k.consumer_available(etwctl::consumer_function::open_trace_w));
    CHECK(k.consumer_available(etwctl::consumer_function::process_trace));
    CHECK(k.consumer_available(etwctl::consumer_function::close_trace));
    // A file that does not exist: no handle, and an error (Windows: ERROR_FILE_NOT_FOUND or
    // ERROR_BAD_PATHNAME; Wine's stub answers ERROR_ACCESS_DENIED).
    etwctl::event_trace_logfilew_layout logfile{};
    wchar_t path[] = L"C:\\etwctl-no-such-dir\\none.etl";
    logfile.log_file_name = path;
    logfile.process_trace_mode = etwctl::process_trace_mode::event_record;
    std::uint64_t h = 0;
    std::uint32_t const e = k.open_trace_w(&logfile, &h);
    CHECK(e != 0);
    CHECK(h == etwctl::invalid_processtrace_handle);
    // ProcessTrace with no handle: the count is checked first (ERROR_BAD_LENGTH) or the array
    // (ERROR_INVALID_PARAMETER); never success.
    CHECK(k.process_trace(nullptr, 0, nullptr, nullptr) != 0);
}

TEST_CASE("windows consumer: compat::open_trace / process_trace / close_trace take the SDK's own types") {
    auto& k = etwctl::native_kernel::instance();
    EVENT_TRACE_LOGFILEW logfile{};
    wchar_t path[] = L"C:\\etwctl-no-such-dir\\none.etl";
    logfile.LogFileName = path;
    logfile.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
    std::uint32_t error = 0;
    TRACEHANDLE h = etwctl::compat::open_trace(k, &logfile, &error);
    CHECK(h == INVALID_PROCESSTRACE_HANDLE);
    CHECK(error != 0);
    FILETIME start{};
    CHECK(etwctl::compat::process_trace(k, &h, 1, &start, NULL) != 0); // an invalid handle: never success
    CHECK(etwctl::compat::process_trace(k, nullptr, 1) == ERROR_INVALID_PARAMETER);
    CHECK(etwctl::compat::close_trace(k, INVALID_PROCESSTRACE_HANDLE) == ERROR_INVALID_HANDLE);
}

namespace {
struct consumer_entry_probe {
    etwctl::event_record_layout const* seen = nullptr;
    std::uint16_t opcode = 0;
    std::uint32_t calls = 0;
};
void consumer_entry_probe_record(etwctl::event_record_layout const& r) noexcept {
    auto* p = static_cast<consumer_entry_probe*>(r.user_context);
    p->seen = &r;
    p->opcode = r.event_header.event_descriptor.opcode;
    ++p->calls;
}
} // namespace

TEST_CASE("windows consumer: native_kernel's EventRecordCallback is a PEVENT_RECORD_CALLBACK handing the SDK's record to its handler") {
    auto& k = etwctl::native_kernel::instance();
    static_assert(etwctl::event_record_consumer_kernel<etwctl::native_kernel>);
    // called as ProcessTrace calls it: through the SDK's function type (WINAPI), with the SDK's EVENT_RECORD
    void* const entry = k.event_record_callback<&consumer_entry_probe_record>();
    REQUIRE(entry != nullptr);
    auto const callback = reinterpret_cast<PEVENT_RECORD_CALLBACK>(entry);
    consumer_entry_probe probe;
    EVENT_RECORD record{};
    record.EventHeader.EventDescriptor.Opcode = 46;
    record.UserContext = &probe;
    callback(&record);
    CHECK(probe.calls == 1);
    CHECK(static_cast<void const*>(probe.seen) == static_cast<void const*>(&record));
    CHECK(probe.opcode == 46);
    callback(nullptr); // no record: ignored, never a crash
    CHECK(probe.calls == 1);
}

TEST_CASE("windows consumer: trace::consume through native_kernel reports OpenTraceW's refusal with its Win32 code") {
    auto& k = etwctl::native_kernel::instance();
    std::vector<std::byte> storage(etwctl::trace::event_record_stream::storage_size());
    etwctl::trace::consume_control control;
    std::uint64_t seen = 0;
    auto const count = etwctl::trace::on_any([&](etwctl::trace::event const&) noexcept { ++seen; });
    // no such real-time session (Windows: ERROR_WMI_INSTANCE_NOT_FOUND; Wine's stub refuses as it does)
    auto const live = etwctl::trace::consume(k, u"etwctl-no-such-session", {storage, {}}, control, count);
    CHECK(live.reason == etwctl::trace::consume_end::open_failed);
    CHECK(live.win32 != 0);
    CHECK(live.events == 0);
    // no such file
    auto const file = etwctl::trace::consume_file(k, u"C:\\etwctl-no-such-dir\\none.etl", {storage, {}}, control, count);
    CHECK(file.reason == etwctl::trace::consume_end::open_failed);
    CHECK(file.win32 != 0);
    CHECK(seen == 0);
    CHECK(control.handle() == etwctl::invalid_processtrace_handle);
}
