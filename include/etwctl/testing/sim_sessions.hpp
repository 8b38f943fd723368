// SPDX-License-Identifier: MIT
// etwctl/testing/sim_sessions.hpp - the simulated kernel's session model: THE logger table of
// sim::kernel (testing/sim_kernel.hpp), each logger with the session it runs (properties, names,
// statistics, the providers enabled on it), and the documented behaviour of StartTrace, ControlTrace,
// QueryAllTraces and EnableTraceEx2 over it. sim::kernel holds one session_model and answers the
// session_kernel calls (kernel/session_concept.hpp) through it; the loggers tests start with
// sim::kernel::start_logger are rows of the same table.
//
// What it models (sources: the StartTraceW, ControlTraceW, QueryAllTracesW, EnableTraceEx2 and
// EVENT_TRACE_PROPERTIES pages on learn.microsoft.com; Geoff Chappell's StartTrace and NtTraceControl
// pages; the SDK's evntrace.h):
//  - the checks of session/checks.hpp, the same functions the drop-in functions run (the sim sits at
//    the StartTraceW line, so it applies sechost's share too);
//  - 64 loggers (max_loggers(), also what the max-loggers trace-control query answers; private loggers
//    do not count), at most 8 system loggers (SYSTEM_LOGGER_MODE, the NT Kernel Logger, the CKCL,
//    GlobalLoggerGuid): ERROR_NO_SYSTEM_RESOURCES beyond; names unique case-insensitively and GUIDs
//    unique: ERROR_ALREADY_EXISTS; a log file already in use: ERROR_BAD_PATHNAME;
//  - the NT Kernel Logger singleton: "NT Kernel Logger" <-> SystemTraceControlGuid, logger id 0xFFFF
//    (KERNEL_LOGGER_ID, evntrace.h) and the TRACEHANDLE 0x000000000000FFFF (the low 16 bits of a
//    TRACEHANDLE are its logger id: WNODE_HEADER's page on learn.microsoft.com, Chappell's NtTraceControl;
//    the upper 48 bits zero is inferred, docs/choices.md); no session has logger id 0;
//  - elevated by default; set_elevated(false) is a user outside Administrators and Performance Log
//    Users: ERROR_ACCESS_DENIED for every session but private loggers, QueryAllTraces lists nothing;
//  - buffers: MinimumBuffers raised to 2 per processor (2 with NO_PER_PROCESSOR_BUFFERING),
//    MaximumBuffers raised to MinimumBuffers, written back (BufferSize is kept as given: its rounding is
//    not documented);
//  - statistics that grow: log_events, lose_events, lose_buffers; stop returns the final properties;
//  - ControlTrace's target (SystemTraceControlGuid, else the name, else the handle's logger id),
//    UPDATE's documented rules, ERROR_MORE_DATA when the names do not fit (a STOP has then happened),
//    ERROR_WMI_INSTANCE_NOT_FOUND for a session that does not run;
//  - QueryAllTraces: ERROR_MORE_DATA and the count when the array is short; private loggers unlisted;
//  - EnableTraceEx2: level, keywords, enable property and filters as sent, per session and provider;
//    at most 8 sessions per provider (ERROR_NO_SYSTEM_RESOURCES).
// Model choices (docs/choices.md) are marked "model choice" below.
//
// Size (x86-64): the 64 loggers about 13 KB, the text store 32 KB (every name and filter's data, 16384
// 16-bit units: e.g. 64 sessions with 100-character names and 100-character log files, or 7 sessions
// with 1024 + 1024), 64 enablements about 12 KB: about 57 KB in all. Fixed capacity, no heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/detail/bytes.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/session/block.hpp"
#include "etwctl/session/checks.hpp"
#include "etwctl/session/layouts.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/testing/sim_current_windows.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace sim {

/// How a logger was started with sim::kernel::start_logger (the parts the system-trace classes read).
struct logger_options {
    bool system_logger_mode = true; ///< EVENT_TRACE_SYSTEM_LOGGER_MODE (0x02000000)
    bool paged_memory = false;      ///< EVENT_TRACE_USE_PAGED_MEMORY (PMC counters refuse it)
};

/// A piece of the model's text store: where it starts and how many 16-bit units it holds.
struct text_ref {
    std::uint32_t at = 0;
    std::uint32_t length = 0;
};

inline constexpr std::uint8_t no_slot = 0xFF;

/// One logger of the simulated machine: the kernel's logger slot and the session it runs.
struct logger_record {
    bool started = false;
    std::uint16_t id = 0;                ///< 1..63, or 0xFFFF for the NT Kernel Logger
    logger_options options{};            ///< derived from LogFileMode for StartTrace's sessions
    bool private_logger = false;         ///< EVENT_TRACE_PRIVATE_LOGGER_MODE
    std::uint8_t system_slot = no_slot;  ///< the system-logger slot (0..7), as the kernel's SystemLoggerIndex
    std::uint8_t disallow_slot = no_slot;
    event_trace_properties properties{}; ///< as the kernel keeps them: clamped, with statistics
    text_ref name{};
    text_ref log_file{};
    std::uint64_t events_logged = 0;
    std::uint64_t bytes_logged = 0;
    std::uint32_t file_counter = 0;      ///< EVENT_TRACE_CONTROL_INCREMENT_FILE
    std::uint32_t flushes = 0;
};

/// One provider enabled on one session, as EnableTraceEx2 sent it.
struct provider_enablement {
    static constexpr std::size_t max_filters = limits::max_event_filters;
    bool used = false;
    std::uint16_t logger_id = 0;
    guid provider{};
    std::uint8_t level = 0;
    std::uint64_t match_any = 0;
    std::uint64_t match_all = 0;
    std::uint32_t enable_property = 0;
    std::uint32_t parameters_version = 0; ///< 0: no ENABLE_TRACE_PARAMETERS
    guid source_id{};
    std::uint32_t filter_count = 0;
    std::uint32_t filter_types[max_filters] = {};
    std::uint32_t filter_sizes[max_filters] = {};
    text_ref filter_data{};               ///< every filter's bytes, in order (in the model's text store)
    std::uint32_t filter_bytes = 0;
    std::uint32_t capture_state_requests = 0;
};

class session_model {
public:
    static constexpr std::size_t table_size = limits::max_loggers; ///< index 0: the NT Kernel Logger (0xFFFF); 1..63: ids
    static constexpr std::size_t text_capacity = 8192;             ///< 16-bit units for every name and filter
    static constexpr std::size_t max_enablements = 64;
    static constexpr std::size_t max_processes = 16;
    static constexpr std::uint32_t default_process_id = 0x1000;
    /// model choice: BufferSize 0 is kept as given; statistics count 64 KB buffers for it.
    static constexpr std::uint32_t default_buffer_kb = 64;

    // ---- the machine ---------------------------------------------------------------------------------
    /// The most loggers that may run (private loggers aside), 1..64: what StartTrace enforces and what
    /// the max-loggers query (TraceMaxLoggersQuery) answers. False (unchanged) outside 1..64.
    bool set_max_loggers(std::uint32_t n) noexcept {
        if (n == 0 || n > table_size) return false;
        max_loggers_ = n;
        return true;
    }
    std::uint32_t max_loggers() const noexcept { return max_loggers_; }
    /// Elevated (the default): an administrator. Not elevated: a user outside Administrators and
    /// Performance Log Users (ERROR_ACCESS_DENIED for all but private loggers; QueryAllTraces lists none).
    void set_elevated(bool elevated) noexcept { elevated_ = elevated; }
    bool elevated() const noexcept { return elevated_; }
    /// The calling process (orphan_session_kernel) and the other processes that run.
    void set_current_process_id(std::uint32_t pid) noexcept { current_pid_ = pid; }
    std::uint32_t current_process_id() const noexcept { return current_pid_; }
    /// Marks another process as running or gone; false when the list of running processes is full.
    bool set_process_alive(std::uint32_t pid, bool alive) noexcept {
        for (auto& p : alive_)
            if (p == pid) {
                if (!alive) p = 0;
                return true;
            }
        if (!alive) return true;
        for (auto& p : alive_)
            if (p == 0) {
                p = pid;
                return true;
            }
        return false;
    }
    bool process_alive(std::uint32_t pid) const noexcept {
        if (pid == 0) return false;
        if (pid == current_pid_) return true;
        for (auto p : alive_)
            if (p == pid) return true;
        return false;
    }

    // ---- statistics: what the sessions' providers "log" ------------------------------------------------
    /// `count` events of `event_bytes` each reach the session: EventsLogged grows, BuffersWritten counts the
    /// buffers they filled (BufferSize KB each). False if no such logger.
    bool log_events(std::uint64_t handle, std::uint64_t count, std::uint32_t event_bytes = 64) noexcept {
        logger_record* r = by_handle(handle);
        if (!r) return false;
        r->events_logged += count;
        r->bytes_logged += count * event_bytes;
        update_buffers(*r);
        return true;
    }
    /// Events dropped for lack of a free buffer (EventsLost grows).
    bool lose_events(std::uint64_t handle, std::uint32_t count) noexcept {
        logger_record* r = by_handle(handle);
        if (!r) return false;
        r->properties.events_lost += count;
        return true;
    }
    /// Buffers the log file or the real-time consumers did not get (LogBuffersLost, RealTimeBuffersLost).
    bool lose_buffers(std::uint64_t handle, std::uint32_t log_buffers, std::uint32_t real_time_buffers) noexcept {
        logger_record* r = by_handle(handle);
        if (!r) return false;
        r->properties.log_buffers_lost += log_buffers;
        r->properties.real_time_buffers_lost += real_time_buffers;
        return true;
    }

    // ---- inspection -----------------------------------------------------------------------------------
    /// The running logger with this id (0 and 0xFFFF: the NT Kernel Logger), or nullptr.
    logger_record const* find(std::uint16_t id) const noexcept { return const_cast<session_model*>(this)->find(id); }
    logger_record* find(std::uint16_t id) noexcept {
        std::size_t const i = index_of(id);
        return i < table_size && loggers_[i].started ? &loggers_[i] : nullptr;
    }
    /// The running session with this name (case-insensitive), or nullptr.
    template <class Char>
    logger_record const* find_by_name(std::basic_string_view<Char> name) const noexcept {
        for (auto const& r : loggers_)
            if (r.started && session_names_equal(text(r.name), name)) return &r;
        return nullptr;
    }
    std::u16string_view name(logger_record const& r) const noexcept { return text(r.name); }
    std::u16string_view log_file(logger_record const& r) const noexcept { return text(r.log_file); }
    std::span<logger_record const> loggers() const noexcept { return loggers_; }
    std::size_t running() const noexcept { return count_if([](logger_record const& r) { return !r.private_logger; }); }
    std::size_t system_loggers() const noexcept { return count_if([](logger_record const& r) { return r.system_slot != no_slot; }); }

    /// The provider's enablement on a session, or nullptr.
    provider_enablement const* enablement(std::uint16_t id, guid const& provider) const noexcept {
        return const_cast<session_model*>(this)->find_enablement(id, provider);
    }
    /// The bytes of an enablement's filters, in the order sent.
    std::span<std::byte const> filter_data(provider_enablement const& e) const noexcept {
        return {reinterpret_cast<std::byte const*>(text_ + e.filter_data.at), e.filter_bytes};
    }
    /// How many sessions have the provider enabled.
    std::size_t sessions_enabling(guid const& provider) const noexcept {
        std::size_t n = 0;
        for (auto const& e : enables_) n += e.used && e.provider == provider ? 1U : 0U;
        return n;
    }
    std::size_t text_used() const noexcept { return text_used_; }

    // ---- loggers as sim::kernel::start_logger makes them ---------------------------------------------
    /// Starts a logger with this id (1..63 or 0xFFFF), a real-time session named "sim logger N" (the NT
    /// Kernel Logger: its own name and GUID). Returns the id, or 0 if it is taken, out of range, or a
    /// limit is reached.
    std::uint16_t start_logger(std::uint16_t id, logger_options options) noexcept {
        if (id == 0 || (id != limits::kernel_logger_id && id >= limits::max_loggers)) return 0;
        if (find(id)) return 0;
        bool const kernel_logger = id == limits::kernel_logger_id;
        if ((options.system_logger_mode || kernel_logger) && system_loggers() >= limits::max_system_loggers) return 0;
        if (running() >= max_loggers_) return 0;
        char16_t name_buf[32] = {};
        std::u16string_view name = session_names::kernel_logger;
        if (!kernel_logger) {
            std::size_t n = 0;
            for (char c : std::string_view("sim logger ")) name_buf[n++] = static_cast<char16_t>(c);
            char digits[8] = {};
            std::size_t d = 0;
            for (std::uint32_t v = id; v != 0 || d == 0; v /= 10) digits[d++] = static_cast<char>('0' + v % 10);
            while (d) name_buf[n++] = static_cast<char16_t>(digits[--d]);
            name = {name_buf, n};
        }
        if (find_by_name(name)) return 0;
        event_trace_properties p{};
        p.wnode.guid = kernel_logger ? session_guids::system_trace_control : next_guid();
        p.wnode.client_context = static_cast<std::uint32_t>(clock_type::qpc);
        p.buffer_size = default_buffer_kb;
        p.log_file_mode = log_file_mode::real_time | (options.system_logger_mode && !kernel_logger ? log_file_mode::system_logger : 0U) |
                          (options.paged_memory ? log_file_mode::use_paged_memory : 0U);
        logger_record* r = place(id, name, {}, p, options.system_logger_mode || kernel_logger, false);
        if (!r) return 0;
        r->options = options;
        return id;
    }
    /// Renames a running logger (ASCII, 1..1024 characters, unique); false otherwise.
    bool set_logger_name(std::uint16_t id, std::string_view ascii) noexcept {
        logger_record* r = find(id);
        if (!r || ascii.empty() || ascii.size() > limits::max_session_name_length) return false;
        char16_t wide[limits::max_session_name_length];
        for (std::size_t i = 0; i < ascii.size(); ++i) wide[i] = static_cast<char16_t>(static_cast<unsigned char>(ascii[i]));
        std::u16string_view const name(wide, ascii.size());
        if (logger_record const* other = find_by_name(name); other && other != r) return false;
        return replace(r->name, name);
    }
    /// Stops a logger: its providers are disabled, its names and slots freed.
    bool stop(std::uint16_t id) noexcept {
        logger_record* r = find(id);
        if (!r) return false;
        remove(*r);
        return true;
    }

    // ---- the session calls (Win32 codes, as the Windows functions return them) --------------------------
    /// StartTraceW / StartTraceA. `unit`: 2 (WCHAR names) or 1 (CHAR).
    template <class Char>
    std::uint32_t start(std::uint64_t* handle, Char const* instance_name, void* props) noexcept {
        constexpr std::uint32_t unit = sizeof(Char) == 1 ? 1 : 2;
        start_facts const f = read_start_facts(handle != nullptr, instance_name, props, unit);
        if (rule const r = check_start(f); r != rule::ok) return fail(handle, win32_error_of(r));
        block_fields const b = detail::session_block::read(props);
        char16_t name_buf[limits::max_session_name_length + 1];
        std::u16string_view const name = widen(instance_name, f.name_length, name_buf);
        char16_t file_buf[limits::max_log_file_name_length];
        std::u16string_view file;
        if (std::uint32_t const e = log_file_of(props, f.buffer_size, f.log_file_name_offset, unit, file_buf, file); e != win32::success)
            return fail(handle, e);
        // the reserved names take their GUIDs (Chappell's StartTrace); SystemTraceControlGuid is the NT Kernel Logger
        guid id = b.v1.wnode.guid;
        reserved_session const reserved = f.name_reserved != reserved_session::none ? f.name_reserved : reserved_session_of_guid(id);
        if (f.name_reserved == reserved_session::nt_kernel_logger) id = session_guids::system_trace_control;
        if (f.name_reserved == reserved_session::circular_kernel_context_logger) id = session_guids::circular_kernel_context_logger;
        bool const kernel_logger = reserved == reserved_session::nt_kernel_logger;
        bool const private_logger = (b.v1.log_file_mode & log_file_mode::private_logger) != 0;
        // The NT Kernel Logger needs an administrator; any other session but a private logger needs
        // Administrators or Performance Log Users (StartTraceW: ERROR_ACCESS_DENIED).
        if (!elevated_ && (kernel_logger || !private_logger)) return fail(handle, win32::access_denied);
        if (find_by_name(name) || (id != guid{} && find_by_guid(id))) return fail(handle, win32::already_exists);
        if (!file.empty() && find_by_log_file(file)) return fail(handle, win32::bad_pathname);
        bool const system = is_system_logger_target(b.v1.log_file_mode, f.name_reserved, reserved_session_of_guid(id));
        if (system && system_loggers() >= limits::max_system_loggers) return fail(handle, win32::no_system_resources);
        if (!private_logger && running() >= max_loggers_) return fail(handle, win32::no_system_resources);
        std::uint16_t const logger_id = kernel_logger ? limits::kernel_logger_id : free_id();
        if (logger_id == 0) return fail(handle, win32::no_system_resources);
        event_trace_properties p = b.v1;
        if (id == guid{}) id = next_guid(); // "Zero: ETW generates one" (StartTraceW)
        p.wnode.guid = id;
        logger_record* r = place(logger_id, name, file, p, system, private_logger);
        if (!r) return fail(handle, win32::no_system_resources); // model choice: the text store is full
        r->options.system_logger_mode = system;
        r->options.paged_memory = (p.log_file_mode & log_file_mode::use_paged_memory) != 0;
        *handle = logger_id;
        // Written back (model choice, docs/choices.md): the handle, the buffer counts as clamped, the
        // statistics, LoggerThreadId and the session name at LoggerNameOffset; nothing past BufferSize.
        write_numbers(*r, props);
        if (f.logger_name_offset != 0) detail::session_block::put_name(props, f.logger_name_offset, unit, name);
        return win32::success;
    }

    /// ControlTraceW / ControlTraceA.
    template <class Char>
    std::uint32_t control(std::uint64_t handle, Char const* instance_name, void* props, std::uint32_t code) noexcept {
        constexpr std::uint32_t unit = sizeof(Char) == 1 ? 1 : 2;
        if (rule const r = check_control_call(handle, instance_name, props, code); r != rule::ok) return win32_error_of(r);
        name_scan const n = scan_name(instance_name, limits::max_session_name_length);
        bool const name_given = n.present && n.length != 0;
        block_fields const b = detail::session_block::read(props);
        // The target: SystemTraceControlGuid is the NT Kernel Logger; else a name decides; else the handle
        // (Chappell's NtTraceControl: stop/query/update/flush).
        logger_record* r = nullptr;
        if (b.v1.wnode.guid == session_guids::system_trace_control) {
            r = find(limits::kernel_logger_id);
        } else if (name_given) {
            if (!n.terminated) return win32::wmi_instance_not_found; // longer than any session's name
            r = const_cast<logger_record*>(find_by_name(std::basic_string_view<Char>(instance_name, n.length)));
        } else {
            auto const id = static_cast<std::uint16_t>(handle & 0xFFFFU);
            if (id != limits::kernel_logger_id && id >= limits::max_loggers) return win32::invalid_parameter; // not a handle
            r = find(id);
        }
        if (!r) return win32::wmi_instance_not_found;
        if (!elevated_ && !r->private_logger) return win32::access_denied;
        switch (static_cast<control_code>(code)) {
        case control_code::query: break;
        case control_code::stop: {
            // the final properties come back; the session is stopped even if they do not fit
            event_trace_properties const final_props = r->properties;
            char16_t name_buf[limits::max_session_name_length];
            char16_t file_buf[limits::max_log_file_name_length];
            std::u16string_view const name = copy(text(r->name), name_buf);
            std::u16string_view const file = copy(text(r->log_file), file_buf);
            std::uint16_t const id = r->id;
            remove(*r);
            return write_back(final_props, id, name, file, props, unit);
        }
        case control_code::update:
            if (std::uint32_t const e = update(*r, props, unit); e != win32::success) return e;
            break;
        case control_code::flush:
            ++r->flushes;
            if (r->bytes_logged % buffer_bytes(*r) != 0) ++r->properties.buffers_written; // the partly filled buffer
            break;
        case control_code::increment_file:
            // model choice: only a NEWFILE session has files to increment (ERROR_INVALID_PARAMETER otherwise)
            if ((r->properties.log_file_mode & log_file_mode::newfile) == 0) return win32::invalid_parameter;
            ++r->file_counter;
            break;
        default:
            return win32::invalid_parameter; // model choice: CONVERT_TO_REALTIME and unknown codes
        }
        return write_back(r->properties, r->id, text(r->name), text(r->log_file), props, unit);
    }

    /// QueryAllTracesW / QueryAllTracesA.
    template <class Char>
    std::uint32_t query_all(void** array, std::uint32_t count, std::uint32_t* sessions) noexcept {
        constexpr std::uint32_t unit = sizeof(Char) == 1 ? 1 : 2;
        if (rule const r = check_query_all(array != nullptr, count, sessions != nullptr); r != rule::ok) return win32_error_of(r);
        if (count > max_loggers_) return win32::invalid_parameter; // "must be <= the maximum number of sessions"
        for (std::uint32_t i = 0; i < count; ++i)
            if (rule const r = check_query_all_entry(array[i]); r != rule::ok) return win32_error_of(r);
        std::uint32_t listed = 0;
        std::uint32_t result = win32::success;
        if (elevated_)
            for (auto const& r : loggers_) {
                if (!r.started || r.private_logger) continue; // private sessions are not listed
                if (listed < count) {
                    std::uint32_t const e = write_back(r.properties, r.id, text(r.name), text(r.log_file), array[listed], unit);
                    if (e != win32::success) result = e;
                }
                ++listed;
            }
        *sessions = listed; // on ERROR_MORE_DATA: how many sessions there are
        return listed > count ? win32::more_data : result;
    }

    /// EnableTraceEx2.
    std::uint32_t enable(std::uint64_t handle, guid const* provider, std::uint32_t code, std::uint8_t level,
                         std::uint64_t match_any, std::uint64_t match_all, void const* params) noexcept {
        if (rule const r = check_enable_call(handle, provider, code, params); r != rule::ok) return win32_error_of(r);
        enable_request const req = gather(params);
        logger_record* r = by_handle(handle);
        if (!r) return win32::wmi_instance_not_found; // a session that does not run (PerfView PR #2152: 0x80071069)
        if (!elevated_ && !r->private_logger) return win32::access_denied;
        provider_enablement* e = find_enablement(r->id, *provider);
        switch (static_cast<enable_code>(code)) {
        case enable_code::disable:
            if (e) drop(*e);
            return win32::success;
        case enable_code::capture_state:
            if (e) ++e->capture_state_requests; // model choice: accepted whether or not enabled
            return win32::success;
        case enable_code::enable: break;
        }
        bool const created = e == nullptr;
        if (!e) {
            if (sessions_enabling(*provider) >= limits::max_sessions_per_provider) return win32::no_system_resources;
            for (auto& slot : enables_)
                if (!slot.used) {
                    e = &slot;
                    break;
                }
            if (!e) return win32::no_system_resources; // model choice: the model's 64 enablements are used
            *e = provider_enablement{};
            e->used = true;
            e->logger_id = r->id;
            e->provider = *provider;
        }
        // each call replaces the provider's settings and filters for the session (EnableTraceEx2)
        if (!replace_filters(e->filter_data, req)) {
            if (created) drop(*e);
            return win32::no_system_resources; // model choice: the text store is full
        }
        e->filter_bytes = static_cast<std::uint32_t>(req.data_bytes);
        e->level = level;
        e->match_any = match_any;
        e->match_all = match_all;
        e->enable_property = req.enable_property;
        e->parameters_version = req.version;
        e->source_id = req.source_id;
        e->filter_count = req.filter_count;
        for (std::uint32_t i = 0; i < req.filter_count; ++i) {
            e->filter_types[i] = req.types[i];
            e->filter_sizes[i] = req.sizes[i];
        }
        return win32::success;
    }

private:
    struct enable_request {
        std::uint32_t version = 0;
        std::uint32_t enable_property = 0;
        guid source_id{};
        std::uint32_t filter_count = 0;
        std::uint32_t types[provider_enablement::max_filters] = {};
        std::uint32_t sizes[provider_enablement::max_filters] = {};
        event_filter_descriptor const* descriptors = nullptr;
        std::size_t data_bytes = 0;
    };

    /// The table row of a logger id. The NT Kernel Logger's id is KERNEL_LOGGER_ID, 0xFFFF (evntrace.h;
    /// Microsoft's xperf documentation shows `xperf -loggers` printing "Logger Id : ffff" for it), kept in
    /// row 0. No session has logger id 0 (model choice: the loggers StartTrace starts take 1..63): a
    /// TraceHandle whose low word is 0 names no session, as a handle naming any logger that does not run
    /// (ERROR_WMI_INSTANCE_NOT_FOUND). WmiSetLoggerId's mapping of 0 to 0xFFFF is the provider-side
    /// TRACE_ENABLE_CONTEXT's (enable_context.hpp), not a TraceHandle's.
    static constexpr std::size_t index_of(std::uint16_t id) noexcept {
        if (id == limits::kernel_logger_id) return 0;
        return id != 0 && id < table_size ? id : table_size;
    }

    logger_record* by_handle(std::uint64_t handle) noexcept { return find(static_cast<std::uint16_t>(handle & 0xFFFFU)); }

    template <class P>
    std::size_t count_if(P p) const noexcept {
        std::size_t n = 0;
        for (auto const& r : loggers_) n += r.started && p(r) ? 1U : 0U;
        return n;
    }
    logger_record const* find_by_guid(guid const& g) const noexcept {
        for (auto const& r : loggers_)
            if (r.started && r.properties.wnode.guid == g) return &r;
        return nullptr;
    }
    logger_record const* find_by_log_file(std::u16string_view file) const noexcept {
        for (auto const& r : loggers_)
            if (r.started && r.log_file.length != 0 && session_names_equal(text(r.log_file), file)) return &r;
        return nullptr;
    }
    std::uint16_t free_id() const noexcept {
        for (std::uint16_t id = 1; id < table_size; ++id)
            if (!loggers_[id].started) return id;
        return 0;
    }
    guid next_guid() noexcept {
        // model choice: generated GUIDs are {5E550000-0000-0000-0000-<counter>}
        ++guid_counter_;
        guid g{0x5E550000U, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        for (int i = 0; i < 4; ++i) g.data4[7 - i] = static_cast<std::uint8_t>(guid_counter_ >> (8 * i));
        return g;
    }

    /// Puts a new logger in the table with its clamped properties; nullptr when the text store is full.
    logger_record* place(std::uint16_t id, std::u16string_view name, std::u16string_view file, event_trace_properties p,
                         bool system, bool private_logger) noexcept {
        text_ref n{}, f{};
        if (!store(name, n)) return nullptr;
        if (!store(file, f)) {
            release(n);
            return nullptr;
        }
        logger_record& r = loggers_[index_of(id)];
        r = logger_record{};
        r.started = true;
        r.id = id;
        r.private_logger = private_logger;
        r.name = n;
        r.log_file = f;
        if (system)
            for (std::uint8_t s = 0; s < limits::max_system_loggers; ++s)
                if (!system_slot_taken(s)) {
                    r.system_slot = s;
                    break;
                }
        // MinimumBuffers: at least 2 per processor (2 with NO_PER_PROCESSOR_BUFFERING); MaximumBuffers:
        // at least MinimumBuffers (EVENT_TRACE_PROPERTIES page). The kernel's own caps are not modelled.
        std::uint32_t const floor = (p.log_file_mode & log_file_mode::no_per_processor_buffering) != 0
                                        ? 2U
                                        : 2U * current_windows_model::processors;
        if (p.minimum_buffers < floor) p.minimum_buffers = floor;
        if (p.maximum_buffers < p.minimum_buffers) p.maximum_buffers = p.minimum_buffers;
        p.number_of_buffers = p.minimum_buffers;
        p.free_buffers = p.minimum_buffers;
        p.events_lost = p.buffers_written = p.log_buffers_lost = p.real_time_buffers_lost = 0;
        p.logger_thread_id = 0x100U + 4U * r.id; // model choice: a fake thread id
        p.wnode.historical_context = r.id;
        r.properties = p;
        return &r;
    }
    bool system_slot_taken(std::uint8_t s) const noexcept {
        for (auto const& r : loggers_)
            if (r.started && r.system_slot == s) return true;
        return false;
    }
    void remove(logger_record& r) noexcept {
        for (auto& e : enables_)
            if (e.used && e.logger_id == r.id) drop(e); // stopping disables the session's providers
        release(r.name);
        release(r.log_file);
        r = logger_record{};
    }
    void drop(provider_enablement& e) noexcept {
        release(e.filter_data);
        e = provider_enablement{};
    }
    provider_enablement* find_enablement(std::uint16_t id, guid const& provider) noexcept {
        for (auto& e : enables_)
            if (e.used && e.logger_id == id && e.provider == provider) return &e;
        return nullptr;
    }

    std::uint64_t buffer_bytes(logger_record const& r) const noexcept {
        return std::uint64_t{r.properties.buffer_size != 0 ? r.properties.buffer_size : default_buffer_kb} * 1024U;
    }
    void update_buffers(logger_record& r) noexcept {
        std::uint64_t const written = r.bytes_logged / buffer_bytes(r);
        r.properties.buffers_written = written > 0xFFFFFFFFULL ? 0xFFFFFFFFU : static_cast<std::uint32_t>(written);
        bool const partial = r.bytes_logged % buffer_bytes(r) != 0;
        r.properties.free_buffers = r.properties.number_of_buffers - (partial && r.properties.number_of_buffers ? 1U : 0U);
    }

    /// ControlTrace(UPDATE) (ControlTraceW, "Updating an Event Tracing Session"): EnableFlags (system
    /// loggers), FlushTimer (0 keeps), LogFileNameOffset (0 keeps; a name any session uses, its own
    /// included, is ERROR_BAD_PATHNAME), REAL_TIME on or off (the other LogFileMode bits are kept),
    /// MaximumBuffers (0 keeps; raised to MinimumBuffers). Private loggers: the file and FlushTimer only.
    std::uint32_t update(logger_record& r, void const* props, std::uint32_t unit) noexcept {
        block_fields const b = detail::session_block::read(props);
        event_trace_properties p = r.properties;
        char16_t file_buf[limits::max_log_file_name_length];
        std::u16string_view file;
        if (std::uint32_t const e = log_file_of(props, b.buffer_size, b.v1.log_file_name_offset, unit, file_buf, file); e != win32::success)
            return e;
        if (!file.empty() && find_by_log_file(file)) return win32::bad_pathname;
        if (b.v1.flush_timer != 0) p.flush_timer = b.v1.flush_timer;
        if (!r.private_logger) {
            if (r.system_slot != no_slot) p.enable_flags = b.v1.enable_flags;
            p.log_file_mode = (p.log_file_mode & ~log_file_mode::real_time) | (b.v1.log_file_mode & log_file_mode::real_time);
            if (b.v1.maximum_buffers != 0) p.maximum_buffers = b.v1.maximum_buffers < p.minimum_buffers ? p.minimum_buffers : b.v1.maximum_buffers;
        }
        // The result must still be a valid session for the kernel; a buffering session may switch to a file
        // (that is how it is flushed to one).
        bool const has_file = !file.empty() || r.log_file.length != 0;
        auto const found = diagnose_log_file_mode({p.log_file_mode, p.maximum_file_size, has_file, r.system_slot != no_slot});
        if (found.broken != rule::ok && found.broken != rule::session_mode_excludes_log_file) return win32_error_of(found.broken);
        if (!file.empty() && !replace(r.log_file, file)) return win32::no_system_resources; // model choice: store full
        r.properties = p;
        return win32::success;
    }

    /// What ControlTrace and QueryAllTraces write into a caller's block: the session's properties (not
    /// Wnode.BufferSize, Wnode.Flags or the offsets), then each name at the caller's offset if it fits
    /// (an offset of 0: that name is not written); ERROR_MORE_DATA when a name does not fit.
    std::uint32_t write_back(event_trace_properties const& p, std::uint16_t id, std::u16string_view name,
                             std::u16string_view file, void* props, std::uint32_t unit) const noexcept {
        block_fields const b = detail::session_block::read(props);
        event_trace_properties out = p;
        out.wnode.buffer_size = b.v1.wnode.buffer_size;
        out.wnode.flags = b.v1.wnode.flags;
        out.wnode.historical_context = id;
        out.log_file_name_offset = b.v1.log_file_name_offset;
        out.logger_name_offset = b.v1.logger_name_offset;
        std::memcpy(props, &out, sizeof out);
        bool fits = true;
        auto const put = [&](std::uint32_t offset, std::uint32_t other, std::u16string_view s) {
            if (offset == 0) return;
            if (!detail::session_block::name_fits(b.buffer_size, offset, other, unit, s.size())) {
                fits = false;
                return;
            }
            detail::session_block::put_name(props, offset, unit, s);
        };
        put(b.v1.logger_name_offset, b.v1.log_file_name_offset, name);
        put(b.v1.log_file_name_offset, b.v1.logger_name_offset, file);
        return fits ? win32::success : win32::more_data;
    }
    /// StartTrace's numbers written back (the caller's names and offsets stay).
    void write_numbers(logger_record const& r, void* props) const noexcept {
        event_trace_properties out;
        std::memcpy(&out, props, sizeof out);
        event_trace_properties const& p = r.properties;
        out.wnode.historical_context = r.id;
        out.buffer_size = p.buffer_size;
        out.minimum_buffers = p.minimum_buffers;
        out.maximum_buffers = p.maximum_buffers;
        out.number_of_buffers = p.number_of_buffers;
        out.free_buffers = p.free_buffers;
        out.events_lost = p.events_lost;
        out.buffers_written = p.buffers_written;
        out.log_buffers_lost = p.log_buffers_lost;
        out.real_time_buffers_lost = p.real_time_buffers_lost;
        out.logger_thread_id = p.logger_thread_id;
        std::memcpy(props, &out, sizeof out);
    }

    /// ENABLE_TRACE_PARAMETERS and its filters (already checked: check_enable_call), gathered.
    static enable_request gather(void const* params) noexcept {
        enable_request req;
        enable_parameters_view const v = read_enable_parameters(params);
        req.version = v.version;
        req.enable_property = v.enable_property;
        req.source_id = v.source_id;
        req.filter_count = v.filter_count;
        req.descriptors = v.filters;
        for (std::uint32_t i = 0; i < v.filter_count; ++i) {
            event_filter_descriptor const d = filter_at(v, i);
            req.types[i] = d.type;
            req.sizes[i] = d.size;
            req.data_bytes += d.size;
        }
        return req;
    }

    // ---- the text store: names and filter data, packed; a release moves what follows down ------------
    std::u16string_view text(text_ref t) const noexcept { return {text_ + t.at, t.length}; }
    bool store(std::u16string_view s, text_ref& out) noexcept {
        out = {};
        if (s.empty()) return true;
        if (s.size() > text_capacity - text_used_) return false;
        std::memcpy(text_ + text_used_, s.data(), s.size() * sizeof(char16_t));
        out = {static_cast<std::uint32_t>(text_used_), static_cast<std::uint32_t>(s.size())};
        text_used_ += s.size();
        return true;
    }
    /// Replaces a piece by `s` (not a view into the store), or changes nothing when it cannot fit.
    bool replace(text_ref& ref, std::u16string_view s) noexcept {
        if (s.size() > text_capacity - text_used_ + ref.length) return false;
        release(ref);
        return store(s, ref);
    }
    /// Replaces a piece by the filters' bytes, gathered from each descriptor's data, as whole 16-bit units.
    bool replace_filters(text_ref& ref, enable_request const& req) noexcept {
        std::size_t const units = (req.data_bytes + 1) / 2;
        if (units > text_capacity - text_used_ + ref.length) return false;
        release(ref);
        if (units == 0) return true;
        auto* dst = reinterpret_cast<unsigned char*>(text_ + text_used_);
        std::size_t at = 0;
        for (std::uint32_t i = 0; i < req.filter_count; ++i) {
            auto const d = detail::load<event_filter_descriptor>(req.descriptors + i);
            std::memcpy(dst + at, reinterpret_cast<void const*>(static_cast<std::uintptr_t>(d.ptr)), d.size);
            at += d.size;
        }
        if (req.data_bytes % 2 != 0) dst[req.data_bytes] = 0;
        ref = {static_cast<std::uint32_t>(text_used_), static_cast<std::uint32_t>(units)};
        text_used_ += units;
        return true;
    }
    /// Frees a piece: what follows moves down and every reference to it is adjusted.
    void release(text_ref& t) noexcept {
        if (t.length == 0) {
            t = {};
            return;
        }
        std::uint32_t const at = t.at;
        std::uint32_t const n = t.length;
        std::memmove(text_ + at, text_ + at + n, (text_used_ - at - n) * sizeof(char16_t));
        text_used_ -= n;
        t = {};
        auto const shift = [at, n](text_ref& r) {
            if (r.length != 0 && r.at > at) r.at -= n;
        };
        for (auto& r : loggers_) {
            shift(r.name);
            shift(r.log_file);
        }
        for (auto& e : enables_) shift(e.filter_data);
    }
    /// The log-file name at `offset` of a block (none for offset 0), copied into `out`. An unterminated
    /// name: ERROR_BAD_LENGTH (session_name_no_room); over the documented 1024 characters:
    /// ERROR_INVALID_PARAMETER (model choice).
    static std::uint32_t log_file_of(void const* props, std::uint32_t size, std::uint32_t offset, std::uint32_t unit,
                                     char16_t (&out)[limits::max_log_file_name_length], std::u16string_view& file) noexcept {
        file = {};
        if (offset == 0) return win32::success;
        name_scan const s = detail::session_block::scan(props, size, offset, unit);
        if (!s.terminated) return win32_error_of(rule::session_name_no_room);
        if (s.length > limits::max_log_file_name_length) return win32::invalid_parameter;
        for (std::size_t i = 0; i < s.length; ++i) out[i] = detail::session_block::unit_at(props, offset, unit, i);
        file = {out, s.length};
        return win32::success;
    }
    template <class Char>
    static std::u16string_view widen(Char const* s, std::size_t n, char16_t* out) noexcept {
        // model choice: CHAR names are widened byte for byte (Latin-1), not through a code page
        for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<char16_t>(static_cast<std::make_unsigned_t<Char>>(s[i]));
        return {out, n};
    }
    static std::u16string_view copy(std::u16string_view s, char16_t* out) noexcept {
        std::memcpy(out, s.data(), s.size() * sizeof(char16_t));
        return {out, s.size()};
    }
    static std::uint32_t fail(std::uint64_t* handle, std::uint32_t e) noexcept {
        if (handle) *handle = 0; // "On failure the handle is 0" (StartTraceW)
        return e;
    }

    logger_record loggers_[table_size] = {};
    provider_enablement enables_[max_enablements] = {};
    char16_t text_[text_capacity] = {};
    std::size_t text_used_ = 0;
    std::uint32_t max_loggers_ = limits::max_loggers;
    bool elevated_ = true;
    std::uint32_t current_pid_ = default_process_id;
    std::uint32_t alive_[max_processes] = {};
    std::uint32_t guid_counter_ = 0;
};

} // namespace sim
ETWCTL_END_NAMESPACE
