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
    constexpr std::optional<perf_flag> enabling_flag() const noexcept {
        if (enabled_by.bits() == 0) return std::nullopt;
        return enabled_by;
    }
};

namespace detail {
/// Group number from its GUID name in kernel_group_table: keeps the numbers in one place. Unknown
/// names do not compile (a non-constant throw-free path: the returned 0xFF fails the table check).
consteval std::uint8_t group_named(table_text guid_name) {
    for (auto const& g : kernel_group_table)
        if (g.guid_name == guid_name) return g.group;
    return 0xFF;
}
struct event_row_builder {
    std::uint8_t group;
    consteval kernel_event operator()(table_text name, std::uint8_t type, perf_flag flag = {}) const {
        return {name, group, type, flag};
    }
};
consteval kernel_event aliased(kernel_event e) { e.alias = true; return e; }
consteval kernel_event inferred_name(kernel_event e) { e.inferred = true; e.xperf_name = false; return e; }
/// A name etwctl keeps (earlier spelling, or a name other tools use) that xperf does not know.
consteval kernel_event etwctl_name(kernel_event e) { e.xperf_name = false; return e; }
consteval kernel_event inferred_flag(kernel_event e) { e.inferred_flag = true; return e; }

inline constexpr event_row_builder process_ev{group_named("ProcessGuid")};
inline constexpr event_row_builder thread_ev{group_named("ThreadGuid")};
inline constexpr event_row_builder perfinfo_ev{group_named("PerfInfoGuid")};
inline constexpr event_row_builder image_ev{group_named("ImageLoadGuid")};
inline constexpr event_row_builder disk_ev{group_named("DiskIoGuid")};
inline constexpr event_row_builder fault_ev{group_named("PageFaultGuid")};
inline constexpr event_row_builder file_ev{group_named("FileIoGuid")};
inline constexpr event_row_builder registry_ev{group_named("RegistryGuid")};
inline constexpr event_row_builder tcp_ev{group_named("TcpIpGuid")};
inline constexpr event_row_builder udp_ev{group_named("UdpIpGuid")};
inline constexpr event_row_builder alpc_ev{group_named("ALPCGuid")};
inline constexpr event_row_builder object_ev{group_named("ObjectGuid")};
inline constexpr event_row_builder pool_ev{group_named("PoolGuid")};
inline constexpr event_row_builder heap_ev{group_named("HeapGuid")};
inline constexpr event_row_builder splitio_ev{group_named("SplitIoGuid")};
inline constexpr event_row_builder power_ev{group_named("PowerGuid")};
inline constexpr event_row_builder cc_ev{group_named("CcGuid")};
inline constexpr event_row_builder critsec_ev{group_named("CritSecGuid")};
inline constexpr event_row_builder threadpool_ev{group_named("ThreadPoolGuid")};

inline constexpr perf_flag ef_disk_io{event_trace_flag::disk_io}; // EVENT_TRACE_FLAG_DISK_IO alone (no PERF_ name)
} // namespace detail

// clang-format off
inline constexpr kernel_event kernel_event_table[] = {
    // PROCESS group (0x03xx)
    detail::process_ev("ProcessCreate", 1, perf::process),
    detail::process_ev("ProcessDelete", 2, perf::process),
    detail::inferred_flag(detail::inferred_name(detail::process_ev("ProcessDCStart", 3, perf::process))),
    detail::inferred_flag(detail::inferred_name(detail::process_ev("ProcessDCEnd", 4, perf::process))),
    detail::process_ev("ImageLoad", 10, perf::loader),             // the kernel's image load: see the header comment
    detail::inferred_flag(detail::inferred_name(detail::process_ev("ProcessTerminate", 11, perf::process))),
    detail::inferred_name(detail::process_ev("ProcessPerfCtr", 32, perf::perf_counter)),
    detail::inferred_name(detail::process_ev("ProcessPerfCtrRundown", 33, perf::perf_counter)),
    detail::inferred_flag(detail::inferred_name(detail::process_ev("ProcessDefunct", 39, perf::process))),
    // WPR names with no xperf name, hook ids from phnt PERFINFO_LOG_TYPE_PROCESS_FREEZE / _THAW and the
    // PERFINFO_LOG_TYPE_*_WAKE_* constants; the enabling flags are matched by name (PERF_PROCESS_FREEZE,
    // PERF_WAKE_COUNTER / _DROP / _EVENT)
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("ProcessFreeze", 0x24, perf::process_freeze))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("ProcessResume", 0x25, perf::process_freeze))), // hook inferred: WPR's "resume" read as phnt's PROCESS_THAW
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeChargeUser", 0x30, perf::wake_counter))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeChargeExecution", 0x31, perf::wake_counter))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeChargeKernel", 0x32, perf::wake_counter))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeChargeInstrumentation", 0x33, perf::wake_counter))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeReleaseUser", 0x40, perf::wake_counter))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeReleaseExecution", 0x41, perf::wake_counter))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeReleaseKernel", 0x42, perf::wake_counter))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeReleaseInstrumentation", 0x43, perf::wake_counter))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeDropUser", 0x50, perf::wake_drop))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeDropExecution", 0x51, perf::wake_drop))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeDropKernel", 0x52, perf::wake_drop))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeDropInstrumentation", 0x53, perf::wake_drop))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeEventUser", 0x60, perf::wake_event))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeEventExecution", 0x61, perf::wake_event))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeEventKernel", 0x62, perf::wake_event))),
    detail::inferred_flag(detail::etwctl_name(detail::process_ev("WakeEventInstrumentation", 0x63, perf::wake_event))),
    // THREAD group (0x05xx)
    detail::thread_ev("ThreadCreate", 1, perf::thread),
    detail::thread_ev("ThreadDelete", 2, perf::thread),            // PROC_THREAD (UIforETW StackWalkFlags.txt)
    detail::inferred_flag(detail::etwctl_name(detail::thread_ev("ThreadDCStart", 3, perf::thread))), // WPR's name
    detail::inferred_flag(detail::etwctl_name(detail::thread_ev("ThreadDCEnd", 4, perf::thread))),     // WPR's name
    detail::thread_ev("CSwitch", 0x24, perf::context_switch),
    detail::inferred_name(detail::thread_ev("CompactCSwitch", 0x25, perf::compact_cswitch)),
    detail::inferred_name(detail::thread_ev("SpinLock", 0x29, perf::spinlock)),
    detail::inferred_flag(detail::thread_ev("ExecutiveResource", 0x2B, perf::sync_objects)), // ERESOURCE: PERF_SYNC_OBJECTS (Chappell)
    detail::thread_ev("ThreadSetPriority", 0x30, perf::priority),
    detail::thread_ev("ThreadSetBasePriority", 0x31, perf::priority),
    detail::thread_ev("ReadyThread", 0x32, perf::dispatcher),
    detail::inferred_flag(detail::inferred_name(detail::thread_ev("ThreadSetPagePriority", 0x33, perf::priority))),
    detail::inferred_flag(detail::inferred_name(detail::thread_ev("ThreadSetIoPriority", 0x34, perf::priority))),
    detail::inferred_flag(detail::inferred_name(detail::thread_ev("ThreadSetAffinity", 0x35, perf::affinity))),
    detail::thread_ev("KernelQueueEnqueue", 0x3E, perf::kernel_queue),
    detail::thread_ev("KernelQueueDequeue", 0x3F, perf::kernel_queue),
    detail::etwctl_name(detail::aliased(detail::thread_ev("KQueueEnqueue", 0x3E, perf::kernel_queue))),
    detail::etwctl_name(detail::aliased(detail::thread_ev("KQueueDequeue", 0x3F, perf::kernel_queue))),
    // PERFINFO group (0x0Fxx)
    detail::perfinfo_ev("Mark", 0x22),
    detail::perfinfo_ev("Profile", 0x2E, perf::profile),
    detail::etwctl_name(detail::aliased(detail::perfinfo_ev("SampledProfile", 0x2E, perf::profile))),
    detail::perfinfo_ev("PmcInterrupt", 0x2F, perf::pmc_profile),
    detail::inferred_flag(detail::etwctl_name(detail::perfinfo_ev("ISR-MSI", 0x32, perf::interrupt))),
    detail::perfinfo_ev("SyscallEnter", 0x33, perf::syscall),
    detail::etwctl_name(detail::aliased(detail::perfinfo_ev("SystemCallEnter", 0x33, perf::syscall))),
    detail::perfinfo_ev("SyscallExit", 0x34, perf::syscall),
    detail::etwctl_name(detail::aliased(detail::perfinfo_ev("SystemCallExit", 0x34, perf::syscall))),
    detail::etwctl_name(detail::perfinfo_ev("ThreadedDPC", 0x42, perf::dpc)),
    detail::etwctl_name(detail::perfinfo_ev("ISR", 0x43, perf::interrupt)),
    detail::etwctl_name(detail::perfinfo_ev("DPC", 0x44, perf::dpc)),
    detail::etwctl_name(detail::perfinfo_ev("TimerDPC", 0x45, perf::dpc)),
    detail::perfinfo_ev("ProfileSetInterval", 0x48),
    detail::etwctl_name(detail::aliased(detail::perfinfo_ev("SampledProfileSetInterval", 0x48))),
    detail::inferred_name(detail::perfinfo_ev("ProfileSetIntervalDCStart", 0x49)),
    detail::inferred_name(detail::perfinfo_ev("ProfileSetIntervalDCEnd", 0x4A)),
    detail::etwctl_name(detail::perfinfo_ev("ClockInterrupt", 0x4F, perf::clock_interrupt)),
    detail::perfinfo_ev("TimerSetPeriodic", 0x52, perf::timer),
    detail::etwctl_name(detail::aliased(detail::perfinfo_ev("TimerPeriodic", 0x52, perf::timer))),
    detail::perfinfo_ev("TimerSetOneShot", 0x53, perf::timer),
    detail::etwctl_name(detail::aliased(detail::perfinfo_ev("TimerOneShot", 0x53, perf::timer))),
    detail::etwctl_name(detail::perfinfo_ev("IPI", 0x5B, perf::ipi)),
    detail::etwctl_name(detail::aliased(detail::perfinfo_ev("InterProcessorInterrupt", 0x5B, perf::ipi))),
    detail::perfinfo_ev("CacheFlush", 0x63, perf::cache_flush),
    detail::inferred_flag(detail::perfinfo_ev("DpcEnqueue", 0x64, perf::dpc_queue)),
    detail::inferred_flag(detail::perfinfo_ev("DpcExecute", 0x65, perf::dpc_queue)),
    detail::inferred_flag(detail::perfinfo_ev("ShouldYield", 0x6D, perf::should_yield)),
    // IMAGE group (0x14xx); ImageLoad is 0x030A above
    detail::image_ev("ImageUnload", 2, perf::loader),
    detail::inferred_name(detail::image_ev("ImageDCStart", 3, perf::loader)),
    detail::inferred_name(detail::image_ev("ImageDCEnd", 4, perf::loader)),
    detail::inferred_flag(detail::inferred_name(detail::image_ev("ImageKernelBase", 0x21, perf::loader))),
    // IO group (0x01xx). xperf names only the _INIT events; DiskFlush is logged under PERF_DISK_IO.
    detail::etwctl_name(detail::disk_ev("DiskRead", 10, detail::ef_disk_io)),
    detail::etwctl_name(detail::disk_ev("DiskWrite", 11, detail::ef_disk_io)),
    detail::disk_ev("DiskReadInit", 12, perf::disk_io_init),
    detail::disk_ev("DiskWriteInit", 13, perf::disk_io_init),
    detail::etwctl_name(detail::disk_ev("DiskFlush", 14, perf::disk_io)),
    detail::disk_ev("DiskFlushInit", 15, perf::disk_io_init),
    // MEMORY group (0x02xx): xperf's Pagefault* names; etwctl's earlier names stay as aliases
    detail::fault_ev("PagefaultTransition", 10, perf::all_faults),
    detail::fault_ev("PagefaultDemandZero", 11, perf::all_faults),
    detail::fault_ev("PagefaultCopyOnWrite", 12, perf::all_faults),
    detail::fault_ev("PagefaultGuard", 13, perf::all_faults),
    detail::fault_ev("PagefaultHard", 14, perf::all_faults),
    detail::fault_ev("PagefaultAV", 15, perf::all_faults),
    detail::etwctl_name(detail::aliased(detail::fault_ev("TransitionFault", 10, perf::all_faults))),
    detail::etwctl_name(detail::aliased(detail::fault_ev("DemandZeroFault", 11, perf::all_faults))),
    detail::etwctl_name(detail::aliased(detail::fault_ev("CopyOnWrite", 12, perf::all_faults))),
    detail::etwctl_name(detail::aliased(detail::fault_ev("GuardPageFault", 13, perf::all_faults))),
    detail::etwctl_name(detail::aliased(detail::fault_ev("HardPageFault", 14, perf::all_faults))),
    detail::etwctl_name(detail::aliased(detail::fault_ev("AccessViolation", 15, perf::all_faults))),
    detail::fault_ev("HardFault", 0x20, perf::hard_faults),
    detail::inferred_flag(detail::fault_ev("PagefileMappedSectionCreate", 0x49, perf::refset)),
    detail::inferred_flag(detail::fault_ev("PagefileMappedSectionDelete", 0x4F, perf::refset)),
    detail::fault_ev("VirtualAlloc", 0x62, perf::virtual_alloc),
    detail::etwctl_name(detail::aliased(detail::fault_ev("VirtualAllocation", 0x62, perf::virtual_alloc))),
    detail::fault_ev("VirtualFree", 0x63, perf::virtual_alloc),
    detail::fault_ev("HeapRangeCreate", 0x65),
    detail::fault_ev("HeapRangeReserve", 0x66),
    detail::fault_ev("HeapRangeRelease", 0x67),
    detail::fault_ev("HeapRangeDestroy", 0x68),
    detail::fault_ev("PagefileBackedImageMapping", 0x69),          // inferred hook (PAGEFILE_BACK)
    detail::fault_ev("ContiguousMemoryGeneration", 0x71, perf::contmem_gen),
    detail::inferred_flag(detail::fault_ev("PageAccess", 0x76, perf::refset)),
    detail::inferred_flag(detail::fault_ev("PageRelease", 0x77, perf::refset)),
    detail::inferred_flag(detail::fault_ev("PageRangeAccess", 0x78, perf::refset)),
    detail::inferred_flag(detail::fault_ev("PageRangeRelease", 0x79, perf::refset)),
    detail::inferred_flag(detail::fault_ev("PageAccessEx", 0x82, perf::refset)),
    detail::inferred_flag(detail::fault_ev("PageRemovedfromWorkingSet", 0x83, perf::refset)),
    detail::fault_ev("PagefileMappedSectionObjectCreate", 0x87),
    detail::fault_ev("PagefileMappedSectionObjectDelete", 0x88),
    // FILE group (0x04xx). Create..DirNotify are the request ("init") events, OpEnd the completion:
    // the facts give PERF_FILE_IO(_INIT) for the range; the split is etwctl's.
    detail::inferred_name(detail::file_ev("FileName", 0, perf::filename)),
    detail::inferred_name(detail::file_ev("FileNameCreate", 0x20, perf::filename)),
    detail::inferred_name(detail::file_ev("FileNameDelete", 0x23, perf::filename)),
    detail::inferred_name(detail::file_ev("FileNameRundown", 0x24, perf::filename)),
    detail::file_ev("MapFile", 0x25, perf::vamap),
    detail::file_ev("UnMapFile", 0x26, perf::vamap),
    detail::inferred_flag(detail::file_ev("FileCreate", 0x40, perf::file_io_init)),
    detail::inferred_flag(detail::file_ev("FileCleanup", 0x41, perf::file_io_init)),
    detail::inferred_flag(detail::file_ev("FileClose", 0x42, perf::file_io_init)),
    detail::inferred_flag(detail::file_ev("FileRead", 0x43, perf::file_io_init)),
    detail::inferred_flag(detail::file_ev("FileWrite", 0x44, perf::file_io_init)),
    detail::inferred_flag(detail::file_ev("FileSetInformation", 0x45, perf::file_io_init)),
    detail::inferred_flag(detail::file_ev("FileDelete", 0x46, perf::file_io_init)),
    detail::inferred_flag(detail::file_ev("FileRename", 0x47, perf::file_io_init)),
    detail::inferred_flag(detail::file_ev("FileDirEnum", 0x48, perf::file_io_init)),
    detail::inferred_flag(detail::file_ev("FileFlush", 0x49, perf::file_io_init)),
    detail::inferred_flag(detail::file_ev("FileQueryInformation", 0x4A, perf::file_io_init)),
    detail::inferred_flag(detail::file_ev("FileFSCTL", 0x4B, perf::file_io_init)),
    detail::inferred_flag(detail::file_ev("FileOpEnd", 0x4C, perf::file_io)),
    detail::inferred_flag(detail::file_ev("FileDirNotify", 0x4D, perf::file_io_init)),
    detail::file_ev("MiniFilterPreOpInit", 0x60, perf::flt_io_init),
    detail::file_ev("MiniFilterPostOpInit", 0x61, perf::flt_io_init),
    // REGISTRY group (0x09xx); types from EVENT_TRACE_TYPE_REG* (SDK evntrace.h)
    detail::registry_ev("RegCreateKey", 0x0A, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryCreateKey", 0x0A, perf::registry))),
    detail::registry_ev("RegOpenKey", 0x0B, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryOpenKey", 0x0B, perf::registry))),
    detail::registry_ev("RegDeleteKey", 0x0C, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryDeleteKey", 0x0C, perf::registry))),
    detail::registry_ev("RegQueryKey", 0x0D, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryQueryKey", 0x0D, perf::registry))),
    detail::registry_ev("RegSetValue", 0x0E, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistrySetValue", 0x0E, perf::registry))),
    detail::registry_ev("RegDeleteValue", 0x0F, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryDeleteValue", 0x0F, perf::registry))),
    detail::registry_ev("RegQueryValue", 0x10, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryQueryValue", 0x10, perf::registry))),
    detail::registry_ev("RegEnumerateKey", 0x11, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryEnumerateKey", 0x11, perf::registry))),
    detail::registry_ev("RegEnumerateValueKey", 0x12, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryEnumerateValueKey", 0x12, perf::registry))),
    detail::registry_ev("RegQueryMultipleValue", 0x13, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryQueryMultipleValue", 0x13, perf::registry))),
    detail::registry_ev("RegSetInformation", 0x14, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistrySetInformation", 0x14, perf::registry))),
    detail::registry_ev("RegFlush", 0x15, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryFlush", 0x15, perf::registry))),
    detail::registry_ev("RegKcbCreate", 0x16, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryKcbCreate", 0x16, perf::registry))),
    detail::registry_ev("RegKcbDelete", 0x17, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryKcbDelete", 0x17, perf::registry))),
    detail::registry_ev("RegVirtualize", 0x1A, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryVirtualize", 0x1A, perf::registry))),
    detail::registry_ev("RegCloseKey", 0x1B, perf::registry),
    detail::etwctl_name(detail::aliased(detail::registry_ev("RegistryCloseKey", 0x1B, perf::registry))),
    // WPR names with no xperf name: the SDK's EVENT_TRACE_TYPE_REGSETSECURITY / REGQUERYSECURITY
    detail::etwctl_name(detail::registry_ev("RegistrySetSecurity", 0x1C, perf::registry)),
    detail::etwctl_name(detail::registry_ev("RegistryQuerySecurity", 0x1D, perf::registry)),
    // hive events: xperf's REG_HIVE description names them; UIforETW lists them under REGISTRY
    detail::inferred_flag(detail::registry_ev("RegHiveInit", 0x24, perf::reg_hive)),
    detail::inferred_flag(detail::registry_ev("RegHiveDestroy", 0x25, perf::reg_hive)),
    detail::inferred_flag(detail::registry_ev("RegHiveLink", 0x26, perf::reg_hive)),
    detail::inferred_flag(detail::registry_ev("RegHiveDirty", 0x28, perf::reg_hive)),
    // TCPIP / UDPIP groups (IPv4 types; IPv6 is +16)
    detail::inferred_name(detail::tcp_ev("TcpIpSend", 10, perf::network)),
    detail::inferred_name(detail::tcp_ev("TcpIpRecv", 11, perf::network)),
    detail::inferred_name(detail::tcp_ev("TcpIpConnect", 12, perf::network)),
    detail::inferred_name(detail::tcp_ev("TcpIpDisconnect", 13, perf::network)),
    detail::inferred_name(detail::tcp_ev("TcpIpRetransmit", 14, perf::network)),
    detail::inferred_name(detail::tcp_ev("TcpIpAccept", 15, perf::network)),
    detail::inferred_name(detail::tcp_ev("TcpIpReconnect", 16, perf::network)),
    detail::inferred_name(detail::tcp_ev("TcpIpFail", 17, perf::network)),
    detail::inferred_name(detail::udp_ev("UdpIpSend", 10, perf::network)),
    detail::inferred_name(detail::udp_ev("UdpIpRecv", 11, perf::network)),
    detail::inferred_name(detail::udp_ev("UdpIpFail", 17, perf::network)),
    // ALPC group (0x1Axx)
    detail::alpc_ev("AlpcSendMessage", 33, perf::alpc),
    detail::alpc_ev("AlpcReceiveMessage", 34, perf::alpc),
    detail::alpc_ev("AlpcWaitForReply", 35, perf::alpc),
    detail::alpc_ev("AlpcWaitForNewMessage", 36, perf::alpc),
    detail::alpc_ev("AlpcUnwait", 37, perf::alpc),
    detail::alpc_ev("AlpcConnectRequest", 38, perf::alpc),
    detail::alpc_ev("AlpcConnectSuccess", 39, perf::alpc),
    detail::alpc_ev("AlpcConnectFail", 40, perf::alpc),
    detail::alpc_ev("AlpcClosePort", 41, perf::alpc),
    // OBJECT group (0x11xx)
    detail::object_ev("HandleCreate", 0x20, perf::ob_handle),
    detail::object_ev("HandleClose", 0x21, perf::ob_handle),
    detail::object_ev("HandleDuplicate", 0x22, perf::ob_handle),
    detail::object_ev("ObjectCreate", 0x30, perf::ob_object),
    detail::object_ev("ObjectDelete", 0x31, perf::ob_object),
    detail::object_ev("ObjectReference", 0x32, perf::ob_object),
    detail::object_ev("ObjectDeReference", 0x33, perf::ob_object),
    // POOL group (0x0Exx)
    detail::pool_ev("PoolAlloc", 0x20, perf::pool),
    detail::etwctl_name(detail::aliased(detail::pool_ev("PoolAllocation", 0x20, perf::pool))),
    detail::pool_ev("PoolAllocSession", 0x21, perf::pool),
    detail::etwctl_name(detail::aliased(detail::pool_ev("PoolAllocationSession", 0x21, perf::pool))),
    detail::pool_ev("PoolFree", 0x22, perf::pool),
    detail::pool_ev("PoolFreeSession", 0x23, perf::pool),
    // HEAP group (0x10xx): logged by user-mode heap sessions (xperf -heap), PERF_HEAP in the kernel's mask
    detail::heap_ev("HeapCreate", 0x20, perf::heap),
    detail::heap_ev("HeapAlloc", 0x21, perf::heap),
    detail::etwctl_name(detail::aliased(detail::heap_ev("HeapAllocation", 0x21, perf::heap))),
    detail::heap_ev("HeapRealloc", 0x22, perf::heap),
    detail::etwctl_name(detail::aliased(detail::heap_ev("HeapReallocation", 0x22, perf::heap))),
    detail::heap_ev("HeapDestroy", 0x23, perf::heap),
    detail::heap_ev("HeapFree", 0x24, perf::heap),
    // POWER group (0x12xx); PowerIdleStateChange: 0x1235 (PPM_IDLE_STATE_CHANGE) inferred from xperf's order
    detail::power_ev("PowerSetPowerAction", 0x22, perf::power),
    detail::power_ev("PowerSetPowerActionReturn", 0x23, perf::power),
    detail::power_ev("PowerSetDevicesState", 0x24, perf::power),
    detail::power_ev("PowerSetDevicesStateReturn", 0x25, perf::power),
    detail::power_ev("PowerDeviceNotify", 0x26, perf::power),
    detail::power_ev("PowerDeviceNotifyComplete", 0x27, perf::power),
    detail::power_ev("PowerSessionCallout", 0x28, perf::power),
    detail::power_ev("PowerSessionCalloutReturn", 0x29, perf::power),
    detail::power_ev("PowerPreSleep", 0x30, perf::power),
    detail::power_ev("PowerPostSleep", 0x31, perf::power),
    detail::power_ev("PowerPerfStateChange", 0x33, perf::power),
    detail::power_ev("PowerIdleStateChange", 0x35, perf::power),
    detail::power_ev("PowerThermalConstraint", 0x36, perf::power),
    // CC group (0x16xx): the cache manager
    detail::cc_ev("CcWorkitemEnqueue", 0x00, perf::cc),
    detail::cc_ev("CcWorkitemDequeue", 0x01, perf::cc),
    detail::cc_ev("CcWorkitemComplete", 0x02, perf::cc),
    detail::cc_ev("CcReadAhead", 0x03, perf::cc),
    detail::cc_ev("CcWriteBehind", 0x04, perf::cc),
    detail::cc_ev("CcLazyWriteScan", 0x05, perf::cc),
    detail::cc_ev("CcCanIWriteFail", 0x06, perf::cc),
    detail::cc_ev("CcFlushCache", 0x09, perf::cc),
    detail::cc_ev("CcFlushSection", 0x0A, perf::cc),
    // CRITSEC group (0x17xx): logged by user-mode critical-section sessions (xperf -critsec), no kernel flag
    detail::critsec_ev("CritSecCollision", 0x22),
    // SPLITIO group (0x1Bxx)
    detail::splitio_ev("SplitIO", 0x20, perf::split_io),
    // THREAD_POOL group (0x1Cxx): user-mode thread-pool events, no kernel flag
    detail::threadpool_ev("ThreadPoolCallbackEnqueue", 0x20),
    detail::threadpool_ev("ThreadPoolCallbackDequeue", 0x21),
    detail::threadpool_ev("ThreadPoolCallbackStart", 0x22),
    detail::threadpool_ev("ThreadPoolCallbackStop", 0x23),
    detail::threadpool_ev("ThreadPoolCallbackCancel", 0x24),
    detail::threadpool_ev("ThreadPoolCreate", 0x25),
    detail::threadpool_ev("ThreadPoolClose", 0x26),
    detail::threadpool_ev("ThreadPoolSetMinThreads", 0x27),
    detail::threadpool_ev("ThreadPoolSetMaxThreads", 0x28),
    // WPR names with no xperf name: phnt PERFINFO_LOG_TYPE_TP_TIMER_*
    detail::etwctl_name(detail::threadpool_ev("ThreadPoolTimerSet", 0x2A)),
    detail::etwctl_name(detail::threadpool_ev("ThreadPoolTimerCancelled", 0x2B)),
    detail::etwctl_name(detail::threadpool_ev("ThreadPoolSetNtTimer", 0x2C)),
    detail::etwctl_name(detail::threadpool_ev("ThreadPoolCancelNtTimer", 0x2D)),
    detail::etwctl_name(detail::threadpool_ev("ThreadPoolTimerExpirationBegin", 0x2E)),
    detail::etwctl_name(detail::threadpool_ev("ThreadPoolTimerExpirationEnd", 0x2F)),
    detail::etwctl_name(detail::threadpool_ev("ThreadPoolTimerExpiration", 0x30)),
};
// clang-format on

inline constexpr std::size_t kernel_event_count = sizeof(kernel_event_table) / sizeof(kernel_event_table[0]);

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
constexpr bool kernel_event_table_well_formed() noexcept {
    for (std::size_t i = 0; i < kernel_event_count; ++i) {
        auto const& e = kernel_event_table[i];
        if (e.group >= kernel_group_count || e.name.empty()) return false;
        for (char c : e.name)
            if (c == '+' || c == ' ' || c == '\t') return false; // would not survive parsing
        bool canonical_before = false;
        for (std::size_t j = 0; j < i; ++j) {
            auto const& p = kernel_event_table[j];
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
// -fsanitize=undefined, which refuses a pointer into a static table compared with nullptr.
inline constexpr std::size_t no_row = ~std::size_t{0};
constexpr std::size_t kernel_event_row(std::string_view name) noexcept {
    for (std::size_t i = 0; i < std::size(kernel_event_table); ++i)
        if (iequals(kernel_event_table[i].name, name)) return i;
    return no_row;
}
constexpr std::size_t kernel_event_row(hook_id h) noexcept {
    for (std::size_t i = 0; i < std::size(kernel_event_table); ++i)
        if (!kernel_event_table[i].alias && kernel_event_table[i].hook() == h) return i;
    return no_row;
}
} // namespace detail

/// Name -> event (case-insensitive, aliases included), or nullptr.
constexpr kernel_event const* find_kernel_event(std::string_view name) noexcept {
    auto const i = detail::kernel_event_row(name);
    return i == detail::no_row ? nullptr : &kernel_event_table[i];
}
/// Hook id -> its canonical event row (never an alias), or nullptr.
constexpr kernel_event const* find_kernel_event(hook_id h) noexcept {
    auto const i = detail::kernel_event_row(h);
    return i == detail::no_row ? nullptr : &kernel_event_table[i];
}
/// The canonical name of a hook id, or "" if etwctl does not name it.
constexpr std::string_view kernel_event_name(hook_id h) noexcept {
    auto const i = detail::kernel_event_row(h);
    return i == detail::no_row ? std::string_view{} : std::string_view{kernel_event_table[i].name};
}
/// A stack-walk name published without a hook id -> its row, or nullptr.
constexpr known_name_without_value const* find_kernel_event_without_hook(std::string_view name) noexcept {
    return detail::find_without_value(kernel_event_without_hook, name);
}
/// The hook id for a name (case-insensitive), if known.
constexpr std::optional<hook_id> kernel_event_hook(std::string_view name) noexcept {
    auto const i = detail::kernel_event_row(name);
    if (i == detail::no_row) return std::nullopt;
    return kernel_event_table[i].hook();
}
/// The PERF_* flag that enables the event with this hook id, where known. A PMC event list is only
/// useful if these flags are on in the session's group mask (group_mask::enables).
constexpr std::optional<perf_flag> enabling_flag(hook_id h) noexcept {
    auto const i = detail::kernel_event_row(h);
    if (i == detail::no_row) return std::nullopt;
    return kernel_event_table[i].enabling_flag();
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
constexpr std::optional<event_not_enabled> first_event_not_enabled(group_mask const& mask,
                                                                   std::span<hook_id const> events) noexcept {
    for (std::size_t i = 0; i < events.size(); ++i)
        if (auto const flag = enabling_flag(events[i]); flag && !mask.enables(*flag)) return event_not_enabled{i, events[i], *flag};
    return std::nullopt;
}

ETWCTL_END_NAMESPACE
