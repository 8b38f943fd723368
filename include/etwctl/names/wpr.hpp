// SPDX-License-Identifier: MIT
// etwctl/names/wpr.hpp - Windows Performance Recorder's names: the SystemProvider keywords of a .wprp
// profile (<Keyword Value="CSwitch"/>) with the group-mask value each stands for, and WPR's Stack names
// (<Stack Value="SampledProfile"/>), which resolve to rows of names/events.hpp's kernel_event_table.
// Both lists are the enumerations of WPR's schema, WPRControlProfiles.xsd (shipped with the Windows
// Performance Toolkit; a public copy is in github.com/ktjjang/WPA), in the schema's order.
//
// Keyword values (every one inferred: no Microsoft page gives them):
//   decoded_table - brycehutchings/InstantTraceViewer src/InstantTraceViewerUI/Etw/Wprp.cs @48e6682d
//                   (2024) writes each WPR keyword as TraceEvent KernelTraceEventParser.Keywords
//                   members; with TraceEvent's values (its pseudo-bits 0x20000000 / 0x40000000 are the
//                   Masks[1] / Masks[2] index bits) each decodes to exactly one phnt ntwmi.h PERF_* or
//                   EVENT_TRACE_FLAG_* value. KeClock, KernelQueue and IdleStates come from there, which
//                   also gives xperf's KE_CLOCK, KQUEUE and IDLE_STATES their values (names/flags.hpp).
//   name_match    - the keyword matches a phnt ntwmi.h PERF_* constant by name only.
// The plain keywords CSwitch, DPC, Drivers, Interrupt, ReadyThread, SampledProfile, SystemCall and
// VirtualAllocation stand for the Masks[0] alias bit (EVENT_TRACE_FLAG_*), not the PERF_* bit of
// Masks[1]/Masks[2]: that table gives the extended bits to separate "_Internal" keywords, which WPR's
// 2022 schema does not list. The kernel treats both spellings alike (group_mask.hpp).
// Keywords no public source gives a value for are in wpr_keyword_without_value: known, refused by
// name (rule::parse_name_without_value), never guessed.
//
// The lists are tests/data/wpr_schema_keywords.txt and tests/data/wpr_schema_stacks.txt, checked by
// tests/tables/test_wpr_names.cpp. Parsing: parse_wpr_keywords / wpr_keywords<"..."> (below, on names/parse.hpp's parser);
// stack names go through parse_stack_walk / stack_walk<"..."> like every other event name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/names/parse.hpp"

ETWCTL_BEGIN_NAMESPACE

/// Where a WPR keyword's value comes from (see the header comment). Both are inferences.
enum class wpr_value_source : std::uint8_t { decoded_table, name_match };

/// A SystemProvider keyword of a .wprp profile and the group-mask value it stands for.
struct wpr_keyword {
    detail::table_text name; ///< as WPR's schema spells it (a std::string_view)
    perf_flag value;         ///< Masks[] index in bits 29-31, the bits of that mask in 0-28
    wpr_value_source source; ///< how the value was found (inferred either way)
    bool on_learn = false;   ///< also in the keyword table of learn.microsoft.com (wpt/keyword--in-systemprovider-)
};

namespace detail {
/// An EVENT_TRACE_FLAG_* bit as the Masks[0] value it is.
consteval perf_flag masks0(std::uint32_t enable_flag) { return perf_flag{enable_flag}; }
} // namespace detail

// clang-format off
inline constexpr wpr_keyword wpr_keyword_table[] = {
    {"AllFaults", perf::all_faults, wpr_value_source::decoded_table, true},
    {"Alpc", perf::alpc, wpr_value_source::decoded_table, false},
    {"AntiStarvation", perf::anti_starvation, wpr_value_source::decoded_table, false},
    {"CacheFlush", perf::cache_flush, wpr_value_source::name_match, false},
    {"CC", perf::cc, wpr_value_source::name_match, false},
    {"ClockInterrupt", perf::clock_interrupt, wpr_value_source::name_match, false},
    {"ClusterOff", perf::cluster_off, wpr_value_source::name_match, false},
    {"CompactCSwitch", perf::compact_cswitch, wpr_value_source::decoded_table, true},
    {"ContiguousMemorygeneration", perf::contmem_gen, wpr_value_source::decoded_table, true},
    {"CpuConfig", perf::cpu_config, wpr_value_source::decoded_table, true},
    {"CSwitch", detail::masks0(event_trace_flag::cswitch), wpr_value_source::decoded_table, true},
    {"DiskIO", perf::disk_io, wpr_value_source::decoded_table, true},
    {"DiskIOInit", perf::disk_io_init, wpr_value_source::decoded_table, true},
    {"DPC", detail::masks0(event_trace_flag::dpc), wpr_value_source::decoded_table, true},
    {"DPCQueue", perf::dpc_queue, wpr_value_source::name_match, false},
    {"Drivers", detail::masks0(event_trace_flag::driver), wpr_value_source::decoded_table, true},
    {"FileIO", perf::file_io, wpr_value_source::decoded_table, true},
    {"FileIOInit", perf::file_io_init, wpr_value_source::decoded_table, true},
    {"Filename", perf::filename, wpr_value_source::decoded_table, true},
    {"FilterIO", perf::flt_io, wpr_value_source::name_match, false},
    {"FilterIOFailure", perf::flt_io_failure, wpr_value_source::name_match, false},
    {"FilterIOFastIO", perf::flt_fastio, wpr_value_source::name_match, false},
    {"FilterIOInit", perf::flt_io_init, wpr_value_source::name_match, false},
    {"FootPrint", perf::footprint, wpr_value_source::decoded_table, true},
    {"KeClock", perf::clock_timer, wpr_value_source::decoded_table, false}, // = xperf KE_CLOCK
    {"Handle", perf::ob_handle, wpr_value_source::name_match, false},
    {"HardFaults", perf::hard_faults, wpr_value_source::decoded_table, true},
    {"IdleStates", perf::processor_idle, wpr_value_source::decoded_table, true}, // = xperf IDLE_STATES
    {"InterProcessorInterrupt", perf::ipi, wpr_value_source::decoded_table, false},
    {"Interrupt", detail::masks0(event_trace_flag::interrupt), wpr_value_source::decoded_table, true},
    {"KernelQueue", perf::kernel_queue, wpr_value_source::decoded_table, true}, // = xperf KQUEUE
    {"Loader", perf::loader, wpr_value_source::decoded_table, true},
    {"Memory", perf::memory, wpr_value_source::decoded_table, true},
    {"MemoryInfo", perf::meminfo, wpr_value_source::name_match, true},
    {"MemoryInfoWS", perf::meminfo_ws, wpr_value_source::decoded_table, false},
    {"NetworkTrace", perf::network, wpr_value_source::decoded_table, false},
    {"Object", perf::ob_object, wpr_value_source::name_match, false},
    {"OpticalIO", perf::optical_io, wpr_value_source::name_match, false},
    {"OpticalIOInit", perf::optical_io_init, wpr_value_source::name_match, false},
    {"Pool", perf::pool, wpr_value_source::decoded_table, true},
    {"Power", perf::power, wpr_value_source::name_match, true},
    {"PmcProfile", perf::pmc_profile, wpr_value_source::decoded_table, false},
    {"ProcessCounter", perf::perf_counter, wpr_value_source::decoded_table, true},
    {"ProcessFreeze", perf::process_freeze, wpr_value_source::decoded_table, false},
    {"ProcessThread", perf::proc_thread, wpr_value_source::decoded_table, true},
    {"ReadyThread", detail::masks0(event_trace_flag::dispatcher), wpr_value_source::decoded_table, true},
    {"ReferenceSet", perf::refset, wpr_value_source::decoded_table, false},
    {"Registry", perf::registry, wpr_value_source::decoded_table, true},
    {"RegistryHive", perf::reg_hive, wpr_value_source::decoded_table, false},
    {"SampledProfile", detail::masks0(event_trace_flag::profile), wpr_value_source::decoded_table, true},
    {"Session", perf::session, wpr_value_source::decoded_table, false},
    {"SpinLock", perf::spinlock, wpr_value_source::decoded_table, true},
    {"SplitIO", perf::split_io, wpr_value_source::decoded_table, true},
    {"SynchronizationObjects", perf::sync_objects, wpr_value_source::decoded_table, false},
    {"SystemCall", detail::masks0(event_trace_flag::system_call), wpr_value_source::decoded_table, true},
    {"ThreadPriority", perf::priority, wpr_value_source::decoded_table, true},
    {"Timer", perf::timer, wpr_value_source::decoded_table, true},
    {"VAMap", perf::vamap, wpr_value_source::decoded_table, false},
    {"VirtualAllocation", detail::masks0(event_trace_flag::virtual_alloc), wpr_value_source::decoded_table, true},
    {"WakeCounter", perf::wake_counter, wpr_value_source::name_match, false},
    {"WakeDrop", perf::wake_drop, wpr_value_source::name_match, false},
    {"WakeEvent", perf::wake_event, wpr_value_source::name_match, false},
    {"WDFDPC", perf::wdf_dpc, wpr_value_source::name_match, false},
    {"WDFInterrupt", perf::wdf_interrupt, wpr_value_source::name_match, false},
    {"HiberRundown", perf::hiber_rundown, wpr_value_source::name_match, false},
};
// clang-format on

/// WPR keywords no public source gives a group-mask value for.
inline constexpr known_name_without_value wpr_keyword_without_value[] = {
    {"HvHypercalls", "WPR's SystemProvider keywords (WPRControlProfiles.xsd); phnt's PERF_HV_PROFILE is a different thing, and learn.microsoft.com names PERF_HV_CALLOUTS without a value"},
    {"IdealProcessor", "WPR's SystemProvider keywords (WPRControlProfiles.xsd); learn.microsoft.com names PERF_IDEAL_PROCESSOR without a value"},
    {"NonTradeableMemory", "WPR's SystemProvider keywords (WPRControlProfiles.xsd); no PERF_* constant (SYSTEM_MEMORY_KW_NONTRADEABLE is a System Provider keyword, not a group-mask value)"},
};

/// WPR's Stack names that have a hook id (the schema's other four are in kernel_event_without_hook).
/// Each is a name of kernel_event_table.
inline constexpr detail::table_text wpr_stack_names[] = {
    "AlpcClosePort", "AlpcConnectFail", "AlpcConnectRequest", "AlpcConnectSuccess", "AlpcReceiveMessage",
    "AlpcSendMessage", "AlpcUnwait", "AlpcWaitForNewMessage", "AlpcWaitForReply", "CcCanIWriteFail", "CcFlushCache",
    "CcFlushSection", "CcLazyWriteScan", "CcReadAhead", "CcWorkitemComplete", "CcWorkitemDequeue",
    "CcWorkitemEnqueue", "CcWriteBehind", "ContiguousMemoryGeneration", "CacheFlush", "CSwitch", "DiskFlushInit",
    "DiskReadInit", "DiskWriteInit", "DpcEnqueue", "DpcExecute", "ExecutiveResource", "FileCleanup", "FileClose",
    "FileCreate", "FileDelete", "FileDirEnum", "FileDirNotify", "FileFlush", "FileFSCTL", "FileOpEnd",
    "FileQueryInformation", "FileRead", "FileRename", "FileSetInformation", "FileWrite", "HandleCreate",
    "HandleClose", "HandleDuplicate", "HardFault", "HeapAllocation", "HeapCreate", "HeapDestroy", "HeapFree",
    "HeapRangeCreate", "HeapRangeDestroy", "HeapRangeRelease", "HeapRangeReserve", "HeapReallocation", "ImageLoad",
    "ImageUnload", "InterProcessorInterrupt", "KernelQueueEnqueue", "KernelQueueDequeue", "MapFile", "Mark",
    "MiniFilterPreOpInit", "MiniFilterPostOpInit", "ObjectCreate", "ObjectDelete", "ObjectReference",
    "ObjectDeReference", "PageAccess", "PageAccessEx", "PagefaultAV", "PagefaultCopyOnWrite", "PagefaultDemandZero",
    "PagefaultGuard", "PagefaultHard", "PagefaultTransition", "PagefileBackedImageMapping",
    "PagefileMappedSectionCreate", "PagefileMappedSectionDelete", "PageRangeAccess", "PageRangeRelease",
    "PageRelease", "PageRemovedfromWorkingSet", "PmcInterrupt", "PoolAllocation", "PoolAllocationSession",
    "PoolFree", "PoolFreeSession", "PowerDeviceNotify", "PowerDeviceNotifyComplete", "PowerIdleStateChange",
    "PowerPerfStateChange", "PowerPostSleep", "PowerPreSleep", "PowerSessionCallout", "PowerSessionCalloutReturn",
    "PowerSetDevicesState", "PowerSetDevicesStateReturn", "PowerSetPowerAction", "PowerSetPowerActionReturn",
    "PowerThermalConstraint", "ProcessCreate", "ProcessDelete", "ProcessFreeze", "ProcessResume", "SampledProfile",
    "SampledProfileSetInterval", "ReadyThread", "RegistryCloseKey", "RegistryCreateKey", "RegistryDeleteKey",
    "RegistryDeleteValue", "RegistryEnumerateKey", "RegistryEnumerateValueKey", "RegistryFlush",
    "RegistryKcbCreate", "RegistryKcbDelete", "RegistryOpenKey", "RegistryQueryKey", "RegistryQueryMultipleValue",
    "RegistryQuerySecurity", "RegistryQueryValue", "RegistrySetInformation", "RegistrySetSecurity",
    "RegistrySetValue", "RegistryVirtualize", "RegHiveInit", "RegHiveDestroy", "RegHiveLink", "RegHiveDirty",
    "SplitIO", "SystemCallEnter", "SystemCallExit", "ThreadCreate", "ThreadDCEnd", "ThreadDCStart", "ThreadDelete",
    "ThreadPoolCallbackCancel", "ThreadPoolCallbackDequeue", "ThreadPoolCallbackEnqueue", "ThreadPoolCallbackStart",
    "ThreadPoolCallbackStop", "ThreadPoolCancelNtTimer", "ThreadPoolClose", "ThreadPoolCreate",
    "ThreadPoolSetMaxThreads", "ThreadPoolSetMinThreads", "ThreadPoolSetNtTimer", "ThreadPoolTimerSet",
    "ThreadPoolTimerCancelled", "ThreadPoolTimerExpirationBegin", "ThreadPoolTimerExpirationEnd",
    "ThreadPoolTimerExpiration", "ThreadSetBasePriority", "ThreadSetPriority", "TimerPeriodic", "TimerOneShot",
    "UnMapFile", "VirtualAllocation", "VirtualFree", "WakeChargeUser", "WakeChargeExecution", "WakeChargeKernel",
    "WakeChargeInstrumentation", "WakeReleaseUser", "WakeReleaseExecution", "WakeReleaseKernel",
    "WakeReleaseInstrumentation", "WakeDropUser", "WakeDropExecution", "WakeDropKernel", "WakeDropInstrumentation",
    "WakeEventUser", "WakeEventExecution", "WakeEventKernel", "WakeEventInstrumentation",
};

/// WPR's Stack names that no public source gives a hook id for (each is a row of kernel_event_without_hook):
/// with wpr_stack_names, the schema's whole Stack enumeration.
inline constexpr detail::table_text wpr_stack_names_without_hook[] = {"KernelHypercalls", "PopSetUserPresent",
                                                                    "ThreadSetIdealProcessor", "ThreadSetUserIdealProcessor"};

namespace detail {
constexpr bool list_name_ok(std::string_view n) noexcept {
    if (n.empty()) return false;
    for (char c : n)
        if (c == '+' || c == ' ' || c == '\t') return false; // would not survive parsing
    return true;
}
/// WPR's lists, and every known_name_without_value table: names unique and parseable; every keyword has
/// bits; every Stack name is a kernel_event_table name; no name both has a value and is listed without one.
template <class = void> // a template: clang would otherwise evaluate the whole check in every TU (its test of a parameterless constexpr function)
constexpr bool wpr_tables_well_formed() noexcept {
    for (auto const& k : wpr_keyword_table)
        if (!list_name_ok(k.name) || k.value.bits() == 0 || find_without_value(wpr_keyword_without_value, k.name)) return false;
    for (auto n : wpr_stack_names)
        if (!find_kernel_event(n) || find_without_value(kernel_event_without_hook, n)) return false;
    if (!names_unique(wpr_keyword_table, [](wpr_keyword const& k) { return k.name; }) ||
        !names_unique(wpr_stack_names, [](std::string_view n) { return n; }))
        return false;
    for (auto const& w : kernel_event_without_hook)
        if (!list_name_ok(w.name) || find_kernel_event(w.name)) return false;
    for (auto const& w : xperf_kernel_flag_without_value)
        if (!list_name_ok(w.name) || find_xperf_kernel_flag(w.name)) return false;
    for (auto const& w : wpr_keyword_without_value)
        if (!list_name_ok(w.name)) return false;
    for (auto n : wpr_stack_names_without_hook)
        if (!find_without_value(kernel_event_without_hook, n)) return false;
    return true;
}
} // namespace detail

/// WPR keyword -> row (case-insensitive), or nullptr.
constexpr wpr_keyword const* find_wpr_keyword(std::string_view name) noexcept {
    for (auto const& k : wpr_keyword_table)
        if (detail::iequals(k.name, name)) return &k;
    return nullptr;
}
/// A WPR keyword published without a value -> row, or nullptr.
constexpr known_name_without_value const* find_wpr_keyword_without_value(std::string_view name) noexcept {
    return detail::find_without_value(wpr_keyword_without_value, name);
}
/// WPR's own spelling of a Stack name (case-insensitive match), or "" if WPR's schema does not list it.
constexpr std::string_view wpr_stack_name(std::string_view name) noexcept {
    for (auto n : wpr_stack_names)
        if (detail::iequals(n, name)) return n;
    return {};
}
/// WPR Stack name -> its kernel event (case-insensitive), or nullptr if WPR does not list the name or
/// no public source gives its hook id.
constexpr kernel_event const* find_wpr_stack(std::string_view name) noexcept {
    return wpr_stack_name(name).empty() ? nullptr : find_kernel_event(name);
}


// ---- WPR keyword lists: parse_wpr_keywords (run time) and wpr_keywords<"..."> (compile time), on
// names/parse.hpp's one group-mask list parser.
namespace detail {
constexpr std::string_view nearest_wpr_keyword(std::string_view token) noexcept {
    return nearest_name{token}.in(wpr_keyword_table).result();
}
/// The nearest of WPR's Stack names (for a .wprp, whose Stack values are WPR's names only).
constexpr std::string_view nearest_wpr_stack_name(std::string_view token) noexcept {
    nearest_name n{token};
    for (auto name : wpr_stack_names) n.consider(name);
    return n.result();
}

/// One WPR keyword -> the bits it sets. Every WPR keyword is a value within one mask, so no row is
/// needed to tell duplicates apart (flag_key).
constexpr bool resolve_wpr_keyword(std::string_view name, group_mask& out, std::size_t* = nullptr) noexcept {
    if (auto const* k = find_wpr_keyword(name)) {
        out = group_mask(k->value);
        return true;
    }
    return resolve_raw_mask(name, out);
}

inline constexpr mask_names wpr_keyword_names{resolve_wpr_keyword, nearest_wpr_keyword, find_wpr_keyword_without_value};
} // namespace detail

/// Parses WPR's SystemProvider keywords, "ProcessThread+Loader+CSwitch", into a group mask (a set
/// union over the 8 masks). out is written only on success.
constexpr rule parse_wpr_keywords(std::string_view text, group_mask& out, parse_error* err = nullptr) noexcept {
    return detail::parse_mask_list(text, out, err, detail::wpr_keyword_names);
}

namespace diagnostic {
template <class Name, class Suggestion>
struct unknown_wpr_keyword {
    static_assert(always_false<Name, Suggestion>,
                  "etwctl::wpr_keywords: unknown WPR keyword; the name<...> above is the unknown one, did_you_mean<...> "
                  "the nearest WPR keyword (all keywords: docs/reference.md)");
    static constexpr bool value = true;
};
template <class Name>
struct wpr_keyword_without_public_value {
    static_assert(always_false<Name>,
                  "etwctl::wpr_keywords: the name<...> above is a WPR keyword whose group-mask value no public source "
                  "gives; etwctl does not guess one: give the value as 0x........ if you know it (docs/reference.md)");
    static constexpr bool value = true;
};
template <class Name>
struct duplicate_wpr_keyword {
    static_assert(always_false<Name>,
                  "etwctl::wpr_keywords: keyword named twice (the name<...> above sets exactly the bits of an earlier "
                  "name); give each keyword once");
    static constexpr bool value = true;
};
template <class Offset>
struct empty_name_in_wpr_keywords {
    static_assert(always_false<Offset>,
                  "etwctl::wpr_keywords: empty name (a stray '+') at the character offset at_offset<...> above");
    static constexpr bool value = true;
};
} // namespace diagnostic

namespace detail {
struct wpr_keyword_messages {
    static constexpr mask_names const* scheme = &wpr_keyword_names;
    template <class Name, class Suggestion>
    using unknown = diagnostic::unknown_wpr_keyword<Name, Suggestion>;
    template <class Name>
    using without_value = diagnostic::wpr_keyword_without_public_value<Name>;
    template <class Name>
    using duplicate = diagnostic::duplicate_wpr_keyword<Name>;
    template <class Offset>
    using empty = diagnostic::empty_name_in_wpr_keywords<Offset>;
};
} // namespace detail

/// The group mask of a list of WPR SystemProvider keywords ("ProcessThread+Loader+CSwitch"), computed
/// by the compiler. An unknown keyword does not compile and names the nearest one; a keyword WPR lists
/// without a public value (HvHypercalls, ...) does not compile either, and says so.
template <fixed_string S>
inline constexpr group_mask wpr_keywords = detail::mask_list_impl<detail::wpr_keyword_messages, S>::value;

ETWCTL_END_NAMESPACE
