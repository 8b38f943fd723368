// SPDX-License-Identifier: MIT
// etwctl/testing/sim_kernel.hpp - THE simulated kernel: a model of the kernel (and NTDLL's EventSetInformation)
// that keeps state, enforces the kernel's rules and records every request. It satisfies
// etwctl::kernel, so every etwctl function runs against it on any platform.
//
// What it models (phnt ntwmi.h / ntexapi.h, Geoff Chappell's ETW pages, the SDK's evntrace.h / evntprov.h):
//  - loggers: ids < 64 plus the NT Kernel Logger (0xFFFF); a TraceHandle's low 16 bits select one. Each
//    runs a session (testing/sim_sessions.hpp: StartTrace, ControlTrace, QueryAllTraces, EnableTraceEx2).
//    Unknown logger -> STATUS_WMI_INSTANCE_NOT_FOUND; the system-trace classes need
//    EVENT_TRACE_SYSTEM_LOGGER_MODE -> else STATUS_INVALID_PARAMETER; at most 8 such loggers.
//  - per logger: PERFINFO_GROUPMASK (aliases normalized as the kernel reports them), the stack-tracing
//    hook list (replaced on each set, <= 256), PMC event list (<= 4) and counter list (1..max counters),
//    each settable once (STATUS_WMI_ALREADY_ENABLED), a disallow list.
//  - machine-global: the profile-source config (1..4; the kernel's handler reads no logger), the profile
//    interval of each source, clamped to the source's [min, max] from a configurable profile-source list
//    (default: a typical Intel machine), SeSystemProfilePrivilege (not held ->
//    STATUS_PRIVILEGE_NOT_HELD for PERF_PROFILE / PERF_PMC_PROFILE, profile config, PMC counters and
//    interval setting) and the caller's membership of Administrators or Performance Log Users (custom
//    hardware counters).
//  - provider registrations with EventSetInformation's checks (bad handle, class 0/2/3 rules, traits
//    well-formed and set only once, classic registrations refused).
//  - every request recorded (function, class or code, status, the exact input bytes); a chosen NTSTATUS
//    injected into the next N calls; exports that can be made "missing" (as Wine lacks
//    NtQueryIntervalProfile) -> STATUS_ENTRYPOINT_NOT_FOUND, like native_kernel.
// Choices where no source gives the kernel's behaviour are marked "model choice" and listed in docs/choices.md.
// Fixed capacity throughout: no heap, so it can stand in for the kernel in allocation-counting tests.
//
// Size: a sim::kernel holds all of that inline and is large (237,560 bytes on x86-64, sizeof(sim::kernel),
// growing as newer classes are modelled): the request log (512 records of 128 bytes, a 48 KiB byte
// arena), the session model (40 KB: 64 loggers, an 8192-unit text store for names and filter data, 64
// enablements), 8 disallow lists (32 KB), the classes of later releases (25 KB), 8 system-logger slots
// (10 KB). It
// works as a static object or on the heap (std::make_unique<sim::kernel>()); as a local it wants a
// thread with a large stack (the 1 MiB default of a Windows thread is enough, a small fiber's is not).
//
// Threading contract: one thread at a time. Nothing in a sim::kernel is synchronized (the request log,
// the injection counter and the machine state change on every call), so a test that drives one kernel
// from several threads must serialize the calls itself (a mutex around every call, as
// tests/reliability/test_sim_threads.cpp does), and reading the log needs the same lock. Separate
// kernels share nothing and may be used on separate threads at the same time.
//
// Sizes: every length the sim computes (request log, profile-source records) is 64-bit; a source
// name longer than max_profile_source_name_length, or more sources than max_profile_sources_known,
// is refused by set_profile_sources (false, list unchanged) rather than wrapped or cut.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

#include <gsl/assert>

#include "etwctl/config.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/request/custom_counters.hpp"
#include "etwctl/request/decode.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/request/logger_query.hpp"
#include "etwctl/provider_traits.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/testing/sim_current_windows.hpp"
#include "etwctl/testing/sim_sessions.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace sim {

/// One entry of the machine's profile-source list (what `tracelog -profilesources Help` prints).
struct profile_source_desc {
    std::uint32_t id;
    std::string_view name; ///< ASCII
    std::uint32_t interval; ///< the default interval
    std::uint32_t min_interval;
    std::uint32_t max_interval;
};

inline constexpr std::uint32_t pmc_min = 4096;
inline constexpr std::uint32_t pmc_max = 2147483647;
inline constexpr std::uint32_t pmc_default = 65536;

/// A typical Intel machine (as `tracelog -profilesources` reports it; KPROFILE_SOURCE ids from phnt ntkeapi.h).
inline constexpr profile_source_desc typical_intel_profile_sources[] = {
    {0, "Timer", 10000, 1221, 1000000},
    {2, "TotalIssues", pmc_default, pmc_min, pmc_max},
    {6, "BranchInstructions", pmc_default, pmc_min, pmc_max},
    {10, "CacheMisses", pmc_default, pmc_min, pmc_max},
    {11, "BranchMispredictions", pmc_default, pmc_min, pmc_max},
    {19, "TotalCycles", pmc_default, pmc_min, pmc_max},
    {25, "UnhaltedCoreCycles", pmc_default, pmc_min, pmc_max},
    {26, "InstructionRetired", pmc_default, pmc_min, pmc_max},
    {27, "UnhaltedReferenceCycles", pmc_default, pmc_min, pmc_max},
    {28, "LLCReference", pmc_default, pmc_min, pmc_max},
    {29, "LLCMisses", pmc_default, pmc_min, pmc_max},
    {30, "BranchInstructionRetired", pmc_default, pmc_min, pmc_max},
    {31, "BranchMispredictsRetired", pmc_default, pmc_min, pmc_max},
    {32, "LbrInserts", pmc_default, pmc_min, pmc_max},
    {33, "InstructionsRetiredFixed", pmc_default, pmc_min, pmc_max},
    {34, "UnhaltedCoreCyclesFixed", pmc_default, pmc_min, pmc_max},
    {35, "UnhaltedReferenceCyclesFixed", pmc_default, pmc_min, pmc_max},
    {36, "TimerFixed", 10000, 1221, 1000000},
};

/// Registration kinds for event_set_information.
enum class provider_kind : std::uint8_t {
    manifest,    ///< EventRegister (manifest or TraceLogging): traits accepted
    classic,     ///< RegisterTraceGuids: traits refused (STATUS_INVALID_PARAMETER)
};

/// One recorded call.
struct recorded_request {
    kernel_function function{};
    std::uint32_t code = 0;         ///< SystemInformationClass, NtTraceControl code, profile source or EVENT_INFO_CLASS
    std::uint32_t kernel_class = 0; ///< first dword of a SystemPerformanceTraceInformation buffer (else 0)
    std::uint64_t handle = 0;       ///< registration handle (event_set_information)
    std::uint32_t length = 0;       ///< the declared input length (out length for queries of NtTraceControl)
    std::uint32_t value = 0;        ///< the interval of nt_set_interval_profile
    std::int32_t status = 0;        ///< what the sim returned (event_set_information: the Win32 error)
    std::span<std::byte const> bytes; ///< the input bytes as the kernel saw them
    bool truncated = false;         ///< the log's byte arena was full; bytes (or name, filters) is shorter
    // ---- session calls (kernel/session_concept.hpp): `function` is not meaningful for them. `code`: the
    // ControlCode (ControlTrace, EnableTraceEx2) or QueryAllTraces' PropertyArrayCount; `handle`: the
    // TRACEHANDLE; `bytes`: the properties block as sent (Wnode.BufferSize bytes = `length`) or
    // EnableTraceEx2's ENABLE_TRACE_PARAMETERS; `value`: EnableTraceEx2's Timeout; `status`: the Win32 code.
    bool is_session_call = false;
    session_function session{};      ///< StartTraceW, ControlTraceW, ...
    std::uint8_t level = 0;          ///< EnableTraceEx2
    std::uint32_t enable_property = 0; ///< EnableTraceEx2 (from the parameters)
    std::span<std::byte const> name; ///< the session name as sent, UTF-16LE without NUL (the A forms: widened)
    guid provider{};                 ///< EnableTraceEx2
    std::uint64_t match_any = 0;
    std::uint64_t match_all = 0;
    std::span<std::byte const> filters; ///< EnableTraceEx2: each filter's data, in order
};

class kernel {
public:
    static constexpr std::size_t max_system_loggers = limits::max_system_loggers;
    /// At most this many loggers hold a disallow list at once (the sim's capacity, not the kernel's).
    static constexpr std::size_t max_disallow_lists = 8;
    static constexpr std::size_t max_profile_sources_known = 48;
    /// The longest profile-source name set_profile_sources accepts (characters). Real names are
    /// under 64; custom counter descriptions at most 126.
    static constexpr std::size_t max_profile_source_name_length = 256;
    static constexpr std::size_t max_registrations = 16;
    static constexpr std::size_t max_records = 512;
    static constexpr std::size_t record_arena_size = 48 * 1024;
    static constexpr std::size_t max_traits_size = 512;
    static constexpr std::uint32_t default_kernel_version = 80; ///< EventTraceKernelVersion of Windows 10 2004

    kernel() noexcept { set_profile_sources(typical_intel_profile_sources); }
    kernel(kernel const&) = delete;
    kernel& operator=(kernel const&) = delete;

    // ---- the machine -----------------------------------------------------------------------------
    /// Starts a logger; returns its TRACEHANDLE (the logger id), or 0 if the id is taken, out of range
    /// or there is no room (8 system loggers, max_loggers() in all). It is a session like those
    /// StartTrace starts (a real-time session named "sim logger N"; testing/sim_sessions.hpp).
    /// The NT Kernel Logger is id 0xFFFF (KERNEL_LOGGER_ID), its TRACEHANDLE 0x000000000000FFFF; other
    /// loggers take ids 1..63. No logger has id 0: a handle naming logger 0 names no session.
    std::uint64_t start_logger(std::uint16_t id, logger_options options = {}) noexcept {
        std::uint16_t const started = sessions_.start_logger(id, options);
        if (started != 0) on_started(started);
        return started;
    }
    /// The NT Kernel Logger (id 0xFFFF), in system-logger mode.
    std::uint64_t start_kernel_logger() noexcept { return start_logger(limits::kernel_logger_id); }
    bool stop_logger(std::uint16_t id) noexcept { return sessions_.stop(id); }

    /// Names a started logger (ASCII, 1..1024 characters, unique), so the trace-control query
    /// (NtTraceControl EtwQueryLoggerCode, request/logger_query.hpp) and ControlTrace find it by name.
    /// False if there is no such logger or another session has the name.
    bool set_logger_name(std::uint16_t id, std::string_view name) noexcept { return sessions_.set_logger_name(id, name); }

    /// The sessions: the logger table, the machine's session knobs (max_loggers, elevated, processes),
    /// statistics (log_events, lose_events, lose_buffers) and what each session holds.
    session_model& sessions() noexcept { return sessions_; }
    session_model const& sessions() const noexcept { return sessions_; }
    /// The machine's maximum number of loggers (TraceMaxLoggersQuery answers it; StartTrace enforces it).
    std::uint32_t max_loggers() const noexcept { return sessions_.max_loggers(); }
    /// Makes a session export look missing (ERROR_PROC_NOT_FOUND, as native_kernel) or present again.
    void set_session_available(session_function f, bool available) noexcept {
        auto const bit = 1U << static_cast<unsigned>(f);
        missing_session_ = available ? (missing_session_ & ~bit) : (missing_session_ | bit);
    }
    bool session_available(session_function f) const noexcept { return (missing_session_ & (1U << static_cast<unsigned>(f))) == 0; }

    /// SeSystemProfilePrivilege enabled (what the kernel's checks see). Starts enabled.
    void set_privilege(bool enabled) noexcept { privilege_ = enabled; }
    bool privilege() const noexcept { return privilege_; }
    /// Whether the token holds the privilege at all (an elevated process): what enabling it needs.
    void set_privilege_held(bool held) noexcept { privilege_held_ = held; }
    /// kernel_with_privileges: enables the privilege if the token holds it (0), else
    /// ERROR_NOT_ALL_ASSIGNED and nothing changes, as AdjustTokenPrivileges answers.
    std::uint32_t enable_system_profile_privilege() noexcept {
        if (!privilege_held_) return win32::not_all_assigned;
        privilege_ = true;
        return win32::success;
    }
    /// Whether the caller is in Administrators or Performance Log Users (EtwpUserInAdminOrLogUsersGroup):
    /// what adding and removing custom hardware counters check, instead of a privilege.
    void set_admin_or_log_users(bool member) noexcept { admin_or_log_users_ = member; }
    bool admin_or_log_users() const noexcept { return admin_or_log_users_; }

    /// Replaces the machine's profile-source list; intervals reset to each source's default.
    /// Refuses (returns false, changes nothing) more than max_profile_sources_known sources or a name
    /// longer than max_profile_source_name_length: nothing is cut silently, no size wraps.
    bool set_profile_sources(std::span<profile_source_desc const> sources) noexcept {
        if (sources.size() > max_profile_sources_known) return false;
        for (auto const& s : sources)
            if (s.name.size() > max_profile_source_name_length) return false;
        source_count_ = 0;
        for (auto& c : custom_) c.used = false;
        for (auto const& s : sources) {
            sources_[source_count_] = s;
            intervals_[source_count_] = s.interval;
            ++source_count_;
        }
        return true;
    }
    std::span<profile_source_desc const> profile_sources() const noexcept { return {sources_, source_count_}; }

    void set_max_pmc_counters(std::uint32_t n) noexcept { max_pmc_counters_ = n; }
    std::uint32_t max_pmc_counters() const noexcept { return max_pmc_counters_; }
    /// The classes of later Windows releases (TRACE_INFO_CLASS 16-28): their state and machine knobs.
    current_windows_model& current_windows() noexcept { return newer_; }
    current_windows_model const& current_windows() const noexcept { return newer_; }
    void set_kernel_version(std::uint32_t v) noexcept { kernel_version_ = v; }
    /// What the kernel-version class answers (EventTraceKernelVersion; the trace's header extension carries it).
    std::uint32_t kernel_version() const noexcept { return kernel_version_; }

    /// An older Windows: a kernel EVENT_TRACE_INFORMATION_CLASS (0..31) that this kernel lacks answers
    /// STATUS_NOT_IMPLEMENTED (set and query); an NtTraceControl code it lacks answers
    /// STATUS_INVALID_DEVICE_REQUEST. Both map to ERROR_INVALID_FUNCTION.
    void set_kernel_class_available(std::uint32_t kernel_class, bool available) noexcept {
        if (kernel_class >= 32) return;
        auto const bit = 1U << kernel_class;
        missing_classes_ = available ? (missing_classes_ & ~bit) : (missing_classes_ | bit);
    }
    void set_trace_control_available(std::uint32_t code, bool available) noexcept {
        if (code >= 64) return;
        auto const bit = std::uint64_t{1} << code;
        missing_codes_ = available ? (missing_codes_ & ~bit) : (missing_codes_ | bit);
    }

    // ---- custom profile sources (kernel classes 0x15 add / 0x16 remove, Windows 10 1803+) ----------
    // The kernel's own checks (public decompiled listings of EtwSetPerformanceTraceInformation): both want
    // the caller in Administrators or Performance Log Users (EtwpUserInAdminOrLogUsersGroup; not
    // SeSystemProfilePrivilege) -> else STATUS_ACCESS_DENIED. Add: a length outside 36..544 bytes ->
    // STATUS_INFO_LENGTH_MISMATCH; Version other than 2 or 3 -> STATUS_REVISION_MISMATCH. The rest is
    // the model (model choices, docs/choices.md): a description that is empty or has no
    // NUL inside the request -> STATUS_INVALID_PARAMETER; a description already in the list ->
    // STATUS_OBJECT_NAME_COLLISION; more than max_custom_sources (or a full list) ->
    // STATUS_INSUFFICIENT_RESOURCES. The new source takes the highest id + 1, bounds [pmc_min, pmc_max]
    // and the initial interval clamped to them. Remove: length other than 20 ->
    // STATUS_INFO_LENGTH_MISMATCH; an id not in the list -> STATUS_NOT_SUPPORTED (as for absent sources
    // elsewhere); a built-in source -> STATUS_ACCESS_DENIED. Descriptions are kept as ASCII.
    static constexpr std::size_t max_custom_sources = 16;
    /// How many custom sources the machine has now.
    std::size_t custom_source_count() const noexcept {
        std::size_t n = 0;
        for (auto const& c : custom_) n += c.used ? 1 : 0;
        return n;
    }
    /// The add request's Version and counter union a custom source was added with (false: not custom).
    bool custom_source_request(std::uint32_t id, std::uint8_t& version, std::span<std::uint8_t, 8> counter) const noexcept {
        for (auto const& c : custom_)
            if (c.used && c.id == id) {
                version = c.version;
                std::memcpy(counter.data(), c.counter, 8);
                return true;
            }
        return false;
    }

    /// Makes an export look missing (true) or present again.
    void set_available(kernel_function f, bool available) noexcept {
        auto const bit = 1U << static_cast<unsigned>(f);
        missing_ = available ? (missing_ & ~bit) : (missing_ | bit);
    }
    bool available(kernel_function f) const noexcept { return (missing_ & (1U << static_cast<unsigned>(f))) == 0; }

    /// The next `calls` calls (to any of the six functions, or a session call: as the Win32 code
    /// RtlNtStatusToDosError gives `status`) return `status` and change nothing.
    void inject(std::int32_t status, std::uint32_t calls = 1) noexcept {
        injected_status_ = status;
        injected_calls_ = calls;
    }

    // ---- providers ---------------------------------------------------------------------------------
    /// Registers a provider; returns its REGHANDLE (never 0), or 0 when full.
    std::uint64_t register_provider(provider_kind kind = provider_kind::manifest) noexcept {
        for (std::size_t i = 0; i < max_registrations; ++i)
            if (!regs_[i].used) {
                regs_[i] = registration{};
                regs_[i].used = true;
                regs_[i].kind = kind;
                ++regs_[i].sequence;
                return handle_of(i);
            }
        return 0;
    }
    bool unregister_provider(std::uint64_t h) noexcept {
        if (auto* r = find_registration(h)) {
            r->used = false;
            return true;
        }
        return false;
    }

    // ---- state, for inspection -------------------------------------------------------------------
    bool logger_exists(std::uint16_t id) const noexcept { return sessions_.find(id) != nullptr; }
    group_mask group_masks(std::uint16_t id) const noexcept { auto const* l = system_state(id); return l ? l->masks : group_mask{}; }
    std::span<std::uint32_t const> stack_tracing_hooks(std::uint16_t id) const noexcept {
        auto const* l = system_state(id);
        return l ? std::span<std::uint32_t const>(l->hooks, l->hook_count) : std::span<std::uint32_t const>{};
    }
    std::span<std::uint32_t const> pmc_events(std::uint16_t id) const noexcept {
        auto const* l = system_state(id);
        return l ? std::span<std::uint32_t const>(l->pmc_events, l->pmc_event_count) : std::span<std::uint32_t const>{};
    }
    std::span<std::uint32_t const> pmc_counters(std::uint16_t id) const noexcept {
        auto const* l = system_state(id);
        return l ? std::span<std::uint32_t const>(l->pmc_counters, l->pmc_counter_count) : std::span<std::uint32_t const>{};
    }
    /// The machine's profile-source configuration (TraceProfileSourceConfigInfo): one for the machine,
    /// whatever session handle the request carried (the kernel does not read it).
    std::span<std::uint32_t const> profile_config() const noexcept { return {config_, config_count_}; }
    std::span<guid const> disallow_list(std::uint16_t id) const noexcept {
        auto const* r = sessions_.find(id);
        if (!r || r->disallow_slot == no_slot) return {};
        auto const& d = disallow_[r->disallow_slot];
        return {d.guids, d.count};
    }
    /// The current interval of a source (0 if the machine does not have it).
    std::uint32_t interval(std::uint32_t source) const noexcept {
        auto const i = source_index(source);
        return i < source_count_ ? intervals_[i] : 0;
    }
    bool traits_set(std::uint64_t reg) const noexcept { auto const* r = find_registration(reg); return r && r->traits_size != 0; }
    std::span<std::byte const> traits(std::uint64_t reg) const noexcept {
        auto const* r = find_registration(reg);
        return r ? std::span<std::byte const>(r->traits, r->traits_size) : std::span<std::byte const>{};
    }
    bool uses_descriptor_type(std::uint64_t reg) const noexcept { auto const* r = find_registration(reg); return r && r->descriptor_type; }
    bool binary_tracked(std::uint64_t reg) const noexcept { auto const* r = find_registration(reg); return r && r->binary_tracked; }

    // ---- the request log -------------------------------------------------------------------------
    std::size_t request_count() const noexcept { return record_count_; }
    /// The i-th recorded request. Precondition (GSL Expects: terminates): i < request_count().
    recorded_request const& request(std::size_t i) const noexcept {
        Expects(i < record_count_);
        return records_[i];
    }
    /// The latest recorded request. Precondition (GSL Expects: terminates): request_count() != 0.
    recorded_request const& last_request() const noexcept {
        Expects(record_count_ != 0);
        return records_[record_count_ - 1];
    }
    /// Checked forms for code that cannot guarantee the preconditions: nullopt when out of range.
    std::optional<recorded_request> find_request(std::size_t i) const noexcept {
        if (i >= record_count_) return std::nullopt;
        return records_[i];
    }
    std::optional<recorded_request> find_last_request() const noexcept {
        if (record_count_ == 0) return std::nullopt;
        return records_[record_count_ - 1];
    }
    std::span<recorded_request const> requests() const noexcept { return {records_, record_count_}; }
    std::size_t dropped_requests() const noexcept { return dropped_; }
    void clear_requests() noexcept {
        record_count_ = 0;
        arena_used_ = 0;
        dropped_ = 0;
    }

    // ---- the six calls (etwctl::kernel) ------------------------------------------------------------
    std::int32_t nt_set_system_information(std::uint32_t information_class, void const* buffer, std::uint32_t length) noexcept {
        auto& rec = record(kernel_function::nt_set_system_information, information_class, buffer, length);
        return rec.status = intercept(kernel_function::nt_set_system_information, [&] {
                   return set_system_information(information_class, buffer, length);
               });
    }

    std::int32_t nt_query_system_information(std::uint32_t information_class, void* buffer, std::uint32_t length,
                                             std::uint32_t* return_length) noexcept {
        auto& rec = record(kernel_function::nt_query_system_information, information_class, buffer, length);
        return rec.status = intercept(kernel_function::nt_query_system_information, [&] {
                   return query_system_information(information_class, buffer, length, return_length);
               });
    }

    std::int32_t nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) noexcept {
        auto& rec = record(kernel_function::nt_set_interval_profile, source, nullptr, 0);
        rec.value = interval;
        return rec.status = intercept(kernel_function::nt_set_interval_profile, [&] {
                   if (!privilege_) return ntstatus::privilege_not_held;
                   return set_interval(source, interval);
               });
    }

    std::int32_t nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) noexcept {
        auto& rec = record(kernel_function::nt_query_interval_profile, source, nullptr, 0);
        return rec.status = intercept(kernel_function::nt_query_interval_profile, [&] {
                   if (interval == nullptr) return ntstatus::access_violation;
                   *interval = this->interval(source); // an unknown source reads as 0, with success
                   return ntstatus::success;
               });
    }

    std::int32_t nt_trace_control(std::uint32_t function_code, void const* in, std::uint32_t in_length, void* out,
                                  std::uint32_t out_length, std::uint32_t* return_length) noexcept {
        auto& rec = record(kernel_function::nt_trace_control, function_code, in, in_length);
        return rec.status = intercept(kernel_function::nt_trace_control, [&] {
                   return trace_control(function_code, in, in_length, out, out_length, return_length);
               });
    }

    std::uint32_t event_set_information(std::uint64_t reg_handle, std::uint32_t information_class,
                                        void const* information, std::uint32_t length) noexcept {
        auto& rec = record(kernel_function::event_set_information, information_class, information, length);
        rec.handle = reg_handle;
        if (!available(kernel_function::event_set_information))
            return static_cast<std::uint32_t>(rec.status = static_cast<std::int32_t>(win32::proc_not_found));
        if (injected_calls_ != 0) {
            --injected_calls_;
            return static_cast<std::uint32_t>(rec.status = static_cast<std::int32_t>(nt_status_to_win32(injected_status_)));
        }
        std::uint32_t const e = set_event_information(reg_handle, information_class, information, length);
        rec.status = static_cast<std::int32_t>(e);
        return e;
    }

    // ---- the session calls (etwctl::session_kernel, ansi_session_kernel, orphan_session_kernel) -------
    // Each is recorded with the block as sent (Wnode.BufferSize bytes), the name, the code; the model
    // (testing/sim_sessions.hpp) answers with the Win32 code Windows' function returns.
    std::uint32_t start_trace_w(std::uint64_t* handle, wide_char const* name, void* props) noexcept {
        auto& rec = record_session(session_function::start_trace_w, 0, 0, name, props);
        return session_call(rec, session_function::start_trace_w, handle, [&] { return sessions_.start(handle, name, props); });
    }
    std::uint32_t start_trace_a(std::uint64_t* handle, char const* name, void* props) noexcept {
        auto& rec = record_session(session_function::start_trace_a, 0, 0, name, props);
        return session_call(rec, session_function::start_trace_a, handle, [&] { return sessions_.start(handle, name, props); });
    }
    std::uint32_t control_trace_w(std::uint64_t handle, wide_char const* name, void* props, std::uint32_t code) noexcept {
        auto& rec = record_session(session_function::control_trace_w, code, handle, name, props);
        std::uint32_t const e =
            session_call(rec, session_function::control_trace_w, nullptr, [&] { return sessions_.control(handle, name, props, code); });
        if (e == win32::success && code == static_cast<std::uint32_t>(control_code::update)) on_updated(props);
        return e;
    }
    std::uint32_t control_trace_a(std::uint64_t handle, char const* name, void* props, std::uint32_t code) noexcept {
        auto& rec = record_session(session_function::control_trace_a, code, handle, name, props);
        std::uint32_t const e =
            session_call(rec, session_function::control_trace_a, nullptr, [&] { return sessions_.control(handle, name, props, code); });
        if (e == win32::success && code == static_cast<std::uint32_t>(control_code::update)) on_updated(props);
        return e;
    }
    std::uint32_t query_all_traces_w(void** array, std::uint32_t count, std::uint32_t* sessions) noexcept {
        auto& rec = record_session(session_function::query_all_traces_w, count, 0, static_cast<wide_char const*>(nullptr), nullptr);
        return session_call(rec, session_function::query_all_traces_w, nullptr,
                            [&] { return sessions_.query_all<wide_char>(array, count, sessions); });
    }
    std::uint32_t query_all_traces_a(void** array, std::uint32_t count, std::uint32_t* sessions) noexcept {
        auto& rec = record_session(session_function::query_all_traces_a, count, 0, static_cast<char const*>(nullptr), nullptr);
        return session_call(rec, session_function::query_all_traces_a, nullptr,
                            [&] { return sessions_.query_all<char>(array, count, sessions); });
    }
    std::uint32_t enable_trace_ex2(std::uint64_t handle, guid const* provider, std::uint32_t code, std::uint8_t level,
                                   std::uint64_t match_any, std::uint64_t match_all, std::uint32_t timeout,
                                   void const* params) noexcept {
        auto& rec = record_session(session_function::enable_trace_ex2, code, handle, static_cast<wide_char const*>(nullptr), nullptr);
        rec.value = timeout;
        if (provider) rec.provider = *provider;
        rec.level = level;
        rec.match_any = match_any;
        rec.match_all = match_all;
        record_parameters(rec, params);
        // model choice: no provider callbacks run, so a Timeout never expires (no ERROR_TIMEOUT)
        return session_call(rec, session_function::enable_trace_ex2, nullptr,
                            [&] { return sessions_.enable(handle, provider, code, level, match_any, match_all, params); });
    }
    std::uint32_t current_process_id() noexcept { return sessions_.current_process_id(); }
    bool process_alive(std::uint32_t pid) noexcept { return sessions_.process_alive(pid); }

private:
    /// What a system logger holds for the system-trace classes, one per system-logger slot
    /// (the record's system_slot, as the kernel keeps one group mask per SystemLoggerIndex).
    struct logger_state {
        std::uint16_t id = 0;
        logger_options options{};
        group_mask masks{};
        std::uint32_t hooks[limits::max_stack_tracing_events] = {};
        std::size_t hook_count = 0;
        std::uint32_t pmc_events[limits::max_pmc_events] = {};
        std::size_t pmc_event_count = 0;
        bool pmc_events_set = false;
        std::uint32_t pmc_counters[16] = {};
        std::size_t pmc_counter_count = 0;
        bool pmc_counters_set = false;
    };
    /// A disallow list (TraceSetDisallowList): any logger may have one; max_disallow_lists at once.
    struct disallow_state {
        guid guids[limits::max_disallow_list] = {};
        std::size_t count = 0;
    };
    struct registration {
        bool used = false;
        provider_kind kind = provider_kind::manifest;
        std::uint16_t sequence = 0;
        bool descriptor_type = false;
        bool binary_tracked = false;
        std::byte traits[max_traits_size] = {};
        std::size_t traits_size = 0;
    };

    static constexpr perf_flag perf_profile{0x20000002U};
    static constexpr perf_flag perf_pmc_profile{0x20000400U};

    template <class F>
    std::int32_t intercept(kernel_function f, F&& body) noexcept {
        if (!available(f)) return ntstatus::entrypoint_not_found;
        if (injected_calls_ != 0) {
            --injected_calls_;
            return injected_status_;
        }
        return body();
    }

    recorded_request& record(kernel_function f, std::uint32_t code, void const* bytes, std::uint32_t length) noexcept {
        static thread_local recorded_request overflow; // when the log is full: written, never kept
        if (record_count_ == max_records) {
            ++dropped_;
            overflow = recorded_request{};
            return overflow;
        }
        auto& r = records_[record_count_++];
        r = recorded_request{};
        r.function = f;
        r.code = code;
        r.length = length;
        std::size_t n = bytes ? length : 0;
        if (n > record_arena_size - arena_used_) {
            n = record_arena_size - arena_used_;
            r.truncated = true;
        }
        if (n) std::memcpy(arena_ + arena_used_, bytes, n);
        r.bytes = {arena_ + arena_used_, n};
        arena_used_ += n;
        if (bytes && length >= 4 && code == system_performance_trace_information)
            std::memcpy(&r.kernel_class, bytes, 4);
        return r;
    }

    /// Records a session call: the block as sent (Wnode.BufferSize bytes) and the name, widened.
    template <class Char>
    recorded_request& record_session(session_function f, std::uint32_t code, std::uint64_t handle, Char const* name,
                                     void const* props) noexcept {
        std::uint32_t const size = props ? detail::session_block::buffer_size(props) : 0U;
        auto& r = record(kernel_function{}, code, props, size);
        r.kernel_class = 0;
        r.is_session_call = true;
        r.session = f;
        r.handle = handle;
        if (name) {
            name_scan const n = scan_name(name, limits::max_session_name_length);
            std::size_t const units = n.terminated ? n.length : limits::max_session_name_length;
            r.name = append(nullptr, 2 * units, r, [&](std::byte* out) {
                for (std::size_t i = 0; i < units; ++i) {
                    auto const c = static_cast<std::uint16_t>(static_cast<std::make_unsigned_t<Char>>(name[i]));
                    out[2 * i] = static_cast<std::byte>(c & 0xFFU);
                    out[2 * i + 1] = static_cast<std::byte>(c >> 8);
                }
            });
        }
        return r;
    }
    /// EnableTraceEx2's parameters as sent: the structure (its version's size) and each filter's data.
    void record_parameters(recorded_request& r, void const* params) noexcept {
        if (params == nullptr) return;
        enable_parameters_view const v = read_enable_parameters(params);
        std::size_t const size = v.version == enable_trace_parameters_version ? sizeof(enable_trace_parameters)
                                                                             : offsetof(enable_trace_parameters, filter_desc_count);
        r.bytes = append(params, size, r, nullptr);
        r.length = static_cast<std::uint32_t>(size);
        r.enable_property = v.enable_property;
        if (v.filters == nullptr || v.filter_count > limits::max_event_filters) return; // refused by the call: nothing to read
        std::size_t total = 0;
        for (std::uint32_t i = 0; i < v.filter_count; ++i) total += filter_at(v, i).ptr != 0 ? filter_at(v, i).size : 0U;
        r.filters = append(nullptr, total, r, [&](std::byte* out) {
            std::size_t at = 0;
            for (std::uint32_t i = 0; i < v.filter_count; ++i) {
                event_filter_descriptor const d = filter_at(v, i);
                if (d.ptr == 0) continue;
                std::memcpy(out + at, reinterpret_cast<void const*>(static_cast<std::uintptr_t>(d.ptr)), d.size);
                at += d.size;
            }
        });
    }
    /// Appends n bytes to the arena (copied from `from`, or written by `fill` into a scratch of n bytes
    /// first when the arena cannot hold them all: then only what fits is kept and the record says so).
    template <class Fill = std::nullptr_t>
    std::span<std::byte const> append(void const* from, std::size_t n, recorded_request& r, Fill fill) noexcept {
        std::size_t const room = record_arena_size - arena_used_;
        std::size_t const kept = n < room ? n : room;
        if (kept < n) r.truncated = true;
        std::byte* at = arena_ + arena_used_;
        if constexpr (std::is_same_v<Fill, std::nullptr_t>) {
            if (kept) std::memcpy(at, from, kept);
        } else {
            if (kept == n) {
                if (n) fill(at);
            } else {
                // the full text does not fit: write it through a bounded scratch and keep the prefix
                static thread_local std::byte scratch[2 * limits::max_session_name_length + 8192];
                if (n <= sizeof scratch) {
                    fill(scratch);
                    if (kept) std::memcpy(at, scratch, kept);
                } else {
                    r.truncated = true;
                    return {};
                }
            }
        }
        arena_used_ += kept;
        return {at, kept};
    }
    /// A session call through the machine's knobs: a missing export, an injected failure, or the model.
    template <class F>
    std::uint32_t session_call(recorded_request& rec, session_function f, std::uint64_t* handle, F&& body) noexcept {
        std::uint32_t e = 0;
        if (!session_available(f)) {
            e = win32::proc_not_found;
        } else if (injected_calls_ != 0) {
            --injected_calls_;
            e = nt_status_to_win32(injected_status_);
            if (handle) *handle = 0;
        } else {
            e = body();
            if (e == win32::success && handle) on_started(static_cast<std::uint16_t>(*handle & 0xFFFFU));
        }
        rec.status = static_cast<std::int32_t>(e);
        return e;
    }

    /// The system-trace state of a running system logger (0xFFFF: the NT Kernel Logger), or nullptr.
    logger_state const* system_state(std::uint16_t id) const noexcept {
        auto const* r = sessions_.find(id);
        return r && r->system_slot != no_slot ? &system_[r->system_slot] : nullptr;
    }
    /// A logger just started: its system-logger slot and the classes of later releases begin empty.
    void on_started(std::uint16_t id) noexcept {
        auto const* r = sessions_.find(id);
        if (!r) return;
        if (r->system_slot != no_slot) {
            system_[r->system_slot] = logger_state{};
            system_[r->system_slot].id = r->id;
            system_[r->system_slot].options = r->options;
            // StartTrace's EnableFlags are the group mask's Masks[0] (evntrace.h: EVENT_TRACE_FLAG_* are the
            // first ULONG of PERFINFO_GROUPMASK); an extension (0x80000000) is not modelled: masks stay empty.
            if ((r->properties.enable_flags & 0x80000000U) == 0) system_[r->system_slot].masks.masks[0] = r->properties.enable_flags;
        }
        newer_.reset(r->id);
    }
    /// A ControlTrace(UPDATE) succeeded: it replaced a system logger's EnableFlags (ControlTraceW: "set this
    /// member to 0 to disable all kernel providers"), so Masks[0] follows; the other masks are kept (model
    /// choice: what UPDATE does to Masks[1..7] is not documented). The block holds the logger id written back.
    void on_updated(void const* props) noexcept {
        std::uint64_t h = 0;
        std::memcpy(&h, static_cast<unsigned char const*>(props) + 8, sizeof h); // Wnode.HistoricalContext
        auto const* r = sessions_.find(static_cast<std::uint16_t>(h & 0xFFFFU));
        if (r && r->system_slot != no_slot && (r->properties.enable_flags & 0x80000000U) == 0)
            system_[r->system_slot].masks.masks[0] = r->properties.enable_flags;
    }
    /// The logger a TraceHandle names, with the system-logger-mode rule when required.
    std::int32_t resolve(std::uint64_t trace_handle, bool needs_system_mode, logger_state*& out) noexcept {
        out = nullptr;
        auto const* r = sessions_.find(static_cast<std::uint16_t>(trace_handle & 0xFFFFU));
        if (!r) return ntstatus::wmi_instance_not_found;
        if (r->system_slot == no_slot) return needs_system_mode ? ntstatus::invalid_parameter : ntstatus::success;
        out = &system_[r->system_slot];
        return ntstatus::success;
    }
    /// The disallow list of a running logger, claimed on first use when `claim`; nullptr when the logger
    /// has none (or, claiming, when all max_disallow_lists are held).
    disallow_state* disallow_of(logger_record& r, bool claim) noexcept {
        if (r.disallow_slot != no_slot) return &disallow_[r.disallow_slot];
        if (!claim) return nullptr;
        for (std::uint8_t s = 0; s < max_disallow_lists; ++s) {
            bool taken = false;
            for (auto const& other : sessions_.loggers()) taken = taken || (other.started && other.disallow_slot == s);
            if (!taken) {
                r.disallow_slot = s;
                disallow_[s] = disallow_state{};
                return &disallow_[s];
            }
        }
        return nullptr;
    }

    std::size_t source_index(std::uint32_t source) const noexcept {
        for (std::size_t i = 0; i < source_count_; ++i)
            if (sources_[i].id == source) return i;
        return source_count_;
    }
    /// Clamps to the source's [min, max] (model choice: the HAL's reaction is unspecified).
    std::int32_t set_interval(std::uint32_t source, std::uint32_t value) noexcept {
        auto const i = source_index(source);
        if (i == source_count_) return ntstatus::not_supported; // model choice
        auto const& s = sources_[i];
        intervals_[i] = value < s.min_interval ? s.min_interval : value > s.max_interval ? s.max_interval : value;
        return ntstatus::success;
    }

    static std::uint32_t u32(void const* p, std::size_t off) noexcept { return etwctl::detail::load<std::uint32_t>(p, off); }
    static std::uint64_t u64(void const* p, std::size_t off) noexcept { return etwctl::detail::load<std::uint64_t>(p, off); }

    /// Checks the 0x10-byte head + whole ULONGs of a list request; count = number of ULONGs.
    /// Checks the 0x10-byte head + whole ULONGs of a list request (read by request/decode.hpp, the same
    /// reader the tool and the tests use); count = number of ULONGs.
    static std::int32_t list_shape(decoded_request const& req, std::size_t& count) noexcept {
        if (req.bytes.size() < sizeof(kernel_request_header)) return ntstatus::info_length_mismatch;
        if (!req.well_formed) return ntstatus::invalid_parameter;
        count = req.count;
        return ntstatus::success;
    }

    std::int32_t set_system_information(std::uint32_t information_class, void const* buf, std::uint32_t length) noexcept {
        if (information_class != system_performance_trace_information) return ntstatus::invalid_info_class;
        if (length < 4) return ntstatus::invalid_parameter;
        if (buf == nullptr) return ntstatus::access_violation;
        auto const cls = static_cast<event_trace_information_class>(u32(buf, 0));
        if (kernel_class_missing(u32(buf, 0))) return ntstatus::not_implemented;
        decoded_request const req = decode_request(kernel_function::nt_set_system_information, information_class,
                                                   {static_cast<std::byte const*>(buf), length});
        auto const* ids = static_cast<unsigned char const*>(buf) + sizeof(kernel_request_header);
        if (cls == profile_source_add_class) return add_custom_source(buf, length);
        if (current_windows_model::owns_system_class(u32(buf, 0))) {
            if (auto s = current_windows_model::system_shape(u32(buf, 0), buf, length, privilege_); s < 0) return s;
            logger_state* l = nullptr; // stays nullptr for an ordinary session (no system-logger state)
            if (auto s = resolve(u64(buf, 8), false, l); s < 0) return s; // any session: no system-logger check
            return newer_.set_system(u32(buf, 0), buf, length, static_cast<std::uint16_t>(u64(buf, 8) & 0xFFFFU));
        }
        if (cls == profile_source_remove_class) return remove_custom_source(buf, length);
        switch (cls) {
        case event_trace_information_class::group_mask: {
            if (length != sizeof(kernel_group_mask_request)) return ntstatus::info_length_mismatch;
            logger_state* l = nullptr;
            if (auto s = resolve(req.trace_handle, true, l); s < 0) return s;
            group_mask m;
            for (std::size_t i = 0; i < limits::max_group_masks; ++i) m.masks[i] = req.element(i);
            m = m.normalized();
            if (!privilege_ && (m.contains(perf_profile) || m.contains(perf_pmc_profile))) return ntstatus::privilege_not_held;
            l->masks = m;
            // Masks[0] is the documented EnableFlags (evntrace.h): a query of the session reports it.
            if (auto* r = sessions_.find(l->id)) r->properties.enable_flags = m.masks[0];
            return ntstatus::success;
        }
        case event_trace_information_class::time_profile: {
            if (length != sizeof(kernel_time_profile_request)) return ntstatus::info_length_mismatch;
            if (!privilege_) return ntstatus::privilege_not_held;
            return set_interval(static_cast<std::uint32_t>(profile_source::time), u32(buf, 4));
        }
        case event_trace_information_class::stack_tracing: {
            std::size_t n = 0;
            if (auto s = list_shape(req, n); s < 0) return s;
            if (n > limits::max_stack_tracing_events) return ntstatus::invalid_parameter;
            logger_state* l = nullptr;
            if (auto s = resolve(req.trace_handle, true, l); s < 0) return s;
            std::memcpy(l->hooks, ids, 4 * n);
            l->hook_count = n;
            return ntstatus::success;
        }
        case event_trace_information_class::profile_config: {
            // The kernel's handler (EtwSetPerformanceTraceInformation, class 0x0C, public listings) never
            // reads the TraceHandle: it checks the length, access to SystemTraceControlGuid,
            // SeSystemProfilePrivilege and the count, then sets the machine's profile sources
            // (EtwpSetPmcProfileSource). So it works before any session exists, at handle 0.
            std::size_t n = 0;
            if (auto s = list_shape(req, n); s < 0) return s;
            if (!privilege_) return ntstatus::privilege_not_held;
            if (n == 0 || n > limits::max_profile_sources) return ntstatus::invalid_parameter; // 0: model choice
            for (std::size_t i = 0; i < n; ++i)
                if (source_index(u32(ids, 4 * i)) == source_count_) return ntstatus::not_supported; // model choice
            std::memcpy(config_, ids, 4 * n);
            config_count_ = n;
            return ntstatus::success;
        }
        case event_trace_information_class::profile_event_list: {
            std::size_t n = 0;
            if (auto s = list_shape(req, n); s < 0) return s;
            if (n > limits::max_pmc_events) return ntstatus::invalid_parameter;
            logger_state* l = nullptr;
            if (auto s = resolve(req.trace_handle, true, l); s < 0) return s;
            if (l->pmc_events_set) return ntstatus::wmi_already_enabled;
            // model choice: events whose group is off in the logger's group mask are accepted, as we
            // believe the kernel does (the flags may be turned on later; the events then simply never
            // carry counters). setup_pmc (profiler/pmc.hpp) refuses them before the call instead.
            std::memcpy(l->pmc_events, ids, 4 * n);
            l->pmc_event_count = n;
            l->pmc_events_set = true;
            return ntstatus::success;
        }
        case event_trace_information_class::profile_counter_list: {
            std::size_t n = 0;
            if (auto s = list_shape(req, n); s < 0) return s;
            if (n == 0 || n > max_pmc_counters_ || n > 16) return ntstatus::invalid_parameter;
            // model choice: counters held outside ETW (current_windows().set_external_owner) are not available
            if (n > max_pmc_counters_ - newer_.external_owner_count(max_pmc_counters_)) return ntstatus::insufficient_resources;
            logger_state* l = nullptr;
            if (auto s = resolve(req.trace_handle, true, l); s < 0) return s;
            if (l->options.paged_memory) return ntstatus::invalid_parameter;
            if (!privilege_) return ntstatus::privilege_not_held;
            if (l->pmc_counters_set) return ntstatus::wmi_already_enabled;
            for (std::size_t i = 0; i < n; ++i) {
                auto const src = u32(ids, 4 * i);
                if (src == static_cast<std::uint32_t>(profile_source::time) || source_index(src) == source_count_)
                    return ntstatus::not_supported; // model choice: only the machine's hardware counters
            }
            std::memcpy(l->pmc_counters, ids, 4 * n);
            l->pmc_counter_count = n;
            l->pmc_counters_set = true;
            return ntstatus::success;
        }
        case event_trace_information_class::kernel_version:
        case event_trace_information_class::profile_source_list:
            return ntstatus::not_implemented; // query-only classes
        default:
            return ntstatus::not_implemented; // not modelled
        }
    }

    std::int32_t query_system_information(std::uint32_t information_class, void* buf, std::uint32_t length,
                                          std::uint32_t* return_length) noexcept {
        if (information_class != system_performance_trace_information) {
            if (return_length) *return_length = 0;
            return ntstatus::invalid_info_class;
        }
        if (length < 4) return ntstatus::invalid_parameter;
        if (buf == nullptr) return ntstatus::access_violation;
        auto set_returned = [&](std::uint32_t n) {
            if (return_length) *return_length = n;
        };
        auto const cls = static_cast<event_trace_information_class>(u32(buf, 0));
        if (kernel_class_missing(u32(buf, 0))) return ntstatus::not_implemented;
        switch (cls) {
        case event_trace_information_class::kernel_version: {
            if (length != 8) return ntstatus::info_length_mismatch;
            detail::store(buf, 4, kernel_version_);
            set_returned(8);
            return ntstatus::success;
        }
        case event_trace_information_class::group_mask: {
            if (length != sizeof(kernel_group_mask_request)) return ntstatus::info_length_mismatch;
            logger_state* l = nullptr;
            if (auto s = resolve(u64(buf, 8), true, l); s < 0) return s;
            std::memcpy(static_cast<unsigned char*>(buf) + 0x10, l->masks.masks, sizeof l->masks.masks);
            set_returned(sizeof(kernel_group_mask_request));
            return ntstatus::success;
        }
        case event_trace_information_class::time_profile: {
            if (length != sizeof(kernel_time_profile_request)) return ntstatus::info_length_mismatch;
            detail::store(buf, 4, interval(static_cast<std::uint32_t>(profile_source::time)));
            set_returned(8);
            return ntstatus::success;
        }
        case event_trace_information_class::profile_source_list: {
            std::uint64_t const needed64 = kernel_profile_list_records_offset + profile_list_size();
            if (needed64 > 0xFFFFFFFFULL) return ntstatus::insufficient_resources; // cannot happen under the name cap
            auto const needed = static_cast<std::uint32_t>(needed64);
            set_returned(needed);
            if (length < needed) return ntstatus::info_length_mismatch;
            write_profile_list(static_cast<std::byte*>(buf) + kernel_profile_list_records_offset,
                               length - kernel_profile_list_records_offset);
            return ntstatus::success;
        }
        case event_trace_information_class::stack_tracing:
        case event_trace_information_class::profile_config:
        case event_trace_information_class::profile_event_list:
        case event_trace_information_class::profile_counter_list:
            return ntstatus::not_implemented; // set-only classes: the stack list cannot be read back
        default:
            return ntstatus::not_implemented;
        }
    }

    /// 64-bit: a 2^31-character name must not wrap to a small record (set_profile_sources caps names
    /// anyway; this keeps the arithmetic honest for any name).
    static constexpr std::uint64_t record_size(profile_source_desc const& s) noexcept {
        std::uint64_t const raw = std::uint64_t{profile_source_info_description_offset} + 2 * (std::uint64_t{s.name.size()} + 1);
        return (raw + 7U) & ~std::uint64_t{7}; // 8-aligned records (they hold a ULONG64)
    }
    std::uint64_t profile_list_size() const noexcept {
        std::uint64_t n = 0;
        for (std::size_t i = 0; i < source_count_; ++i) n += record_size(sources_[i]);
        return n;
    }
    /// Writes the records into out[0, capacity). Each record is checked to hold its header and to fit
    /// (gcc's -Warray-bounds at -O3 cannot prove it from the caller's size check alone).
    void write_profile_list(std::byte* out, std::size_t capacity) const noexcept {
        std::size_t off = 0;
        for (std::size_t i = 0; i < source_count_; ++i) {
            auto const& s = sources_[i];
            std::uint64_t const size64 = record_size(s);
            if (size64 < sizeof(profile_source_info_header) || size64 > capacity - off) return;
            auto const size = static_cast<std::uint32_t>(size64); // <= capacity, a ULONG length
            profile_source_info_header h;
            h.next_entry_offset = i + 1 == source_count_ ? 0 : size;
            h.source = s.id;
            h.min_interval = s.min_interval;
            h.max_interval = s.max_interval;
            std::memset(out + off, 0, size);
            std::memcpy(out + off, &h, sizeof h);
            for (std::size_t c = 0; c < s.name.size(); ++c)
                out[off + profile_source_info_description_offset + 2 * c] = static_cast<std::byte>(s.name[c]);
            off += size;
        }
    }

    std::int32_t trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                               std::uint32_t out_length, std::uint32_t* return_length) noexcept {
        if (return_length == nullptr) return ntstatus::invalid_parameter;
        if (code < 64 && (missing_codes_ & (std::uint64_t{1} << code)) != 0) return ntstatus::invalid_device_request;
        if (current_windows_model::owns_control(code))
            return newer_.control(*this, code, in, in_length, out, out_length, return_length);
        switch (code) {
        case etwctl::trace_control::update_disallow_list: {
            if (in == nullptr || in_length < 8) return ntstatus::invalid_parameter;
            std::uint32_t const count = u32(in, 4);
            if (std::uint64_t{8} + 16ULL * count != in_length) return ntstatus::invalid_parameter;
            logger_record* r = sessions_.find(static_cast<std::uint16_t>(u32(in, 0) & 0xFFFFU));
            if (!r) return ntstatus::wmi_instance_not_found;
            if (count > limits::max_disallow_list) return ntstatus::insufficient_resources;
            disallow_state* d = disallow_of(*r, count != 0);
            if (d == nullptr && count != 0) return ntstatus::insufficient_resources; // model choice: the sim's capacity
            if (d) {
                std::memcpy(d->guids, static_cast<unsigned char const*>(in) + 8, 16ULL * count);
                d->count = count;
                if (count == 0) r->disallow_slot = no_slot; // an empty list frees the slot
            }
            *return_length = 0;
            return ntstatus::success;
        }
        case etwctl::trace_control::get_disallow_list: {
            if (in == nullptr || in_length != 8) return ntstatus::invalid_parameter;
            logger_record* r = sessions_.find(static_cast<std::uint16_t>(u64(in, 0) & 0xFFFFU));
            if (!r) return ntstatus::wmi_instance_not_found;
            disallow_state const* d = disallow_of(*r, false);
            auto const needed = static_cast<std::uint32_t>(d ? 16 * d->count : 0);
            *return_length = needed;
            if (out_length < needed) return ntstatus::buffer_too_small;
            if (needed) std::memcpy(out, d->guids, needed);
            return ntstatus::success;
        }
        case logger_query::control_code: {
            // The query by name: WMI_LOGGER_INFORMATION in and out; the answer is the logger's
            // TRACEHANDLE in Wnode.HistoricalContext (this model: the logger id).
            logger_query::wmi_logger_information info;
            if (in == nullptr || out == nullptr || in_length < sizeof info || out_length < sizeof info)
                return ntstatus::invalid_parameter;
            std::memcpy(&info, in, sizeof info);
            auto const& n = info.logger_name;
            if (n.buffer == nullptr || n.length == 0 || n.length % 2 != 0) return ntstatus::invalid_parameter;
            // names compare case-insensitively, as everywhere (session/checks.hpp session_names_equal)
            auto const* r = sessions_.find_by_name(std::u16string_view(n.buffer, n.length / 2u));
            if (r) {
                info.wnode.historical_context = r->id;
                std::memcpy(out, &info, sizeof info);
                *return_length = static_cast<std::uint32_t>(sizeof info);
                return ntstatus::success;
            }
            return ntstatus::wmi_instance_not_found;
        }
        default:
            return ntstatus::invalid_device_request;
        }
    }

    // model choice: a REGHANDLE is 1 in the high dword and slot + 1 in the low dword.
    static constexpr std::uint64_t handle_of(std::size_t index) noexcept { return (std::uint64_t{1} << 32) | (index + 1); }
    registration* find_registration(std::uint64_t h) noexcept {
        if (h == 0 || (h >> 32) != 1) return nullptr;
        std::uint64_t const i = (h & 0xFFFFFFFFULL) - 1;
        return i < max_registrations && regs_[i].used ? &regs_[i] : nullptr;
    }
    registration const* find_registration(std::uint64_t h) const noexcept {
        return const_cast<kernel*>(this)->find_registration(h);
    }

    std::uint32_t set_event_information(std::uint64_t h, std::uint32_t cls, void const* info, std::uint32_t length) noexcept {
        registration* r = find_registration(h);
        if (!r) return win32::invalid_handle;
        switch (cls) {
        case 0:
            if (length != 0) return win32::invalid_parameter;
            r->binary_tracked = true;
            return win32::success;
        case 2: {
            if (info == nullptr || length < 3 || length > 0xFFFF) return win32::invalid_parameter;
            if (r->kind == provider_kind::classic) return nt_status_to_win32(ntstatus::invalid_parameter);
            if (r->traits_size != 0) return nt_status_to_win32(ntstatus::unsuccessful); // once per registration
            std::span<std::byte const> blob(static_cast<std::byte const*>(info), length);
            if (check_provider_traits(blob) != rule::ok) return nt_status_to_win32(ntstatus::file_corrupt_error);
            if (length > max_traits_size) return nt_status_to_win32(ntstatus::insufficient_resources);
            std::memcpy(r->traits, info, length);
            r->traits_size = length;
            r->descriptor_type = true; // setting traits also honours EVENT_DATA_DESCRIPTOR.Type
            return win32::success;
        }
        case 3: {
            if (info == nullptr || length != 1) return win32::invalid_parameter;
            auto const v = *static_cast<unsigned char const*>(info);
            if (v > 1) return nt_status_to_win32(ntstatus::invalid_parameter);
            r->descriptor_type = v == 1;
            return win32::success;
        }
        default:
            return win32::not_supported;
        }
    }

    session_model sessions_{};
    logger_state system_[max_system_loggers] = {};
    disallow_state disallow_[max_disallow_lists] = {};
    std::uint32_t missing_session_ = 0;
    registration regs_[max_registrations] = {};
    profile_source_desc sources_[max_profile_sources_known] = {};
    std::uint32_t intervals_[max_profile_sources_known] = {};
    std::size_t source_count_ = 0;
    std::uint32_t config_[limits::max_profile_sources] = {};
    std::size_t config_count_ = 0;
    bool privilege_ = true;
    bool privilege_held_ = true;
    bool admin_or_log_users_ = true;
    std::uint32_t max_pmc_counters_ = limits::max_pmc_counters;
    std::uint32_t kernel_version_ = default_kernel_version;
    std::uint32_t missing_ = 0;
    std::int32_t injected_status_ = 0;
    std::uint32_t injected_calls_ = 0;
    recorded_request records_[max_records] = {};
    std::size_t record_count_ = 0;
    std::byte arena_[record_arena_size] = {};
    std::size_t arena_used_ = 0;
    std::size_t dropped_ = 0;
    std::uint32_t missing_classes_ = 0;
    current_windows_model newer_{};
    std::uint64_t missing_codes_ = 0;

    // ---- custom profile sources (see the public section for the model) ----
    struct custom_source {
        bool used = false;
        std::uint32_t id = 0;
        std::uint8_t version = 0;
        std::uint8_t counter[8] = {};
        char name[profile_add_description_capacity + 1] = {};
    };
    custom_source custom_[max_custom_sources] = {};

    bool kernel_class_missing(std::uint32_t kernel_class) const noexcept {
        return kernel_class < 32 && (missing_classes_ & (1U << kernel_class)) != 0;
    }
    bool is_custom(std::size_t index) const noexcept {
        for (auto const& c : custom_)
            if (c.used && c.id == sources_[index].id) return true;
        return false;
    }
    std::int32_t add_custom_source(void const* buf, std::uint32_t length) noexcept {
        if (!admin_or_log_users_) return ntstatus::access_denied;
        if (length < profile_add_min_length || length > profile_add_max_length) return ntstatus::info_length_mismatch;
        auto const* p = static_cast<unsigned char const*>(buf);
        std::uint8_t const version = p[4];
        if (version != profile_add_version_2 && version != profile_add_version_3) return ntstatus::revision_mismatch;
        char name[profile_add_description_capacity + 1] = {};
        std::size_t n = 0;
        bool terminated = false;
        for (std::size_t o = profile_add_description_offset; o + 1 < length; o += 2) {
            auto const c = static_cast<char16_t>(p[o] | (p[o + 1] << 8));
            if (c == 0) {
                terminated = true;
                break;
            }
            if (n == profile_add_description_capacity) return ntstatus::invalid_parameter;
            name[n++] = c < 0x80 ? static_cast<char>(c) : '?';
        }
        if (!terminated || n == 0) return ntstatus::invalid_parameter;
        for (std::size_t i = 0; i < source_count_; ++i)
            if (sources_[i].name == std::string_view(name, n)) return ntstatus::object_name_collision;
        custom_source* slot = nullptr;
        for (auto& c : custom_)
            if (!c.used) {
                slot = &c;
                break;
            }
        if (!slot || source_count_ == max_profile_sources_known) return ntstatus::insufficient_resources;
        std::uint32_t id = 0;
        for (std::size_t i = 0; i < source_count_; ++i) id = sources_[i].id >= id ? sources_[i].id + 1 : id;
        *slot = custom_source{};
        slot->used = true;
        slot->id = id;
        slot->version = version;
        std::memcpy(slot->counter, p + 8, 8);
        std::memcpy(slot->name, name, n);
        std::uint32_t const initial = u32(buf, 0x1C);
        sources_[source_count_] = {id, std::string_view(slot->name, n), initial, pmc_min, pmc_max};
        intervals_[source_count_] = initial < pmc_min ? pmc_min : initial > pmc_max ? pmc_max : initial;
        ++source_count_;
        return ntstatus::success;
    }
    std::int32_t remove_custom_source(void const* buf, std::uint32_t length) noexcept {
        if (!admin_or_log_users_) return ntstatus::access_denied;
        if (length != sizeof(kernel_profile_remove_request)) return ntstatus::info_length_mismatch;
        std::uint32_t const id = u32(buf, 4);
        std::size_t const i = source_index(id);
        if (i == source_count_) return ntstatus::not_supported;
        if (!is_custom(i)) return ntstatus::access_denied;
        for (auto& c : custom_)
            if (c.used && c.id == id) c.used = false;
        for (std::size_t j = i; j + 1 < source_count_; ++j) {
            sources_[j] = sources_[j + 1];
            intervals_[j] = intervals_[j + 1];
        }
        --source_count_;
        return ntstatus::success;
    }
};

static_assert(etwctl::kernel<kernel>);
static_assert(etwctl::kernel_with_availability<kernel>);
static_assert(etwctl::kernel_with_privileges<kernel>);

} // namespace sim
ETWCTL_END_NAMESPACE
