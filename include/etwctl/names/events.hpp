// SPDX-License-Identifier: MIT
// etwctl/names/events.hpp - named kernel events, in xperf's stack-walk naming (CSwitch, ReadyThread,
// Profile, ...), joined to the classic GUID + event type and to the 16-bit hook id the kernel uses.
//
// One row per (name, group, type). The group is looked up by its GUID name in names/groups.hpp's
// table at compile time, so a group number or GUID is written down only there; the hook id is
// computed (group << 8 | type); the enabling flag is a perf:: constant from names/flags.hpp.
// Sources: hook ids = EVENT_TRACE_GROUP_* | type, from phnt ntwmi.h (PERFINFO_LOG_TYPE_* /
// WMI_LOG_TYPE_*) and the SDK's evntrace.h (EVENT_TRACE_TYPE_*, registry types); names from
// `xperf -help stackwalk` as published on https://learn.microsoft.com/en-us/windows-hardware/test/wpt/stackwalk
// (the list is tests/data/xperf_stackwalk_names.txt; a test keeps the xperf_name column equal to it).
//
// Windows Performance Recorder's Stack names (.wprp) are here too: names/wpr.hpp lists them, and each
// resolves to a row of this table - the same row as xperf's name where WPR uses it, an alias row where
// WPR spells xperf's name out (SampledProfile for Profile, RegistryOpenKey for RegOpenKey,
// VirtualAllocation for VirtualAlloc, ...), and a row of its own, with the hook id of a phnt ntwmi.h
// PERFINFO_LOG_TYPE_* constant matched by name, where xperf has no name (ProcessFreeze, Wake*,
// ThreadPoolTimer*, ...). The list is tests/data/wpr_schema_stacks.txt, checked by tests/tables/test_wpr_names.cpp.
//
// Columns: xperf_name = false marks a name xperf does not know (WPR's, etwctl's own, or an earlier
// etwctl spelling kept as an alias); inferred = etwctl chose the name; inferred_flag = the enabling
// flag is etwctl's reading (the public sources lump the event with a flag, disagree, or say nothing).
// Names no public source gives a hook id for (xperf's ThreadSetIdealProcessor, Kernel*, WPR's
// KernelHypercalls, ...) are in kernel_event_without_hook below: known, refused by name, never guessed.
//
// Image load - the sources disagree, etwctl follows the kernel:
//   The kernel logs image loads as hook 0x030A (PROCESS group, type 10 = EVENT_TRACE_TYPE_LOAD); the
//   decoder re-labels it ImageLoadGuid/opcode 10. PerfView requests image-load stacks as
//   {ProcessGuid, 10}. A CLASSIC_EVENT_ID {ImageLoadGuid, 10} would translate to 0x140A, which the
//   kernel does not emit for loads. So "ImageLoad" here is 0x030A; the other image events
//   (ImageUnload, ImageDCStart, ...) are in the IMAGE group (0x14xx) as the kernel logs them.
//
// Enabling flag: the PERF_* flag whose group must be on for the event to be logged at all (needed for
// PMC counters: "the event's group must be enabled"). Sources: UIforETW StackWalkFlags.txt, PerfView
// (TraceEventSession.cs), xperf's own flag descriptions (`xperf -providers KF`), Geoff Chappell's
// PERFINFO_GROUPMASK page; perf_flag{} = none (user-mode sessions) or not determined.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

struct kernel_event {
    detail::table_text name; ///< xperf stack-walk name (or, marked inferred, a name in the same style); a std::string_view
    std::uint8_t group;      ///< kernel group = the hook id's high byte
    std::uint8_t type;       ///< classic event type (opcode) = the hook id's low byte
    perf_flag enabled_by{};  ///< the flag that enables the event; perf_flag{} if not determined
    bool alias = false;      ///< a second name for the hook id of an earlier row
    bool inferred = false;   ///< name chosen by etwctl in xperf's style; no source gives it
    bool inferred_flag = false; ///< enabling flag assigned by etwctl (the facts lump it or leave it blank)
    bool xperf_name = true;  ///< xperf knows this name (`xperf -help stackwalk`); false: etwctl's own name

    constexpr hook_id hook() const noexcept { return hook_id(group, type); }
    constexpr guid event_guid() const noexcept { return kernel_group_table[group].event_guid; }
    constexpr classic_event_id classic_id() const noexcept {
        classic_event_id e{};
        e.event_guid = event_guid();
        e.type = type;
        return e;
    }
    template <class D = void>
    constexpr std::optional<detail::dependent_t<D, perf_flag>> enabling_flag() const noexcept {
        if (enabled_by.bits() == 0) return std::nullopt;
        return enabled_by;
    }
};

namespace detail {
// Rows are plain aggregates (designated fields; a field left out keeps its default): the compilers
// initialise them without a constant-evaluated call per row, which every including TU would pay. The
// groups are names/groups.hpp's detail::group_number.

inline constexpr perf_flag ef_disk_io{event_trace_flag::disk_io}; // EVENT_TRACE_FLAG_DISK_IO alone (no PERF_ name)
} // namespace detail

/// The table: a variable template, read as `kernel_event_table<>`. Its rows are built only in a translation
/// unit that reads them (the element type depends on D, so no compiler looks into the initialiser before);
/// the lookups below and names/parse.hpp's stack-walk parser are templates over the same defaulted
/// parameter and are called as plain functions (docs/performance.md, "Include weight").
// clang-format off
template <class D = void>
inline constexpr detail::dependent_t<D, kernel_event> kernel_event_table[] = {
    // PROCESS group (0x03xx)
    {.name = "ProcessCreate", .group = detail::process_group, .type = 1, .enabled_by = perf::process},
    {.name = "ProcessDelete", .group = detail::process_group, .type = 2, .enabled_by = perf::process},
    {.name = "ProcessDCStart", .group = detail::process_group, .type = 3, .enabled_by = perf::process, .inferred = true, .inferred_flag = true, .xperf_name = false},
    {.name = "ProcessDCEnd", .group = detail::process_group, .type = 4, .enabled_by = perf::process, .inferred = true, .inferred_flag = true, .xperf_name = false},
    {.name = "ImageLoad", .group = detail::process_group, .type = 10, .enabled_by = perf::loader},             // the kernel's image load: see the header comment
    {.name = "ProcessTerminate", .group = detail::process_group, .type = 11, .enabled_by = perf::process, .inferred = true, .inferred_flag = true, .xperf_name = false},
    {.name = "ProcessPerfCtr", .group = detail::process_group, .type = 32, .enabled_by = perf::perf_counter, .inferred = true, .xperf_name = false},
    {.name = "ProcessPerfCtrRundown", .group = detail::process_group, .type = 33, .enabled_by = perf::perf_counter, .inferred = true, .xperf_name = false},
    {.name = "ProcessDefunct", .group = detail::process_group, .type = 39, .enabled_by = perf::process, .inferred = true, .inferred_flag = true, .xperf_name = false},
    // WPR names with no xperf name, hook ids from phnt PERFINFO_LOG_TYPE_PROCESS_FREEZE / _THAW and the
    // PERFINFO_LOG_TYPE_*_WAKE_* constants; the enabling flags are matched by name (PERF_PROCESS_FREEZE,
    // PERF_WAKE_COUNTER / _DROP / _EVENT)
    {.name = "ProcessFreeze", .group = detail::process_group, .type = 0x24, .enabled_by = perf::process_freeze, .inferred_flag = true, .xperf_name = false},
    {.name = "ProcessResume", .group = detail::process_group, .type = 0x25, .enabled_by = perf::process_freeze, .inferred_flag = true, .xperf_name = false}, // hook inferred: WPR's "resume" read as phnt's PROCESS_THAW
    {.name = "WakeChargeUser", .group = detail::process_group, .type = 0x30, .enabled_by = perf::wake_counter, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeChargeExecution", .group = detail::process_group, .type = 0x31, .enabled_by = perf::wake_counter, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeChargeKernel", .group = detail::process_group, .type = 0x32, .enabled_by = perf::wake_counter, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeChargeInstrumentation", .group = detail::process_group, .type = 0x33, .enabled_by = perf::wake_counter, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeReleaseUser", .group = detail::process_group, .type = 0x40, .enabled_by = perf::wake_counter, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeReleaseExecution", .group = detail::process_group, .type = 0x41, .enabled_by = perf::wake_counter, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeReleaseKernel", .group = detail::process_group, .type = 0x42, .enabled_by = perf::wake_counter, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeReleaseInstrumentation", .group = detail::process_group, .type = 0x43, .enabled_by = perf::wake_counter, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeDropUser", .group = detail::process_group, .type = 0x50, .enabled_by = perf::wake_drop, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeDropExecution", .group = detail::process_group, .type = 0x51, .enabled_by = perf::wake_drop, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeDropKernel", .group = detail::process_group, .type = 0x52, .enabled_by = perf::wake_drop, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeDropInstrumentation", .group = detail::process_group, .type = 0x53, .enabled_by = perf::wake_drop, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeEventUser", .group = detail::process_group, .type = 0x60, .enabled_by = perf::wake_event, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeEventExecution", .group = detail::process_group, .type = 0x61, .enabled_by = perf::wake_event, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeEventKernel", .group = detail::process_group, .type = 0x62, .enabled_by = perf::wake_event, .inferred_flag = true, .xperf_name = false},
    {.name = "WakeEventInstrumentation", .group = detail::process_group, .type = 0x63, .enabled_by = perf::wake_event, .inferred_flag = true, .xperf_name = false},
    // THREAD group (0x05xx)
    {.name = "ThreadCreate", .group = detail::thread_group, .type = 1, .enabled_by = perf::thread},
    {.name = "ThreadDelete", .group = detail::thread_group, .type = 2, .enabled_by = perf::thread},            // PROC_THREAD (UIforETW StackWalkFlags.txt)
    {.name = "ThreadDCStart", .group = detail::thread_group, .type = 3, .enabled_by = perf::thread, .inferred_flag = true, .xperf_name = false}, // WPR's name
    {.name = "ThreadDCEnd", .group = detail::thread_group, .type = 4, .enabled_by = perf::thread, .inferred_flag = true, .xperf_name = false},     // WPR's name
    {.name = "CSwitch", .group = detail::thread_group, .type = 0x24, .enabled_by = perf::context_switch},
    {.name = "CompactCSwitch", .group = detail::thread_group, .type = 0x25, .enabled_by = perf::compact_cswitch, .inferred = true, .xperf_name = false},
    {.name = "SpinLock", .group = detail::thread_group, .type = 0x29, .enabled_by = perf::spinlock, .inferred = true, .xperf_name = false},
    {.name = "ExecutiveResource", .group = detail::thread_group, .type = 0x2B, .enabled_by = perf::sync_objects, .inferred_flag = true}, // ERESOURCE: PERF_SYNC_OBJECTS (Chappell)
    {.name = "ThreadSetPriority", .group = detail::thread_group, .type = 0x30, .enabled_by = perf::priority},
    {.name = "ThreadSetBasePriority", .group = detail::thread_group, .type = 0x31, .enabled_by = perf::priority},
    {.name = "ReadyThread", .group = detail::thread_group, .type = 0x32, .enabled_by = perf::dispatcher},
    {.name = "ThreadSetPagePriority", .group = detail::thread_group, .type = 0x33, .enabled_by = perf::priority, .inferred = true, .inferred_flag = true, .xperf_name = false},
    {.name = "ThreadSetIoPriority", .group = detail::thread_group, .type = 0x34, .enabled_by = perf::priority, .inferred = true, .inferred_flag = true, .xperf_name = false},
    {.name = "ThreadSetAffinity", .group = detail::thread_group, .type = 0x35, .enabled_by = perf::affinity, .inferred = true, .inferred_flag = true, .xperf_name = false},
    {.name = "KernelQueueEnqueue", .group = detail::thread_group, .type = 0x3E, .enabled_by = perf::kernel_queue},
    {.name = "KernelQueueDequeue", .group = detail::thread_group, .type = 0x3F, .enabled_by = perf::kernel_queue},
    {.name = "KQueueEnqueue", .group = detail::thread_group, .type = 0x3E, .enabled_by = perf::kernel_queue, .alias = true, .xperf_name = false},
    {.name = "KQueueDequeue", .group = detail::thread_group, .type = 0x3F, .enabled_by = perf::kernel_queue, .alias = true, .xperf_name = false},
    // PERFINFO group (0x0Fxx)
    {.name = "Mark", .group = detail::perfinfo_group, .type = 0x22},
    {.name = "Profile", .group = detail::perfinfo_group, .type = 0x2E, .enabled_by = perf::profile},
    {.name = "SampledProfile", .group = detail::perfinfo_group, .type = 0x2E, .enabled_by = perf::profile, .alias = true, .xperf_name = false},
    {.name = "PmcInterrupt", .group = detail::perfinfo_group, .type = 0x2F, .enabled_by = perf::pmc_profile},
    {.name = "ISR-MSI", .group = detail::perfinfo_group, .type = 0x32, .enabled_by = perf::interrupt, .inferred_flag = true, .xperf_name = false},
    {.name = "SyscallEnter", .group = detail::perfinfo_group, .type = 0x33, .enabled_by = perf::syscall},
    {.name = "SystemCallEnter", .group = detail::perfinfo_group, .type = 0x33, .enabled_by = perf::syscall, .alias = true, .xperf_name = false},
    {.name = "SyscallExit", .group = detail::perfinfo_group, .type = 0x34, .enabled_by = perf::syscall},
    {.name = "SystemCallExit", .group = detail::perfinfo_group, .type = 0x34, .enabled_by = perf::syscall, .alias = true, .xperf_name = false},
    {.name = "ThreadedDPC", .group = detail::perfinfo_group, .type = 0x42, .enabled_by = perf::dpc, .xperf_name = false},
    {.name = "ISR", .group = detail::perfinfo_group, .type = 0x43, .enabled_by = perf::interrupt, .xperf_name = false},
    {.name = "DPC", .group = detail::perfinfo_group, .type = 0x44, .enabled_by = perf::dpc, .xperf_name = false},
    {.name = "TimerDPC", .group = detail::perfinfo_group, .type = 0x45, .enabled_by = perf::dpc, .xperf_name = false},
    {.name = "ProfileSetInterval", .group = detail::perfinfo_group, .type = 0x48},
    {.name = "SampledProfileSetInterval", .group = detail::perfinfo_group, .type = 0x48, .alias = true, .xperf_name = false},
    {.name = "ProfileSetIntervalDCStart", .group = detail::perfinfo_group, .type = 0x49, .inferred = true, .xperf_name = false},
    {.name = "ProfileSetIntervalDCEnd", .group = detail::perfinfo_group, .type = 0x4A, .inferred = true, .xperf_name = false},
    {.name = "ClockInterrupt", .group = detail::perfinfo_group, .type = 0x4F, .enabled_by = perf::clock_interrupt, .xperf_name = false},
    {.name = "TimerSetPeriodic", .group = detail::perfinfo_group, .type = 0x52, .enabled_by = perf::timer},
    {.name = "TimerPeriodic", .group = detail::perfinfo_group, .type = 0x52, .enabled_by = perf::timer, .alias = true, .xperf_name = false},
    {.name = "TimerSetOneShot", .group = detail::perfinfo_group, .type = 0x53, .enabled_by = perf::timer},
    {.name = "TimerOneShot", .group = detail::perfinfo_group, .type = 0x53, .enabled_by = perf::timer, .alias = true, .xperf_name = false},
    {.name = "IPI", .group = detail::perfinfo_group, .type = 0x5B, .enabled_by = perf::ipi, .xperf_name = false},
    {.name = "InterProcessorInterrupt", .group = detail::perfinfo_group, .type = 0x5B, .enabled_by = perf::ipi, .alias = true, .xperf_name = false},
    {.name = "CacheFlush", .group = detail::perfinfo_group, .type = 0x63, .enabled_by = perf::cache_flush},
    {.name = "DpcEnqueue", .group = detail::perfinfo_group, .type = 0x64, .enabled_by = perf::dpc_queue, .inferred_flag = true},
    {.name = "DpcExecute", .group = detail::perfinfo_group, .type = 0x65, .enabled_by = perf::dpc_queue, .inferred_flag = true},
    {.name = "ShouldYield", .group = detail::perfinfo_group, .type = 0x6D, .enabled_by = perf::should_yield, .inferred_flag = true},
    // IMAGE group (0x14xx); ImageLoad is 0x030A above
    {.name = "ImageUnload", .group = detail::image_group, .type = 2, .enabled_by = perf::loader},
    {.name = "ImageDCStart", .group = detail::image_group, .type = 3, .enabled_by = perf::loader, .inferred = true, .xperf_name = false},
    {.name = "ImageDCEnd", .group = detail::image_group, .type = 4, .enabled_by = perf::loader, .inferred = true, .xperf_name = false},
    {.name = "ImageKernelBase", .group = detail::image_group, .type = 0x21, .enabled_by = perf::loader, .inferred = true, .inferred_flag = true, .xperf_name = false},
    // IO group (0x01xx). xperf names only the _INIT events; DiskFlush is logged under PERF_DISK_IO.
    {.name = "DiskRead", .group = detail::disk_group, .type = 10, .enabled_by = detail::ef_disk_io, .xperf_name = false},
    {.name = "DiskWrite", .group = detail::disk_group, .type = 11, .enabled_by = detail::ef_disk_io, .xperf_name = false},
    {.name = "DiskReadInit", .group = detail::disk_group, .type = 12, .enabled_by = perf::disk_io_init},
    {.name = "DiskWriteInit", .group = detail::disk_group, .type = 13, .enabled_by = perf::disk_io_init},
    {.name = "DiskFlush", .group = detail::disk_group, .type = 14, .enabled_by = perf::disk_io, .xperf_name = false},
    {.name = "DiskFlushInit", .group = detail::disk_group, .type = 15, .enabled_by = perf::disk_io_init},
    // MEMORY group (0x02xx): xperf's Pagefault* names; etwctl's earlier names stay as aliases
    {.name = "PagefaultTransition", .group = detail::fault_group, .type = 10, .enabled_by = perf::all_faults},
    {.name = "PagefaultDemandZero", .group = detail::fault_group, .type = 11, .enabled_by = perf::all_faults},
    {.name = "PagefaultCopyOnWrite", .group = detail::fault_group, .type = 12, .enabled_by = perf::all_faults},
    {.name = "PagefaultGuard", .group = detail::fault_group, .type = 13, .enabled_by = perf::all_faults},
    {.name = "PagefaultHard", .group = detail::fault_group, .type = 14, .enabled_by = perf::all_faults},
    {.name = "PagefaultAV", .group = detail::fault_group, .type = 15, .enabled_by = perf::all_faults},
    {.name = "TransitionFault", .group = detail::fault_group, .type = 10, .enabled_by = perf::all_faults, .alias = true, .xperf_name = false},
    {.name = "DemandZeroFault", .group = detail::fault_group, .type = 11, .enabled_by = perf::all_faults, .alias = true, .xperf_name = false},
    {.name = "CopyOnWrite", .group = detail::fault_group, .type = 12, .enabled_by = perf::all_faults, .alias = true, .xperf_name = false},
    {.name = "GuardPageFault", .group = detail::fault_group, .type = 13, .enabled_by = perf::all_faults, .alias = true, .xperf_name = false},
    {.name = "HardPageFault", .group = detail::fault_group, .type = 14, .enabled_by = perf::all_faults, .alias = true, .xperf_name = false},
    {.name = "AccessViolation", .group = detail::fault_group, .type = 15, .enabled_by = perf::all_faults, .alias = true, .xperf_name = false},
    {.name = "HardFault", .group = detail::fault_group, .type = 0x20, .enabled_by = perf::hard_faults},
    {.name = "PagefileMappedSectionCreate", .group = detail::fault_group, .type = 0x49, .enabled_by = perf::refset, .inferred_flag = true},
    {.name = "PagefileMappedSectionDelete", .group = detail::fault_group, .type = 0x4F, .enabled_by = perf::refset, .inferred_flag = true},
    {.name = "VirtualAlloc", .group = detail::fault_group, .type = 0x62, .enabled_by = perf::virtual_alloc},
    {.name = "VirtualAllocation", .group = detail::fault_group, .type = 0x62, .enabled_by = perf::virtual_alloc, .alias = true, .xperf_name = false},
    {.name = "VirtualFree", .group = detail::fault_group, .type = 0x63, .enabled_by = perf::virtual_alloc},
    {.name = "HeapRangeCreate", .group = detail::fault_group, .type = 0x65},
    {.name = "HeapRangeReserve", .group = detail::fault_group, .type = 0x66},
    {.name = "HeapRangeRelease", .group = detail::fault_group, .type = 0x67},
    {.name = "HeapRangeDestroy", .group = detail::fault_group, .type = 0x68},
    {.name = "PagefileBackedImageMapping", .group = detail::fault_group, .type = 0x69},          // inferred hook (PAGEFILE_BACK)
    {.name = "ContiguousMemoryGeneration", .group = detail::fault_group, .type = 0x71, .enabled_by = perf::contmem_gen},
    {.name = "PageAccess", .group = detail::fault_group, .type = 0x76, .enabled_by = perf::refset, .inferred_flag = true},
    {.name = "PageRelease", .group = detail::fault_group, .type = 0x77, .enabled_by = perf::refset, .inferred_flag = true},
    {.name = "PageRangeAccess", .group = detail::fault_group, .type = 0x78, .enabled_by = perf::refset, .inferred_flag = true},
    {.name = "PageRangeRelease", .group = detail::fault_group, .type = 0x79, .enabled_by = perf::refset, .inferred_flag = true},
    {.name = "PageAccessEx", .group = detail::fault_group, .type = 0x82, .enabled_by = perf::refset, .inferred_flag = true},
    {.name = "PageRemovedfromWorkingSet", .group = detail::fault_group, .type = 0x83, .enabled_by = perf::refset, .inferred_flag = true},
    {.name = "PagefileMappedSectionObjectCreate", .group = detail::fault_group, .type = 0x87},
    {.name = "PagefileMappedSectionObjectDelete", .group = detail::fault_group, .type = 0x88},
    // FILE group (0x04xx). Create..DirNotify are the request ("init") events, OpEnd the completion:
    // the facts give PERF_FILE_IO(_INIT) for the range; the split is etwctl's.
    {.name = "FileName", .group = detail::file_group, .type = 0, .enabled_by = perf::filename, .inferred = true, .xperf_name = false},
    {.name = "FileNameCreate", .group = detail::file_group, .type = 0x20, .enabled_by = perf::filename, .inferred = true, .xperf_name = false},
    {.name = "FileNameDelete", .group = detail::file_group, .type = 0x23, .enabled_by = perf::filename, .inferred = true, .xperf_name = false},
    {.name = "FileNameRundown", .group = detail::file_group, .type = 0x24, .enabled_by = perf::filename, .inferred = true, .xperf_name = false},
    {.name = "MapFile", .group = detail::file_group, .type = 0x25, .enabled_by = perf::vamap},
    {.name = "UnMapFile", .group = detail::file_group, .type = 0x26, .enabled_by = perf::vamap},
    {.name = "FileCreate", .group = detail::file_group, .type = 0x40, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "FileCleanup", .group = detail::file_group, .type = 0x41, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "FileClose", .group = detail::file_group, .type = 0x42, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "FileRead", .group = detail::file_group, .type = 0x43, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "FileWrite", .group = detail::file_group, .type = 0x44, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "FileSetInformation", .group = detail::file_group, .type = 0x45, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "FileDelete", .group = detail::file_group, .type = 0x46, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "FileRename", .group = detail::file_group, .type = 0x47, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "FileDirEnum", .group = detail::file_group, .type = 0x48, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "FileFlush", .group = detail::file_group, .type = 0x49, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "FileQueryInformation", .group = detail::file_group, .type = 0x4A, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "FileFSCTL", .group = detail::file_group, .type = 0x4B, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "FileOpEnd", .group = detail::file_group, .type = 0x4C, .enabled_by = perf::file_io, .inferred_flag = true},
    {.name = "FileDirNotify", .group = detail::file_group, .type = 0x4D, .enabled_by = perf::file_io_init, .inferred_flag = true},
    {.name = "MiniFilterPreOpInit", .group = detail::file_group, .type = 0x60, .enabled_by = perf::flt_io_init},
    {.name = "MiniFilterPostOpInit", .group = detail::file_group, .type = 0x61, .enabled_by = perf::flt_io_init},
    // REGISTRY group (0x09xx); types from EVENT_TRACE_TYPE_REG* (SDK evntrace.h)
    {.name = "RegCreateKey", .group = detail::registry_group, .type = 0x0A, .enabled_by = perf::registry},
    {.name = "RegistryCreateKey", .group = detail::registry_group, .type = 0x0A, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegOpenKey", .group = detail::registry_group, .type = 0x0B, .enabled_by = perf::registry},
    {.name = "RegistryOpenKey", .group = detail::registry_group, .type = 0x0B, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegDeleteKey", .group = detail::registry_group, .type = 0x0C, .enabled_by = perf::registry},
    {.name = "RegistryDeleteKey", .group = detail::registry_group, .type = 0x0C, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegQueryKey", .group = detail::registry_group, .type = 0x0D, .enabled_by = perf::registry},
    {.name = "RegistryQueryKey", .group = detail::registry_group, .type = 0x0D, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegSetValue", .group = detail::registry_group, .type = 0x0E, .enabled_by = perf::registry},
    {.name = "RegistrySetValue", .group = detail::registry_group, .type = 0x0E, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegDeleteValue", .group = detail::registry_group, .type = 0x0F, .enabled_by = perf::registry},
    {.name = "RegistryDeleteValue", .group = detail::registry_group, .type = 0x0F, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegQueryValue", .group = detail::registry_group, .type = 0x10, .enabled_by = perf::registry},
    {.name = "RegistryQueryValue", .group = detail::registry_group, .type = 0x10, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegEnumerateKey", .group = detail::registry_group, .type = 0x11, .enabled_by = perf::registry},
    {.name = "RegistryEnumerateKey", .group = detail::registry_group, .type = 0x11, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegEnumerateValueKey", .group = detail::registry_group, .type = 0x12, .enabled_by = perf::registry},
    {.name = "RegistryEnumerateValueKey", .group = detail::registry_group, .type = 0x12, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegQueryMultipleValue", .group = detail::registry_group, .type = 0x13, .enabled_by = perf::registry},
    {.name = "RegistryQueryMultipleValue", .group = detail::registry_group, .type = 0x13, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegSetInformation", .group = detail::registry_group, .type = 0x14, .enabled_by = perf::registry},
    {.name = "RegistrySetInformation", .group = detail::registry_group, .type = 0x14, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegFlush", .group = detail::registry_group, .type = 0x15, .enabled_by = perf::registry},
    {.name = "RegistryFlush", .group = detail::registry_group, .type = 0x15, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegKcbCreate", .group = detail::registry_group, .type = 0x16, .enabled_by = perf::registry},
    {.name = "RegistryKcbCreate", .group = detail::registry_group, .type = 0x16, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegKcbDelete", .group = detail::registry_group, .type = 0x17, .enabled_by = perf::registry},
    {.name = "RegistryKcbDelete", .group = detail::registry_group, .type = 0x17, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegVirtualize", .group = detail::registry_group, .type = 0x1A, .enabled_by = perf::registry},
    {.name = "RegistryVirtualize", .group = detail::registry_group, .type = 0x1A, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    {.name = "RegCloseKey", .group = detail::registry_group, .type = 0x1B, .enabled_by = perf::registry},
    {.name = "RegistryCloseKey", .group = detail::registry_group, .type = 0x1B, .enabled_by = perf::registry, .alias = true, .xperf_name = false},
    // WPR names with no xperf name: the SDK's EVENT_TRACE_TYPE_REGSETSECURITY / REGQUERYSECURITY
    {.name = "RegistrySetSecurity", .group = detail::registry_group, .type = 0x1C, .enabled_by = perf::registry, .xperf_name = false},
    {.name = "RegistryQuerySecurity", .group = detail::registry_group, .type = 0x1D, .enabled_by = perf::registry, .xperf_name = false},
    // hive events: xperf's REG_HIVE description names them; UIforETW lists them under REGISTRY
    {.name = "RegHiveInit", .group = detail::registry_group, .type = 0x24, .enabled_by = perf::reg_hive, .inferred_flag = true},
    {.name = "RegHiveDestroy", .group = detail::registry_group, .type = 0x25, .enabled_by = perf::reg_hive, .inferred_flag = true},
    {.name = "RegHiveLink", .group = detail::registry_group, .type = 0x26, .enabled_by = perf::reg_hive, .inferred_flag = true},
    {.name = "RegHiveDirty", .group = detail::registry_group, .type = 0x28, .enabled_by = perf::reg_hive, .inferred_flag = true},
    // TCPIP / UDPIP groups (IPv4 types; IPv6 is +16)
    {.name = "TcpIpSend", .group = detail::tcp_group, .type = 10, .enabled_by = perf::network, .inferred = true, .xperf_name = false},
    {.name = "TcpIpRecv", .group = detail::tcp_group, .type = 11, .enabled_by = perf::network, .inferred = true, .xperf_name = false},
    {.name = "TcpIpConnect", .group = detail::tcp_group, .type = 12, .enabled_by = perf::network, .inferred = true, .xperf_name = false},
    {.name = "TcpIpDisconnect", .group = detail::tcp_group, .type = 13, .enabled_by = perf::network, .inferred = true, .xperf_name = false},
    {.name = "TcpIpRetransmit", .group = detail::tcp_group, .type = 14, .enabled_by = perf::network, .inferred = true, .xperf_name = false},
    {.name = "TcpIpAccept", .group = detail::tcp_group, .type = 15, .enabled_by = perf::network, .inferred = true, .xperf_name = false},
    {.name = "TcpIpReconnect", .group = detail::tcp_group, .type = 16, .enabled_by = perf::network, .inferred = true, .xperf_name = false},
    {.name = "TcpIpFail", .group = detail::tcp_group, .type = 17, .enabled_by = perf::network, .inferred = true, .xperf_name = false},
    {.name = "UdpIpSend", .group = detail::udp_group, .type = 10, .enabled_by = perf::network, .inferred = true, .xperf_name = false},
    {.name = "UdpIpRecv", .group = detail::udp_group, .type = 11, .enabled_by = perf::network, .inferred = true, .xperf_name = false},
    {.name = "UdpIpFail", .group = detail::udp_group, .type = 17, .enabled_by = perf::network, .inferred = true, .xperf_name = false},
    // ALPC group (0x1Axx)
    {.name = "AlpcSendMessage", .group = detail::alpc_group, .type = 33, .enabled_by = perf::alpc},
    {.name = "AlpcReceiveMessage", .group = detail::alpc_group, .type = 34, .enabled_by = perf::alpc},
    {.name = "AlpcWaitForReply", .group = detail::alpc_group, .type = 35, .enabled_by = perf::alpc},
    {.name = "AlpcWaitForNewMessage", .group = detail::alpc_group, .type = 36, .enabled_by = perf::alpc},
    {.name = "AlpcUnwait", .group = detail::alpc_group, .type = 37, .enabled_by = perf::alpc},
    {.name = "AlpcConnectRequest", .group = detail::alpc_group, .type = 38, .enabled_by = perf::alpc},
    {.name = "AlpcConnectSuccess", .group = detail::alpc_group, .type = 39, .enabled_by = perf::alpc},
    {.name = "AlpcConnectFail", .group = detail::alpc_group, .type = 40, .enabled_by = perf::alpc},
    {.name = "AlpcClosePort", .group = detail::alpc_group, .type = 41, .enabled_by = perf::alpc},
    // OBJECT group (0x11xx)
    {.name = "HandleCreate", .group = detail::object_group, .type = 0x20, .enabled_by = perf::ob_handle},
    {.name = "HandleClose", .group = detail::object_group, .type = 0x21, .enabled_by = perf::ob_handle},
    {.name = "HandleDuplicate", .group = detail::object_group, .type = 0x22, .enabled_by = perf::ob_handle},
    {.name = "ObjectCreate", .group = detail::object_group, .type = 0x30, .enabled_by = perf::ob_object},
    {.name = "ObjectDelete", .group = detail::object_group, .type = 0x31, .enabled_by = perf::ob_object},
    {.name = "ObjectReference", .group = detail::object_group, .type = 0x32, .enabled_by = perf::ob_object},
    {.name = "ObjectDeReference", .group = detail::object_group, .type = 0x33, .enabled_by = perf::ob_object},
    // POOL group (0x0Exx)
    {.name = "PoolAlloc", .group = detail::pool_group, .type = 0x20, .enabled_by = perf::pool},
    {.name = "PoolAllocation", .group = detail::pool_group, .type = 0x20, .enabled_by = perf::pool, .alias = true, .xperf_name = false},
    {.name = "PoolAllocSession", .group = detail::pool_group, .type = 0x21, .enabled_by = perf::pool},
    {.name = "PoolAllocationSession", .group = detail::pool_group, .type = 0x21, .enabled_by = perf::pool, .alias = true, .xperf_name = false},
    {.name = "PoolFree", .group = detail::pool_group, .type = 0x22, .enabled_by = perf::pool},
    {.name = "PoolFreeSession", .group = detail::pool_group, .type = 0x23, .enabled_by = perf::pool},
    // HEAP group (0x10xx): logged by user-mode heap sessions (xperf -heap), PERF_HEAP in the kernel's mask
    {.name = "HeapCreate", .group = detail::heap_group, .type = 0x20, .enabled_by = perf::heap},
    {.name = "HeapAlloc", .group = detail::heap_group, .type = 0x21, .enabled_by = perf::heap},
    {.name = "HeapAllocation", .group = detail::heap_group, .type = 0x21, .enabled_by = perf::heap, .alias = true, .xperf_name = false},
    {.name = "HeapRealloc", .group = detail::heap_group, .type = 0x22, .enabled_by = perf::heap},
    {.name = "HeapReallocation", .group = detail::heap_group, .type = 0x22, .enabled_by = perf::heap, .alias = true, .xperf_name = false},
    {.name = "HeapDestroy", .group = detail::heap_group, .type = 0x23, .enabled_by = perf::heap},
    {.name = "HeapFree", .group = detail::heap_group, .type = 0x24, .enabled_by = perf::heap},
    // POWER group (0x12xx); PowerIdleStateChange: 0x1235 (PPM_IDLE_STATE_CHANGE) inferred from xperf's order
    {.name = "PowerSetPowerAction", .group = detail::power_group, .type = 0x22, .enabled_by = perf::power},
    {.name = "PowerSetPowerActionReturn", .group = detail::power_group, .type = 0x23, .enabled_by = perf::power},
    {.name = "PowerSetDevicesState", .group = detail::power_group, .type = 0x24, .enabled_by = perf::power},
    {.name = "PowerSetDevicesStateReturn", .group = detail::power_group, .type = 0x25, .enabled_by = perf::power},
    {.name = "PowerDeviceNotify", .group = detail::power_group, .type = 0x26, .enabled_by = perf::power},
    {.name = "PowerDeviceNotifyComplete", .group = detail::power_group, .type = 0x27, .enabled_by = perf::power},
    {.name = "PowerSessionCallout", .group = detail::power_group, .type = 0x28, .enabled_by = perf::power},
    {.name = "PowerSessionCalloutReturn", .group = detail::power_group, .type = 0x29, .enabled_by = perf::power},
    {.name = "PowerPreSleep", .group = detail::power_group, .type = 0x30, .enabled_by = perf::power},
    {.name = "PowerPostSleep", .group = detail::power_group, .type = 0x31, .enabled_by = perf::power},
    {.name = "PowerPerfStateChange", .group = detail::power_group, .type = 0x33, .enabled_by = perf::power},
    {.name = "PowerIdleStateChange", .group = detail::power_group, .type = 0x35, .enabled_by = perf::power},
    {.name = "PowerThermalConstraint", .group = detail::power_group, .type = 0x36, .enabled_by = perf::power},
    // CC group (0x16xx): the cache manager
    {.name = "CcWorkitemEnqueue", .group = detail::cc_group, .type = 0x00, .enabled_by = perf::cc},
    {.name = "CcWorkitemDequeue", .group = detail::cc_group, .type = 0x01, .enabled_by = perf::cc},
    {.name = "CcWorkitemComplete", .group = detail::cc_group, .type = 0x02, .enabled_by = perf::cc},
    {.name = "CcReadAhead", .group = detail::cc_group, .type = 0x03, .enabled_by = perf::cc},
    {.name = "CcWriteBehind", .group = detail::cc_group, .type = 0x04, .enabled_by = perf::cc},
    {.name = "CcLazyWriteScan", .group = detail::cc_group, .type = 0x05, .enabled_by = perf::cc},
    {.name = "CcCanIWriteFail", .group = detail::cc_group, .type = 0x06, .enabled_by = perf::cc},
    {.name = "CcFlushCache", .group = detail::cc_group, .type = 0x09, .enabled_by = perf::cc},
    {.name = "CcFlushSection", .group = detail::cc_group, .type = 0x0A, .enabled_by = perf::cc},
    // CRITSEC group (0x17xx): logged by user-mode critical-section sessions (xperf -critsec), no kernel flag
    {.name = "CritSecCollision", .group = detail::critsec_group, .type = 0x22},
    // SPLITIO group (0x1Bxx)
    {.name = "SplitIO", .group = detail::splitio_group, .type = 0x20, .enabled_by = perf::split_io},
    // THREAD_POOL group (0x1Cxx): user-mode thread-pool events, no kernel flag
    {.name = "ThreadPoolCallbackEnqueue", .group = detail::threadpool_group, .type = 0x20},
    {.name = "ThreadPoolCallbackDequeue", .group = detail::threadpool_group, .type = 0x21},
    {.name = "ThreadPoolCallbackStart", .group = detail::threadpool_group, .type = 0x22},
    {.name = "ThreadPoolCallbackStop", .group = detail::threadpool_group, .type = 0x23},
    {.name = "ThreadPoolCallbackCancel", .group = detail::threadpool_group, .type = 0x24},
    {.name = "ThreadPoolCreate", .group = detail::threadpool_group, .type = 0x25},
    {.name = "ThreadPoolClose", .group = detail::threadpool_group, .type = 0x26},
    {.name = "ThreadPoolSetMinThreads", .group = detail::threadpool_group, .type = 0x27},
    {.name = "ThreadPoolSetMaxThreads", .group = detail::threadpool_group, .type = 0x28},
    // WPR names with no xperf name: phnt PERFINFO_LOG_TYPE_TP_TIMER_*
    {.name = "ThreadPoolTimerSet", .group = detail::threadpool_group, .type = 0x2A, .xperf_name = false},
    {.name = "ThreadPoolTimerCancelled", .group = detail::threadpool_group, .type = 0x2B, .xperf_name = false},
    {.name = "ThreadPoolSetNtTimer", .group = detail::threadpool_group, .type = 0x2C, .xperf_name = false},
    {.name = "ThreadPoolCancelNtTimer", .group = detail::threadpool_group, .type = 0x2D, .xperf_name = false},
    {.name = "ThreadPoolTimerExpirationBegin", .group = detail::threadpool_group, .type = 0x2E, .xperf_name = false},
    {.name = "ThreadPoolTimerExpirationEnd", .group = detail::threadpool_group, .type = 0x2F, .xperf_name = false},
    {.name = "ThreadPoolTimerExpiration", .group = detail::threadpool_group, .type = 0x30, .xperf_name = false},
};
// clang-format on

/// Stack-walk names xperf or WPR publish whose hook id no public source gives: the parsers refuse them
/// by name (rule::parse_name_without_value) and say where they are published.
inline constexpr known_name_without_value kernel_event_without_hook[] = {
    {"ThreadSetIdealProcessor", "xperf -help stackwalk and WPR's Stack names; phnt ntwmi.h has no hook constant for it"},
    {"ThreadSetUserIdealProcessor", "xperf -help stackwalk and WPR's Stack names; phnt ntwmi.h has no hook constant for it"},
    {"KernelSignal", "xperf's stack-walk list on learn.microsoft.com (wpt/stackwalk); no constant or PerfView event matches it"},
    {"KernelSignalInit", "xperf's stack-walk list on learn.microsoft.com (wpt/stackwalk); no constant or PerfView event matches it"},
    {"KernelSync", "xperf's stack-walk list on learn.microsoft.com (wpt/stackwalk); no constant or PerfView event matches it"},
    {"KernelSyncAll", "xperf's stack-walk list on learn.microsoft.com (wpt/stackwalk); no constant or PerfView event matches it"},
    {"KernelWaitSync", "xperf's stack-walk list on learn.microsoft.com (wpt/stackwalk); no constant or PerfView event matches it"},
    {"KernelWaitSyncAll", "xperf's stack-walk list on learn.microsoft.com (wpt/stackwalk); no constant or PerfView event matches it"},
    {"KernelHypercalls", "WPR's Stack names (WPRControlProfiles.xsd); no public source gives its hook id"},
    {"PopSetUserPresent", "WPR's Stack names (WPRControlProfiles.xsd); no public source gives its hook id"},
};

namespace detail {
template <class D = void>
constexpr bool kernel_event_table_well_formed() noexcept {
    for (std::size_t i = 0; i < std::size(kernel_event_table<D>); ++i) {
        auto const& e = kernel_event_table<D>[i];
        if (e.group >= kernel_group_count || e.name.empty()) return false;
        for (char c : e.name)
            if (c == '+' || c == ' ' || c == '\t') return false; // would not survive parsing
        bool canonical_before = false;
        for (std::size_t j = 0; j < i; ++j) {
            auto const& p = kernel_event_table<D>[j];
            if (iequals(p.name, e.name)) return false;                            // names unique
            if (p.hook() == e.hook() && !e.alias) return false;                   // one canonical row per hook
            if (p.hook() == e.hook() && !p.alias) canonical_before = true;
        }
        if (e.alias && !canonical_before) return false;
    }
    return true;
}
} // namespace detail
// The table is checked (well_formed) by tests/tables/test_tables_static.cpp, not here: the O(n^2)
// check would be paid by every translation unit that includes this header.

namespace detail {
// Lookups by index: the value functions below stay constant expressions under g++'s
// -fsanitize=undefined, which refuses a pointer into a static table compared with nullptr. (no_row:
// names/flags.hpp.)
template <class D = void>
constexpr std::size_t kernel_event_row(std::string_view name) noexcept {
    for (std::size_t i = 0; i < std::size(kernel_event_table<D>); ++i)
        if (iequals(kernel_event_table<D>[i].name, name)) return i;
    return no_row;
}
template <class D = void>
constexpr std::size_t kernel_event_row(hook_id h) noexcept {
    for (std::size_t i = 0; i < std::size(kernel_event_table<D>); ++i)
        if (!kernel_event_table<D>[i].alias && kernel_event_table<D>[i].hook() == h) return i;
    return no_row;
}
} // namespace detail

/// Name -> event (case-insensitive, aliases included), or nullptr.
template <class D = void>
constexpr kernel_event const* find_kernel_event(std::string_view name) noexcept {
    auto const i = detail::kernel_event_row<D>(name);
    return i == detail::no_row ? nullptr : &kernel_event_table<D>[i];
}
/// Hook id -> its canonical event row (never an alias), or nullptr.
template <class D = void>
constexpr kernel_event const* find_kernel_event(hook_id h) noexcept {
    auto const i = detail::kernel_event_row<D>(h);
    return i == detail::no_row ? nullptr : &kernel_event_table<D>[i];
}
/// The canonical name of a hook id, or "" if etwctl does not name it.
template <class D = void>
constexpr std::string_view kernel_event_name(hook_id h) noexcept {
    auto const i = detail::kernel_event_row<D>(h);
    return i == detail::no_row ? std::string_view{} : std::string_view(kernel_event_table<D>[i].name);
}
/// A stack-walk name published without a hook id -> its row, or nullptr.
constexpr known_name_without_value const* find_kernel_event_without_hook(std::string_view name) noexcept {
    return detail::find_without_value(kernel_event_without_hook, name);
}
/// The hook id for a name (case-insensitive), if known.
template <class D = void>
constexpr std::optional<detail::dependent_t<D, hook_id>> kernel_event_hook(std::string_view name) noexcept {
    auto const i = detail::kernel_event_row<D>(name);
    if (i == detail::no_row) return std::nullopt;
    return kernel_event_table<D>[i].hook();
}
/// The PERF_* flag that enables the event with this hook id, where known. A PMC event list is only
/// useful if these flags are on in the session's group mask (group_mask::enables).
template <class D = void>
constexpr std::optional<detail::dependent_t<D, perf_flag>> enabling_flag(hook_id h) noexcept {
    auto const i = detail::kernel_event_row<D>(h);
    if (i == detail::no_row) return std::nullopt;
    return kernel_event_table<D>[i].template enabling_flag<D>();
}

/// An event a session never records: the PERF_* flag that enables it is off in the session's group mask.
struct event_not_enabled {
    std::size_t index = 0; ///< its position in the list
    hook_id event{};
    perf_flag flag{}; ///< the flag that would enable it
};
/// The first of `events` whose enabling flag `mask` does not enable (group_mask::enables, directly or
/// through a Masks[0] alias); events without a known flag are not judged. No kernel call: for a mask
/// the caller has (it just set it, or read it). A stack walk or PMC list naming such an event is
/// accepted by the kernel, and the event is simply never recorded.
template <class D = void>
constexpr std::optional<detail::dependent_t<D, event_not_enabled>> first_event_not_enabled(group_mask const& mask,
                                                                                          std::span<hook_id const> events) noexcept {
    for (std::size_t i = 0; i < events.size(); ++i) {
        auto const row = detail::kernel_event_row<D>(events[i]);
        if (row == detail::no_row) continue;
        perf_flag const flag = kernel_event_table<D>[row].enabled_by;
        if (flag.bits() != 0 && !mask.enables(flag)) return event_not_enabled{i, events[i], flag};
    }
    return std::nullopt;
}

// ---- kernel records that are read, not configured ------------------------------------------------------
// A trace holds kernel records that no stack-walk list can select: the header event and its extensions,
// the stack records themselves, the PMC configuration, the configuration rundown. The trace reader
// (trace/) names them from this table, beside kernel_event_table's names, so etwctl::trace::on<"Name">
// and `etwctl trace dump` share one set of names with stack_walk<"Name">. Hook ids: phnt ntwmi.h
// (EVENT_TRACE_GROUP_HEADER / _STACKWALK / _CONFIG / _PERFINFO types), Microsoft Learn's MOF class pages
// (EventTrace_Header, StackWalk_Event, SystemConfig_*); the names are etwctl's, after the MOF classes.
// `display_only` rows give the name a hook is shown under when reading ("SampledProfile", the MOF class,
// rather than xperf's "Profile"); their names are kernel_event_table aliases, looked up there.
struct kernel_record {
    detail::table_text name;
    std::uint8_t group;
    std::uint8_t type;
    bool display_only = false;
    constexpr hook_id hook() const noexcept { return hook_id(group, type); }
};
// clang-format off
template <class D = void>
inline constexpr detail::dependent_t<D, kernel_record> kernel_record_table[] = {
    {.name = "EventTraceHeader", .group = detail::header_group, .type = 0x00},          // TRACE_LOGFILE_HEADER
    {.name = "EventTraceExtension", .group = detail::header_group, .type = 0x05},       // the group masks in force
    {.name = "EventTraceRundownComplete", .group = detail::header_group, .type = 0x08},
    {.name = "EventTraceEndExtension", .group = detail::header_group, .type = 0x20},    // the group masks replaced
    {.name = "PartitionInfoExtension", .group = detail::header_group, .type = 0x50},
    {.name = "SampledProfile", .group = detail::perfinfo_group, .type = 0x2E, .display_only = true},
    {.name = "PmcCounterConfig", .group = detail::perfinfo_group, .type = 0x30},
    {.name = "PmcCounterCorruption", .group = detail::perfinfo_group, .type = 0x31},
    {.name = "ThreadSetName", .group = detail::thread_group, .type = 0x48},
    {.name = "ImageHypercallPage", .group = detail::image_group, .type = 0x22},
    {.name = "StackWalk", .group = detail::stackwalk_group, .type = 0x20},              // StackWalk_Event
    {.name = "StackKeyCreate", .group = detail::stackwalk_group, .type = 0x22},
    {.name = "StackKeyDelete", .group = detail::stackwalk_group, .type = 0x23},         // a cached stack's frames, on eviction
    {.name = "StackKeyRundown", .group = detail::stackwalk_group, .type = 0x24},        // the cache's stacks at the end
    {.name = "StackKeyKernel", .group = detail::stackwalk_group, .type = 0x25},         // an event's kernel stack, by key
    {.name = "StackKeyUser", .group = detail::stackwalk_group, .type = 0x26},           // an event's user stack, by key
    {.name = "SystemConfigCPU", .group = detail::config_group, .type = 0x0A},           // EVENT_TRACE_TYPE_CONFIG_* (evntrace.h)
    {.name = "SystemConfigPhyDisk", .group = detail::config_group, .type = 0x0B},
    {.name = "SystemConfigLogDisk", .group = detail::config_group, .type = 0x0C},
    {.name = "SystemConfigNIC", .group = detail::config_group, .type = 0x0D},
    {.name = "SystemConfigVideo", .group = detail::config_group, .type = 0x0E},
    {.name = "SystemConfigServices", .group = detail::config_group, .type = 0x0F},
    {.name = "SystemConfigPower", .group = detail::config_group, .type = 0x10},
    {.name = "SystemConfigNetwork", .group = detail::config_group, .type = 0x11},
    {.name = "SystemConfigIRQ", .group = detail::config_group, .type = 0x15},
    {.name = "SystemConfigPnP", .group = detail::config_group, .type = 0x16},
    {.name = "SystemConfigIDEChannel", .group = detail::config_group, .type = 0x17},
};
// clang-format on

/// The name a trace shows a kernel hook under: a display_only row of kernel_record_table, else
/// kernel_event_table's canonical name, else kernel_record_table's; "" when etwctl names no such hook.
template <class D = void>
constexpr std::string_view kernel_record_name(hook_id h) noexcept {
    for (auto const& r : kernel_record_table<D>)
        if (r.display_only && r.hook() == h) return r.name;
    if (auto const n = kernel_event_name<D>(h); !n.empty()) return n;
    for (auto const& r : kernel_record_table<D>)
        if (r.hook() == h) return r.name;
    return {};
}
/// The hook a name selects when reading (case-insensitive): kernel_event_table's names and aliases, then
/// kernel_record_table's own names.
template <class D = void>
constexpr std::optional<detail::dependent_t<D, hook_id>> kernel_record_hook(std::string_view name) noexcept {
    if (auto const h = kernel_event_hook<D>(name)) return h;
    for (auto const& r : kernel_record_table<D>)
        if (!r.display_only && detail::iequals(r.name, name)) return r.hook();
    return std::nullopt;
}

ETWCTL_END_NAMESPACE
