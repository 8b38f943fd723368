// SPDX-License-Identifier: MIT
// etwctl/names/flags.hpp - every PERFINFO_GROUPMASK flag by name: the PERF_* values, the documented
// EVENT_TRACE_FLAG_* bits of Masks[0], and xperf's kernel-flag names (PROC_THREAD, LOADER, PROFILE, ...)
// as group_masks. One table per naming scheme; everything else (names/parse.hpp, names/events.hpp, the
// generated docs/reference.md) reads these tables, so a value is written down exactly once.
//
// A PERF_* value is a mask index (bits 29-31) plus bits (0-28) - see group_mask.hpp. Combining flags
// is therefore a set operation on the 8 masks (group_mask::set / operator|), never an OR of the 32-bit
// values: PERF_PROFILE | PERF_SYSCALL = 0x20000002 | 0x40000040 = 0x60000042 would name Masks[3].
//
// Sources: phnt ntwmi.h (PERF_*), cross-checked with the SDK's evntrace.h (EVENT_TRACE_FLAG_*) for Masks[0]
// and https://www.geoffchappell.com/studies/windows/km/ntoskrnl/inc/api/ntwmi/perfinfo_groupmask.htm.
// Rows marked "inferred" are matched by name only; the facts give no direct confirmation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/group_mask.hpp"

ETWCTL_BEGIN_NAMESPACE

/// The documented EnableFlags bits (EVENT_TRACE_FLAG_*), i.e. Masks[0] as StartTrace sees it.
namespace event_trace_flag {
inline constexpr std::uint32_t process = 0x00000001U;
inline constexpr std::uint32_t thread = 0x00000002U;
inline constexpr std::uint32_t image_load = 0x00000004U;
inline constexpr std::uint32_t process_counters = 0x00000008U;
inline constexpr std::uint32_t cswitch = 0x00000010U;        // alias of PERF_CONTEXT_SWITCH
inline constexpr std::uint32_t dpc = 0x00000020U;            // alias of PERF_DPC
inline constexpr std::uint32_t interrupt = 0x00000040U;      // alias of PERF_INTERRUPT
inline constexpr std::uint32_t system_call = 0x00000080U;    // alias of PERF_SYSCALL
inline constexpr std::uint32_t disk_io = 0x00000100U;
inline constexpr std::uint32_t disk_file_io = 0x00000200U;
inline constexpr std::uint32_t disk_io_init = 0x00000400U;
inline constexpr std::uint32_t dispatcher = 0x00000800U;     // alias of PERF_DISPATCHER
inline constexpr std::uint32_t memory_page_faults = 0x00001000U;
inline constexpr std::uint32_t memory_hard_faults = 0x00002000U;
inline constexpr std::uint32_t virtual_alloc = 0x00004000U;  // alias of PERF_VIRTUAL_ALLOC
inline constexpr std::uint32_t vamap = 0x00008000U;
inline constexpr std::uint32_t network_tcpip = 0x00010000U;
inline constexpr std::uint32_t registry = 0x00020000U;
inline constexpr std::uint32_t dbgprint = 0x00040000U;
inline constexpr std::uint32_t job = 0x00080000U;
inline constexpr std::uint32_t alpc = 0x00100000U;
inline constexpr std::uint32_t split_io = 0x00200000U;
inline constexpr std::uint32_t debug_events = 0x00400000U;
inline constexpr std::uint32_t driver = 0x00800000U;         // alias of PERF_DRIVERS
inline constexpr std::uint32_t profile = 0x01000000U;        // alias of PERF_PROFILE
inline constexpr std::uint32_t file_io = 0x02000000U;
inline constexpr std::uint32_t file_io_init = 0x04000000U;
inline constexpr std::uint32_t no_sysconfig = 0x10000000U;
inline constexpr std::uint32_t enable_reserve = 0x20000000U;
inline constexpr std::uint32_t forward_wmi = 0x40000000U;
inline constexpr std::uint32_t extension = 0x80000000U;      // EnableFlags holds a TRACE_ENABLE_FLAG_EXTENSION
} // namespace event_trace_flag

struct event_trace_flag_info {
    detail::table_text name; ///< EVENT_TRACE_FLAG_ suffix (a std::string_view, as every name below)
    std::uint32_t value;
};

inline constexpr event_trace_flag_info event_trace_flag_table[] = {
    {"PROCESS", event_trace_flag::process},
    {"THREAD", event_trace_flag::thread},
    {"IMAGE_LOAD", event_trace_flag::image_load},
    {"PROCESS_COUNTERS", event_trace_flag::process_counters},
    {"CSWITCH", event_trace_flag::cswitch},
    {"DPC", event_trace_flag::dpc},
    {"INTERRUPT", event_trace_flag::interrupt},
    {"SYSTEMCALL", event_trace_flag::system_call},
    {"DISK_IO", event_trace_flag::disk_io},
    {"DISK_FILE_IO", event_trace_flag::disk_file_io},
    {"DISK_IO_INIT", event_trace_flag::disk_io_init},
    {"DISPATCHER", event_trace_flag::dispatcher},
    {"MEMORY_PAGE_FAULTS", event_trace_flag::memory_page_faults},
    {"MEMORY_HARD_FAULTS", event_trace_flag::memory_hard_faults},
    {"VIRTUAL_ALLOC", event_trace_flag::virtual_alloc},
    {"VAMAP", event_trace_flag::vamap},
    {"NETWORK_TCPIP", event_trace_flag::network_tcpip},
    {"REGISTRY", event_trace_flag::registry},
    {"DBGPRINT", event_trace_flag::dbgprint},
    {"JOB", event_trace_flag::job},
    {"ALPC", event_trace_flag::alpc},
    {"SPLIT_IO", event_trace_flag::split_io},
    {"DEBUG_EVENTS", event_trace_flag::debug_events},
    {"DRIVER", event_trace_flag::driver},
    {"PROFILE", event_trace_flag::profile},
    {"FILE_IO", event_trace_flag::file_io},
    {"FILE_IO_INIT", event_trace_flag::file_io_init},
    {"NO_SYSCONFIG", event_trace_flag::no_sysconfig},
    {"ENABLE_RESERVE", event_trace_flag::enable_reserve},
    {"FORWARD_WMI", event_trace_flag::forward_wmi},
    {"EXTENSION", event_trace_flag::extension},
};

/// The PERF_* flag an EVENT_TRACE_FLAG_* bit stands for: the extended flag for the alias bits
/// (group_mask.hpp's enable_flag_aliases, the one list of them), else the same bit of Masks[0].
constexpr perf_flag perf_equivalent(std::uint32_t enable_flag) noexcept {
    for (auto const& a : enable_flag_aliases)
        if (a.enable_flag == enable_flag) return a.extended;
    return perf_flag{enable_flag};
}

/// PERF_* values (phnt ntwmi.h = GC perfinfo_groupmask). Some are several bits (PERF_PROC_THREAD,
/// PERF_DISK_IO, PERF_POOLTRACE, PERF_PROFILING, PERF_SPININSTR, PERF_SYSCFG_ALL).
namespace perf {
// Masks[0]: the documented EnableFlags bits
inline constexpr perf_flag process{0x00000001U};
inline constexpr perf_flag thread{0x00000002U};
inline constexpr perf_flag proc_thread{0x00000003U};
inline constexpr perf_flag loader{0x00000004U};
inline constexpr perf_flag perf_counter{0x00000008U};
inline constexpr perf_flag filename{0x00000200U};
inline constexpr perf_flag disk_io{0x00000300U}; // DISK_IO + FILENAME
inline constexpr perf_flag disk_io_init{0x00000400U};
inline constexpr perf_flag all_faults{0x00001000U};
inline constexpr perf_flag hard_faults{0x00002000U};
inline constexpr perf_flag vamap{0x00008000U};
inline constexpr perf_flag network{0x00010000U};
inline constexpr perf_flag registry{0x00020000U};
inline constexpr perf_flag dbgprint{0x00040000U};
inline constexpr perf_flag job{0x00080000U};
inline constexpr perf_flag alpc{0x00100000U};
inline constexpr perf_flag split_io{0x00200000U};
inline constexpr perf_flag debug_events{0x00400000U};
inline constexpr perf_flag file_io{0x02000000U};
inline constexpr perf_flag file_io_init{0x04000000U};
inline constexpr perf_flag no_sysconfig{0x10000000U};
// Masks[1]
inline constexpr perf_flag memory{0x20000001U};
inline constexpr perf_flag profile{0x20000002U};
inline constexpr perf_flag context_switch{0x20000004U};
inline constexpr perf_flag footprint{0x20000008U};
inline constexpr perf_flag drivers{0x20000010U};
inline constexpr perf_flag refset{0x20000020U};
inline constexpr perf_flag pool{0x20000040U};
inline constexpr perf_flag pooltrace{0x20000041U};
inline constexpr perf_flag dpc{0x20000080U};
inline constexpr perf_flag compact_cswitch{0x20000100U};
inline constexpr perf_flag dispatcher{0x20000200U};
inline constexpr perf_flag pmc_profile{0x20000400U};
inline constexpr perf_flag profiling{0x20000402U};
inline constexpr perf_flag process_inswap{0x20000800U};
inline constexpr perf_flag affinity{0x20001000U};
inline constexpr perf_flag priority{0x20002000U};
inline constexpr perf_flag interrupt{0x20004000U};
inline constexpr perf_flag virtual_alloc{0x20008000U};
inline constexpr perf_flag spinlock{0x20010000U};
inline constexpr perf_flag sync_objects{0x20020000U};
inline constexpr perf_flag dpc_queue{0x20040000U};
inline constexpr perf_flag meminfo{0x20080000U};
inline constexpr perf_flag contmem_gen{0x20100000U};
inline constexpr perf_flag spinlock_cntrs{0x20200000U};
inline constexpr perf_flag spininstr{0x20210000U};
inline constexpr perf_flag session{0x20400000U}; // = PERF_PFSECTION
inline constexpr perf_flag meminfo_ws{0x20800000U};
inline constexpr perf_flag kernel_queue{0x21000000U};
inline constexpr perf_flag interrupt_steer{0x22000000U};
inline constexpr perf_flag should_yield{0x24000000U};
inline constexpr perf_flag ws{0x28000000U};
// Masks[2]
inline constexpr perf_flag anti_starvation{0x40000001U};
inline constexpr perf_flag process_freeze{0x40000002U};
inline constexpr perf_flag pfn_list{0x40000004U};
inline constexpr perf_flag ws_detail{0x40000008U};
inline constexpr perf_flag ws_entry{0x40000010U};
inline constexpr perf_flag heap{0x40000020U};
inline constexpr perf_flag syscall{0x40000040U};
inline constexpr perf_flag ums{0x40000080U};
inline constexpr perf_flag backtrace{0x40000100U};
inline constexpr perf_flag vulcan{0x40000200U};
inline constexpr perf_flag objects{0x40000400U};
inline constexpr perf_flag events{0x40000800U};
inline constexpr perf_flag fulltrace{0x40001000U};
inline constexpr perf_flag dfss{0x40002000U};
inline constexpr perf_flag prefetch{0x40004000U};
inline constexpr perf_flag processor_idle{0x40008000U};
inline constexpr perf_flag cpu_config{0x40010000U};
inline constexpr perf_flag timer{0x40020000U};
inline constexpr perf_flag clock_interrupt{0x40040000U};
inline constexpr perf_flag load_balancer{0x40080000U};
inline constexpr perf_flag clock_timer{0x40100000U};
inline constexpr perf_flag idle_selection{0x40200000U};
inline constexpr perf_flag ipi{0x40400000U};
inline constexpr perf_flag io_timer{0x40800000U};
inline constexpr perf_flag reg_hive{0x41000000U};
inline constexpr perf_flag reg_notif{0x42000000U};
inline constexpr perf_flag ppm_exit_latency{0x44000000U};
inline constexpr perf_flag worker_thread{0x48000000U};
// Masks[3]: none defined. Masks[4]
inline constexpr perf_flag optical_io{0x80000001U};
inline constexpr perf_flag optical_io_init{0x80000002U};
inline constexpr perf_flag dll_info{0x80000008U};
inline constexpr perf_flag dll_flush_ws{0x80000010U};
inline constexpr perf_flag ob_handle{0x80000040U};
inline constexpr perf_flag ob_object{0x80000080U};
inline constexpr perf_flag wake_drop{0x80000200U};
inline constexpr perf_flag wake_event{0x80000400U};
inline constexpr perf_flag debugger{0x80000800U};
inline constexpr perf_flag proc_attach{0x80001000U};
inline constexpr perf_flag wake_counter{0x80002000U};
inline constexpr perf_flag power{0x80008000U};
inline constexpr perf_flag soft_trim{0x80010000U};
inline constexpr perf_flag cc{0x80020000U};
inline constexpr perf_flag flt_io_init{0x80080000U};
inline constexpr perf_flag flt_io{0x80100000U};
inline constexpr perf_flag flt_fastio{0x80200000U};
inline constexpr perf_flag flt_io_failure{0x80400000U};
inline constexpr perf_flag hv_profile{0x80800000U};
inline constexpr perf_flag wdf_dpc{0x81000000U};
inline constexpr perf_flag wdf_interrupt{0x82000000U};
inline constexpr perf_flag cache_flush{0x84000000U};
// Masks[5]
inline constexpr perf_flag hiber_rundown{0xA0000001U};
// Masks[6]
inline constexpr perf_flag syscfg_system{0xC0000001U};
inline constexpr perf_flag syscfg_graphics{0xC0000002U};
inline constexpr perf_flag syscfg_storage{0xC0000004U};
inline constexpr perf_flag syscfg_network{0xC0000008U};
inline constexpr perf_flag syscfg_services{0xC0000010U};
inline constexpr perf_flag syscfg_pnp{0xC0000020U};
inline constexpr perf_flag syscfg_optical{0xC0000040U};
inline constexpr perf_flag syscfg_all{0xDFFFFFFFU};
// Masks[7]: system-behaviour control, not tracing
inline constexpr perf_flag cluster_off{0xE0000001U};
inline constexpr perf_flag memory_control{0xE0000002U};
} // namespace perf

struct perf_flag_info {
    detail::table_text name; ///< PERF_* as in ntwmi.h
    perf_flag flag;
};

// A variable template, read as perf_flag_table<> (as xperf_kernel_flag_table<> and xperf_kernel_group_table<>
// below): see kernel_event_table<> in names/events.hpp.
// clang-format off
template <class D = void>
inline constexpr detail::dependent_t<D, perf_flag_info> perf_flag_table[] = {
    {"PERF_PROCESS", perf::process}, {"PERF_THREAD", perf::thread}, {"PERF_PROC_THREAD", perf::proc_thread},
    {"PERF_LOADER", perf::loader}, {"PERF_PERF_COUNTER", perf::perf_counter}, {"PERF_FILENAME", perf::filename},
    {"PERF_DISK_IO", perf::disk_io}, {"PERF_DISK_IO_INIT", perf::disk_io_init}, {"PERF_ALL_FAULTS", perf::all_faults},
    {"PERF_HARD_FAULTS", perf::hard_faults}, {"PERF_VAMAP", perf::vamap}, {"PERF_NETWORK", perf::network},
    {"PERF_REGISTRY", perf::registry}, {"PERF_DBGPRINT", perf::dbgprint}, {"PERF_JOB", perf::job},
    {"PERF_ALPC", perf::alpc}, {"PERF_SPLIT_IO", perf::split_io}, {"PERF_DEBUG_EVENTS", perf::debug_events},
    {"PERF_FILE_IO", perf::file_io}, {"PERF_FILE_IO_INIT", perf::file_io_init}, {"PERF_NO_SYSCONFIG", perf::no_sysconfig},

    {"PERF_MEMORY", perf::memory}, {"PERF_PROFILE", perf::profile}, {"PERF_CONTEXT_SWITCH", perf::context_switch},
    {"PERF_FOOTPRINT", perf::footprint}, {"PERF_DRIVERS", perf::drivers}, {"PERF_REFSET", perf::refset},
    {"PERF_POOL", perf::pool}, {"PERF_POOLTRACE", perf::pooltrace}, {"PERF_DPC", perf::dpc},
    {"PERF_COMPACT_CSWITCH", perf::compact_cswitch}, {"PERF_DISPATCHER", perf::dispatcher},
    {"PERF_PMC_PROFILE", perf::pmc_profile}, {"PERF_PROFILING", perf::profiling},
    {"PERF_PROCESS_INSWAP", perf::process_inswap}, {"PERF_AFFINITY", perf::affinity}, {"PERF_PRIORITY", perf::priority},
    {"PERF_INTERRUPT", perf::interrupt}, {"PERF_VIRTUAL_ALLOC", perf::virtual_alloc}, {"PERF_SPINLOCK", perf::spinlock},
    {"PERF_SYNC_OBJECTS", perf::sync_objects}, {"PERF_DPC_QUEUE", perf::dpc_queue}, {"PERF_MEMINFO", perf::meminfo},
    {"PERF_CONTMEM_GEN", perf::contmem_gen}, {"PERF_SPINLOCK_CNTRS", perf::spinlock_cntrs},
    {"PERF_SPININSTR", perf::spininstr}, {"PERF_SESSION", perf::session}, {"PERF_PFSECTION", perf::session},
    {"PERF_MEMINFO_WS", perf::meminfo_ws}, {"PERF_KERNEL_QUEUE", perf::kernel_queue},
    {"PERF_INTERRUPT_STEER", perf::interrupt_steer}, {"PERF_SHOULD_YIELD", perf::should_yield}, {"PERF_WS", perf::ws},

    {"PERF_ANTI_STARVATION", perf::anti_starvation}, {"PERF_PROCESS_FREEZE", perf::process_freeze},
    {"PERF_PFN_LIST", perf::pfn_list}, {"PERF_WS_DETAIL", perf::ws_detail}, {"PERF_WS_ENTRY", perf::ws_entry},
    {"PERF_HEAP", perf::heap}, {"PERF_SYSCALL", perf::syscall}, {"PERF_UMS", perf::ums},
    {"PERF_BACKTRACE", perf::backtrace}, {"PERF_VULCAN", perf::vulcan}, {"PERF_OBJECTS", perf::objects},
    {"PERF_EVENTS", perf::events}, {"PERF_FULLTRACE", perf::fulltrace}, {"PERF_DFSS", perf::dfss},
    {"PERF_PREFETCH", perf::prefetch}, {"PERF_PROCESSOR_IDLE", perf::processor_idle},
    {"PERF_CPU_CONFIG", perf::cpu_config}, {"PERF_TIMER", perf::timer}, {"PERF_CLOCK_INTERRUPT", perf::clock_interrupt},
    {"PERF_LOAD_BALANCER", perf::load_balancer}, {"PERF_CLOCK_TIMER", perf::clock_timer},
    {"PERF_IDLE_SELECTION", perf::idle_selection}, {"PERF_IPI", perf::ipi}, {"PERF_IO_TIMER", perf::io_timer},
    {"PERF_REG_HIVE", perf::reg_hive}, {"PERF_REG_NOTIF", perf::reg_notif},
    {"PERF_PPM_EXIT_LATENCY", perf::ppm_exit_latency}, {"PERF_WORKER_THREAD", perf::worker_thread},

    {"PERF_OPTICAL_IO", perf::optical_io}, {"PERF_OPTICAL_IO_INIT", perf::optical_io_init},
    {"PERF_DLL_INFO", perf::dll_info}, {"PERF_DLL_FLUSH_WS", perf::dll_flush_ws}, {"PERF_OB_HANDLE", perf::ob_handle},
    {"PERF_OB_OBJECT", perf::ob_object}, {"PERF_WAKE_DROP", perf::wake_drop}, {"PERF_WAKE_EVENT", perf::wake_event},
    {"PERF_DEBUGGER", perf::debugger}, {"PERF_PROC_ATTACH", perf::proc_attach},
    {"PERF_WAKE_COUNTER", perf::wake_counter}, {"PERF_POWER", perf::power}, {"PERF_SOFT_TRIM", perf::soft_trim},
    {"PERF_CC", perf::cc}, {"PERF_FLT_IO_INIT", perf::flt_io_init}, {"PERF_FLT_IO", perf::flt_io},
    {"PERF_FLT_FASTIO", perf::flt_fastio}, {"PERF_FLT_IO_FAILURE", perf::flt_io_failure},
    {"PERF_HV_PROFILE", perf::hv_profile}, {"PERF_WDF_DPC", perf::wdf_dpc}, {"PERF_WDF_INTERRUPT", perf::wdf_interrupt},
    {"PERF_CACHE_FLUSH", perf::cache_flush},

    {"PERF_HIBER_RUNDOWN", perf::hiber_rundown},

    {"PERF_SYSCFG_SYSTEM", perf::syscfg_system}, {"PERF_SYSCFG_GRAPHICS", perf::syscfg_graphics},
    {"PERF_SYSCFG_STORAGE", perf::syscfg_storage}, {"PERF_SYSCFG_NETWORK", perf::syscfg_network},
    {"PERF_SYSCFG_SERVICES", perf::syscfg_services}, {"PERF_SYSCFG_PNP", perf::syscfg_pnp},
    {"PERF_SYSCFG_OPTICAL", perf::syscfg_optical}, {"PERF_SYSCFG_ALL", perf::syscfg_all},

    {"PERF_CLUSTER_OFF", perf::cluster_off}, {"PERF_MEMORY_CONTROL", perf::memory_control},
};
// clang-format on

/// A group_mask with several flags set (each into its own mask).
template <class... F>
constexpr group_mask mask_of(F... flags) noexcept {
    group_mask m;
    (m.set(flags), ...);
    return m;
}

/// xperf's kernel-flag name and the group mask it turns on.
struct xperf_kernel_flag {
    detail::table_text name;
    group_mask mask;
    bool inferred = false; ///< value matched to the name by name only (no public source pairs them)
};

// Order matters for formatting: a row never comes after a row whose bits it strictly contains, so the
// greedy formatter names DISK_IO (0x300) before FILENAME (0x200) - checked below.
// Names are `xperf -providers KF` (Windows Kits 10), plus SYNCOBJECTS from an older output; the list
// is tests/data/xperf_kernel_flags.txt and a test keeps this table and xperf_kernel_flag_without_value
// equal to it. Flags xperf knows but whose value no public source gives are in
// xperf_kernel_flag_without_value below (the tool names them as known but unusable).
// clang-format off
template <class D = void>
inline constexpr detail::dependent_t<D, xperf_kernel_flag> xperf_kernel_flag_table[] = {
    {"PROC_THREAD", mask_of(perf::proc_thread)},
    {"LOADER", mask_of(perf::loader)},
    {"PROFILE", mask_of(perf::profile)},
    {"CSWITCH", mask_of(perf::context_switch)},
    {"COMPACT_CSWITCH", mask_of(perf::compact_cswitch)},
    {"DISPATCHER", mask_of(perf::dispatcher)},
    {"DPC", mask_of(perf::dpc)},
    {"INTERRUPT", mask_of(perf::interrupt)},
    {"INTERRUPT_STEER", mask_of(perf::interrupt_steer)},
    {"WDF_DPC", mask_of(perf::wdf_dpc)},
    {"WDF_INTERRUPT", mask_of(perf::wdf_interrupt)},
    {"SYSCALL", mask_of(perf::syscall)},
    {"PRIORITY", mask_of(perf::priority)},
    {"SPINLOCK", mask_of(perf::spinlock)},
    // inferred (KQUEUE, IDLE_STATES, KE_CLOCK): these are WPR's keywords KernelQueue, IdleStates and KeClock
    // (names/wpr.hpp), whose values come from a third-party decoding of WPR's keyword table
    // (brycehutchings/InstantTraceViewer Wprp.cs) - an inference, not a Microsoft statement
    {"KQUEUE", mask_of(perf::kernel_queue), true},          // inferred: = PERF_KERNEL_QUEUE (WPR KernelQueue)
    {"ALPC", mask_of(perf::alpc)},
    {"PERF_COUNTER", mask_of(perf::perf_counter)},
    {"DISK_IO", mask_of(perf::disk_io)},
    {"DISK_IO_INIT", mask_of(perf::disk_io_init)},
    {"FILE_IO", mask_of(perf::file_io)},
    {"FILE_IO_INIT", mask_of(perf::file_io_init)},
    {"HARD_FAULTS", mask_of(perf::hard_faults)},
    {"FILENAME", mask_of(perf::filename)},
    {"SPLIT_IO", mask_of(perf::split_io)},
    {"REGISTRY", mask_of(perf::registry)},
    {"REG_HIVE", mask_of(perf::reg_hive)},
    {"DRIVERS", mask_of(perf::drivers)},
    {"POWER", mask_of(perf::power)},
    {"CC", mask_of(perf::cc)},
    {"NETWORKTRACE", mask_of(perf::network)},
    {"VIRT_ALLOC", mask_of(perf::virtual_alloc)},
    {"MEMINFO", mask_of(perf::meminfo)},
    {"MEMINFO_WS", mask_of(perf::meminfo_ws)},
    {"ALL_FAULTS", mask_of(perf::all_faults)},
    {"VAMAP", mask_of(perf::vamap)},
    {"FOOTPRINT", mask_of(perf::footprint)},
    {"MEMORY", mask_of(perf::memory)},
    {"REFSET", mask_of(perf::refset)},
    {"HIBERRUNDOWN", mask_of(perf::hiber_rundown)},
    {"CONTMEMGEN", mask_of(perf::contmem_gen)},
    {"POOL", mask_of(perf::pool)},
    {"SHOULDYIELD", mask_of(perf::should_yield)},
    {"SESSION", mask_of(perf::session)},
    {"CPU_CONFIG", mask_of(perf::cpu_config)},
    {"IDLE_STATES", mask_of(perf::processor_idle), true},   // inferred: = PERF_PROCESSOR_IDLE (WPR IdleStates)
    {"TIMER", mask_of(perf::timer)},
    {"CLOCKINT", mask_of(perf::clock_interrupt)},
    {"IPI", mask_of(perf::ipi)},
    {"OPTICAL_IO", mask_of(perf::optical_io)},
    {"OPTICAL_IO_INIT", mask_of(perf::optical_io_init)},
    {"FLT_IO_INIT", mask_of(perf::flt_io_init)},
    {"FLT_IO", mask_of(perf::flt_io)},
    {"FLT_FASTIO", mask_of(perf::flt_fastio)},
    {"FLT_IO_FAILURE", mask_of(perf::flt_io_failure)},
    {"OB_HANDLE", mask_of(perf::ob_handle)},
    {"OB_OBJECT", mask_of(perf::ob_object)},
    {"KE_CLOCK", mask_of(perf::clock_timer), true},         // inferred: = PERF_CLOCK_TIMER (WPR KeClock)
    {"PMC_PROFILE", mask_of(perf::pmc_profile)},
    {"DPC_QUEUE", mask_of(perf::dpc_queue)},
    {"CACHE_FLUSH", mask_of(perf::cache_flush)},
    {"DEBUG_EVENTS", mask_of(perf::debug_events)},
    // older xperf outputs (a 2012 `xperf -providers k`): matched by name to PERF_SYNC_OBJECTS (ERESOURCE
    // tracing per Geoff Chappell's PERFINFO_GROUPMASK page)
    {"SYNCOBJECTS", mask_of(perf::sync_objects), true},
};
// clang-format on

/// A name a tool publishes (an xperf flag, an xperf or WPR stack name, a WPR keyword) whose value no
/// public source gives. The parsers refuse it as such (rule::parse_name_without_value, with seen_in as
/// the parse_error's note) instead of "unknown name", and never guess a value for it.
struct known_name_without_value {
    detail::table_text name;    ///< a std::string_view (detail::table_text: its length is the literal's)
    detail::table_text seen_in; ///< where the name is published (and why it has no value)
};

inline constexpr known_name_without_value xperf_kernel_flag_without_value[] = {
    {"HAL_CLOCK", "xperf -providers KF (older Windows Performance Toolkit)"},
    {"IDEAL_PROC", "third-party flag lists; PERF_IDEAL_PROCESSOR named without a value on learn.microsoft.com system-providers"},
    {"NONTRADEABLE_MEMORY", "third-party flag lists"},
    {"VTL_CHANGE", "third-party flag lists; PERF_VTL_CHANGE named without a value on learn.microsoft.com system-providers"},
    {"HV_CALLOUTS", "third-party flag lists; PERF_HV_CALLOUTS named without a value on learn.microsoft.com system-providers"},
    {"BYPASSIO_VETO", "third-party flag lists"},
    {"DISABLE_PRIQ", "third-party flag lists"},
};

/// xperf's kernel groups (`xperf -on Base`): named unions of kernel flags. A group turns on the union
/// of its members (learn.microsoft.com, xperf "Starting a trace"). Membership is what xperf printed
/// for `xperf -providers KG` in an older Windows Performance Toolkit (published in
/// lowleveldesign/debug-recipes, etw/xperf/xperf.exe.md); no Windows 10-era listing is public, so
/// every group but two is marked inferred. Confirmed independently: DiagEasy (the same eight flags on
/// learn.microsoft.com, desktop-src/xperf/wpa-providers) and Latency (UIforETW's UIforETWDlg.cpp).
/// Members with an uncertain value (DISK_IO, NETWORKTRACE, VIRT_ALLOC) carry that into the group.
struct xperf_kernel_group {
    detail::table_text name;
    detail::table_text members; ///< as xperf prints them; tests check mask == parse(members)
    group_mask mask;
    bool inferred = true;
};

// clang-format off
template <class D = void>
inline constexpr detail::dependent_t<D, xperf_kernel_group> xperf_kernel_group_table[] = {
    {"Base", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+PROFILE+MEMINFO+MEMINFO_WS",
     mask_of(perf::proc_thread, perf::loader, perf::disk_io, perf::hard_faults, perf::profile, perf::meminfo, perf::meminfo_ws)},
    {"Diag", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+DPC+INTERRUPT+CSWITCH+PERF_COUNTER+COMPACT_CSWITCH",
     mask_of(perf::proc_thread, perf::loader, perf::disk_io, perf::hard_faults, perf::dpc, perf::interrupt,
             perf::context_switch, perf::perf_counter, perf::compact_cswitch)},
    {"DiagEasy", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+DPC+INTERRUPT+CSWITCH+PERF_COUNTER",
     mask_of(perf::proc_thread, perf::loader, perf::disk_io, perf::hard_faults, perf::dpc, perf::interrupt,
             perf::context_switch, perf::perf_counter), false},
    {"Latency", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+DPC+INTERRUPT+CSWITCH+PROFILE",
     mask_of(perf::proc_thread, perf::loader, perf::disk_io, perf::hard_faults, perf::dpc, perf::interrupt,
             perf::context_switch, perf::profile), false},
    {"FileIO", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+FILE_IO+FILE_IO_INIT",
     mask_of(perf::proc_thread, perf::loader, perf::disk_io, perf::hard_faults, perf::file_io, perf::file_io_init)},
    {"IOTrace", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+CSWITCH",
     mask_of(perf::proc_thread, perf::loader, perf::disk_io, perf::hard_faults, perf::context_switch)},
    {"ResumeTrace", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+PROFILE+POWER",
     mask_of(perf::proc_thread, perf::loader, perf::disk_io, perf::hard_faults, perf::profile, perf::power)},
    {"SysProf", "PROC_THREAD+LOADER+PROFILE", mask_of(perf::proc_thread, perf::loader, perf::profile)},
    {"ResidentSet", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+MEMORY+MEMINFO+VAMAP+SESSION+VIRT_ALLOC",
     mask_of(perf::proc_thread, perf::loader, perf::disk_io, perf::hard_faults, perf::memory, perf::meminfo,
             perf::vamap, perf::session, perf::virtual_alloc)},
    {"ReferenceSet", "PROC_THREAD+LOADER+HARD_FAULTS+MEMORY+FOOTPRINT+VIRT_ALLOC+MEMINFO+VAMAP+SESSION+REFSET+MEMINFO_WS",
     mask_of(perf::proc_thread, perf::loader, perf::hard_faults, perf::memory, perf::footprint, perf::virtual_alloc,
             perf::meminfo, perf::vamap, perf::session, perf::refset, perf::meminfo_ws)},
    {"Network", "PROC_THREAD+LOADER+NETWORKTRACE", mask_of(perf::proc_thread, perf::loader, perf::network)},
};
// clang-format on

namespace detail {
constexpr bool is_subset(group_mask const& a, group_mask const& b) noexcept { return (a - b).empty(); }

template <class D = void>
constexpr bool xperf_table_well_formed() noexcept {
    constexpr std::size_t n = sizeof(xperf_kernel_flag_table<D>) / sizeof(xperf_kernel_flag_table<D>[0]);
    for (std::size_t i = 0; i < n; ++i) {
        if (xperf_kernel_flag_table<D>[i].mask.empty()) return false;
        for (std::size_t j = i + 1; j < n; ++j) {
            auto const& a = xperf_kernel_flag_table<D>[i];
            auto const& b = xperf_kernel_flag_table<D>[j];
            if (iequals(a.name, b.name) || a.mask == b.mask) return false;
            if (is_subset(a.mask, b.mask)) return false; // b strictly contains a: b must come first
        }
    }
    return true;
}
/// No two rows' names equal case-insensitively (name_of: row -> string_view).
template <class Row, std::size_t N, class NameOf>
constexpr bool names_unique(Row const (&rows)[N], NameOf name_of) noexcept {
    for (std::size_t i = 0; i < N; ++i)
        for (std::size_t j = i + 1; j < N; ++j)
            if (iequals(name_of(rows[i]), name_of(rows[j]))) return false;
    return true;
}
template <class D = void>
constexpr bool perf_table_well_formed() noexcept {
    for (auto const& f : perf_flag_table<D>)
        if (f.flag.bits() == 0) return false;
    return names_unique(perf_flag_table<D>, [](perf_flag_info const& f) { return f.name; });
}
} // namespace detail

// The table is checked (well_formed) by tests/tables/test_tables_static.cpp, not here: the O(n^2)
// check would be paid by every translation unit that includes this header.

/// xperf kernel-flag name -> row (case-insensitive), or nullptr.
template <class D = void>
constexpr xperf_kernel_flag const* find_xperf_kernel_flag(std::string_view name) noexcept {
    for (auto const& f : xperf_kernel_flag_table<D>)
        if (detail::iequals(f.name, name)) return &f;
    return nullptr;
}
/// xperf kernel-group name -> row (case-insensitive: xperf accepts any case), or nullptr.
template <class D = void>
constexpr xperf_kernel_group const* find_xperf_kernel_group(std::string_view name) noexcept {
    for (auto const& g : xperf_kernel_group_table<D>)
        if (detail::iequals(g.name, name)) return &g;
    return nullptr;
}
namespace detail {
/// name -> its row of a table of known_name_without_value (case-insensitive), or nullptr.
template <std::size_t N>
constexpr known_name_without_value const* find_without_value(known_name_without_value const (&table)[N],
                                                             std::string_view name) noexcept {
    for (auto const& f : table)
        if (iequals(f.name, name)) return &f;
    return nullptr;
}
} // namespace detail

/// A flag name xperf lists without a public value -> row, or nullptr.
constexpr known_name_without_value const* find_xperf_flag_without_value(std::string_view name) noexcept {
    return detail::find_without_value(xperf_kernel_flag_without_value, name);
}
namespace detail {
/// The row lookups of names/ (this one, events.hpp's) answer an index, or no_row.
inline constexpr std::size_t no_row = ~std::size_t{0};
/// PERF_* name -> its row of perf_flag_table, or no_row (what the parsers use).
template <class D = void>
constexpr std::size_t perf_flag_row(std::string_view name) noexcept {
    for (std::size_t i = 0; i < std::size(perf_flag_table<D>); ++i)
        if (iequals(perf_flag_table<D>[i].name, name)) return i;
    return no_row;
}
} // namespace detail
/// PERF_* name -> flag (case-insensitive).
template <class D = void>
constexpr std::optional<detail::dependent_t<D, perf_flag>> perf_flag_by_name(std::string_view name) noexcept {
    auto const i = detail::perf_flag_row<D>(name);
    if (i == detail::no_row) return std::nullopt;
    return perf_flag_table<D>[i].flag;
}
/// Flag -> its first PERF_* name, "" if none has exactly this value.
template <class D = void>
constexpr std::string_view perf_flag_name(perf_flag f) noexcept {
    for (auto const& row : perf_flag_table<D>)
        if (row.flag == f) return row.name;
    return {};
}

ETWCTL_END_NAMESPACE
