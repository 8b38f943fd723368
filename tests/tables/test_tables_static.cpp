// Compile-time checks of the naming tables against the public sources (KPROFILE_SOURCE, hook ids, PERF_* in
// phnt ntkeapi.h / ntwmi.h; EVENT_TRACE_FLAG_* in the SDK's evntrace.h). Nothing runs:
// if a value drifts from the facts, this file stops compiling and names the fact.
#include "etwctl/names/events.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/names/sources.hpp"
#include "etwctl/names/wpr.hpp"

namespace {
using namespace etwctl;

constexpr bool hook_is(std::string_view name, std::uint16_t value) {
    auto const h = kernel_event_hook(name);
    return h && h->value == value;
}

// The group GUIDs are written in the header as the SDK's DEFINE_GUID numbers (no text to parse in every
// translation unit); here they are checked against their published text form (evntrace.h, phnt ntwmi.h),
// in group order.
constexpr std::string_view published_group_guids[] = {
    "68fdd900-4a3e-11d1-84f4-0000f80464e3",
    "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c",
    "3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c",
    "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c",
    "90cbdc39-4a3e-11d1-84f4-0000f80464e3",
    "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c",
    "9a280ac0-c8e0-11d1-84e2-00c04fb998a2",
    "3282fc76-feed-498e-8aa7-e70f459d430e",
    "bf3a50c5-a9c9-4988-a005-2df0b7c80f80",
    "ae53722e-c863-11d2-8659-00c04fa321a1",
    "13976d09-a327-438c-950b-7f03192815c7",
    "01853a65-418f-4f36-aefc-dc0f1d2fd235",
    "99134383-5248-43fc-834b-529454e75df3",
    "42695762-ea50-497a-9068-5cbbb35e0b95",
    "0268a8b6-74fd-4302-9dd0-6e8f1795c0cf",
    "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc",
    "222962ab-6180-4b88-a825-346b75f2a24a",
    "89497f50-effe-4440-8cf2-ce6b1cdcaca7",
    "e43445e0-0903-48c3-b878-ff0fccebdd04",
    "a9152f00-3f58-4bee-92a1-70c7d079d5dd",
    "2cb15d1d-5fc1-11d2-abe1-00a0c911f518",
    "b2d14872-7c5b-463d-8419-ee9bf7d23e04",
    "7687a439-f752-45b8-b741-321aec0f8df9",
    "3ac66736-cc59-4cff-8115-8df50e39816b",
    "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3",
    "9aec974b-5b8e-4118-9b92-3186d8002ce5",
    "45d8cccd-539f-4b72-a8b7-5c683142609a",
    "d837ca92-12b9-44a5-ad6a-3a65b3578aa8",
    "c861d0e2-a2c1-4d36-9f9c-970bab943a12",
    "7f2a405c-69b5-4bf9-a1f5-30e8f1afab5e",
    "2ce9a149-effe-42f0-a635-a1d39e26c8f2"
};
static_assert(std::size(published_group_guids) == kernel_group_count);
template <class = void>
constexpr bool group_guids_match_published() {
    for (std::size_t i = 0; i < kernel_group_count; ++i)
        if (!(kernel_group_table[i].event_guid == guid::from_string(published_group_guids[i]))) return false;
    return true;
}
static_assert(group_guids_match_published(), "kernel_group_table: a GUID differs from its published text form");

// The group numbers by name (detail::group_number, which the table's rows and the event table use) name
// the published EVENT_TRACE_GROUP_* of their row: a misplaced enumerator or row fails here.
static_assert(kernel_group_table[detail::header_group].name == std::string_view("HEADER"));
static_assert(kernel_group_table[detail::disk_group].name == std::string_view("IO"));
static_assert(kernel_group_table[detail::fault_group].name == std::string_view("MEMORY"));
static_assert(kernel_group_table[detail::process_group].name == std::string_view("PROCESS"));
static_assert(kernel_group_table[detail::file_group].name == std::string_view("FILE"));
static_assert(kernel_group_table[detail::thread_group].name == std::string_view("THREAD"));
static_assert(kernel_group_table[detail::tcp_group].name == std::string_view("TCPIP"));
static_assert(kernel_group_table[detail::job_group].name == std::string_view("JOB"));
static_assert(kernel_group_table[detail::udp_group].name == std::string_view("UDPIP"));
static_assert(kernel_group_table[detail::registry_group].name == std::string_view("REGISTRY"));
static_assert(kernel_group_table[detail::dbgprint_group].name == std::string_view("DBGPRINT"));
static_assert(kernel_group_table[detail::config_group].name == std::string_view("CONFIG"));
static_assert(kernel_group_table[detail::spare1_group].name == std::string_view("SPARE1"));
static_assert(kernel_group_table[detail::wnf_group].name == std::string_view("WNF"));
static_assert(kernel_group_table[detail::pool_group].name == std::string_view("POOL"));
static_assert(kernel_group_table[detail::perfinfo_group].name == std::string_view("PERFINFO"));
static_assert(kernel_group_table[detail::heap_group].name == std::string_view("HEAP"));
static_assert(kernel_group_table[detail::object_group].name == std::string_view("OBJECT"));
static_assert(kernel_group_table[detail::power_group].name == std::string_view("POWER"));
static_assert(kernel_group_table[detail::modbound_group].name == std::string_view("MODBOUND"));
static_assert(kernel_group_table[detail::image_group].name == std::string_view("IMAGE"));
static_assert(kernel_group_table[detail::dpc_group].name == std::string_view("DPC"));
static_assert(kernel_group_table[detail::cc_group].name == std::string_view("CC"));
static_assert(kernel_group_table[detail::critsec_group].name == std::string_view("CRITSEC"));
static_assert(kernel_group_table[detail::stackwalk_group].name == std::string_view("STACKWALK"));
static_assert(kernel_group_table[detail::ums_group].name == std::string_view("UMS"));
static_assert(kernel_group_table[detail::alpc_group].name == std::string_view("ALPC"));
static_assert(kernel_group_table[detail::splitio_group].name == std::string_view("SPLITIO"));
static_assert(kernel_group_table[detail::threadpool_group].name == std::string_view("THREAD_POOL"));
static_assert(kernel_group_table[detail::hypervisor_group].name == std::string_view("HYPERVISOR"));
static_assert(kernel_group_table[detail::hypervisorx_group].name == std::string_view("HYPERVISORX"));

// 5c: hook ids of the events profilers stack-walk.
static_assert(hook_is("CSwitch", 0x0524));
static_assert(hook_is("ReadyThread", 0x0532));
static_assert(hook_is("SampledProfile", 0x0F2E) && hook_is("Profile", 0x0F2E));
static_assert(hook_is("PmcInterrupt", 0x0F2F));
static_assert(hook_is("SyscallEnter", 0x0F33) && hook_is("SyscallExit", 0x0F34));
static_assert(hook_is("ProcessCreate", 0x0301) && hook_is("ProcessDelete", 0x0302));
static_assert(hook_is("ThreadCreate", 0x0501) && hook_is("ThreadDelete", 0x0502));
static_assert(hook_is("ImageLoad", 0x030A) && hook_is("ImageUnload", 0x1402));
static_assert(hook_is("DiskRead", 0x010A) && hook_is("DiskWrite", 0x010B) && hook_is("DiskReadInit", 0x010C) &&
              hook_is("DiskWriteInit", 0x010D) && hook_is("DiskFlush", 0x010E) && hook_is("DiskFlushInit", 0x010F));
static_assert(hook_is("TransitionFault", 0x020A) && hook_is("DemandZeroFault", 0x020B) &&
              hook_is("CopyOnWrite", 0x020C) && hook_is("GuardPageFault", 0x020D) && hook_is("HardPageFault", 0x020E) &&
              hook_is("AccessViolation", 0x020F) && hook_is("HardFault", 0x0220));
static_assert(hook_is("VirtualAlloc", 0x0262) && hook_is("VirtualFree", 0x0263));
static_assert(hook_is("FileCreate", 0x0440) && hook_is("FileRead", 0x0443) && hook_is("FileOpEnd", 0x044C) &&
              hook_is("FileDirNotify", 0x044D) && hook_is("MapFile", 0x0425) && hook_is("UnmapFile", 0x0426));
static_assert(hook_is("RegCreateKey", 0x090A) && hook_is("RegFlush", 0x0915) && hook_is("RegCloseKey", 0x091B));
static_assert(hook_is("AlpcSendMessage", 0x1A21) && hook_is("AlpcUnwait", 0x1A25));
static_assert(hook_is("HandleCreate", 0x1120) && hook_is("HandleClose", 0x1121) && hook_is("HandleDuplicate", 0x1122));
static_assert(hook_is("PoolAlloc", 0x0E20) && hook_is("PoolFreeSession", 0x0E23));
static_assert(hook_is("HeapCreate", 0x1020) && hook_is("HeapAlloc", 0x1021) && hook_is("HeapReAlloc", 0x1022) &&
              hook_is("HeapDestroy", 0x1023) && hook_is("HeapFree", 0x1024));
static_assert(hook_is("ThreadedDPC", 0x0F42) && hook_is("ISR", 0x0F43) && hook_is("DPC", 0x0F44) &&
              hook_is("TimerDPC", 0x0F45) && hook_is("ISR-MSI", 0x0F32));
static_assert(hook_is("ClockInterrupt", 0x0F4F) && hook_is("IPI", 0x0F5B));
static_assert(hook_is("KQueueEnqueue", 0x053E) && hook_is("KQueueDequeue", 0x053F));
static_assert(hook_is("TcpIpSend", 0x060A) && hook_is("UdpIpFail", 0x0811) && hook_is("SplitIO", 0x1B20));
static_assert(hook_is("cswitch", 0x0524), "names are case-insensitive");
static_assert(!kernel_event_hook("CSwtch"));

// hook id -> canonical name (never an alias).
static_assert(kernel_event_name(hook_id{0x0F2E}) == "Profile");
static_assert(kernel_event_name(hook_id{0x0524}) == "CSwitch");
static_assert(kernel_event_name(hook_id{0x140A}).empty(), "ImageLoadGuid + 10 is not what the kernel logs");

// Every row's classic GUID + type goes through SECHOST's translation (names/groups.hpp) to its hook.
constexpr bool classic_ids_round_trip() {
    for (auto const& e : kernel_event_table<>) {
        auto const h = hook_id_of(e.classic_id());
        if (!h || *h != e.hook()) return false;
    }
    return true;
}
static_assert(classic_ids_round_trip());
static_assert(kernel_event_table<>[0].classic_id().event_guid ==
              guid::from_string("3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c")); // ProcessGuid
static_assert(find_kernel_event("CSwitch")->event_guid() == guid::from_string("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c"));
static_assert(find_kernel_event("ImageLoad")->event_guid() == guid::from_string("3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c"),
              "image loads are requested as {ProcessGuid, 10} (0x030A), not {ImageLoadGuid, 10}");

// Enabling flags (indicative, 5c).
static_assert(enabling_flag(hook_id{0x0524}) == perf::context_switch);
static_assert(enabling_flag(hook_id{0x0F2E})->value == 0x20000002U);
static_assert(enabling_flag(hook_id{0x0F2F})->value == 0x20000400U);
static_assert(enabling_flag(hook_id{0x0532})->value == 0x20000200U);
static_assert(enabling_flag(hook_id{0x0F33})->value == 0x40000040U);
static_assert(enabling_flag(hook_id{0x0502}) == perf::thread, "ThreadDelete: PROC_THREAD (issue 16; UIforETW StackWalkFlags.txt)");
static_assert(!enabling_flag(hook_id{0xFFFF}));

// Section 6: PERF_* values.
static_assert(perf::profile.value == 0x20000002U && perf::profile.index() == 1 && perf::profile.bits() == 2);
static_assert(perf::context_switch.value == 0x20000004U && perf::dispatcher.value == 0x20000200U);
static_assert(perf::proc_thread.value == 0x3U && perf::disk_io.value == 0x300U && perf::loader.value == 0x4U);
static_assert(perf::syscall.value == 0x40000040U && perf::ob_handle.value == 0x80000040U);
static_assert(perf::hiber_rundown.value == 0xA0000001U && perf::syscfg_all.value == 0xDFFFFFFFU);
static_assert(perf::cluster_off.value == 0xE0000001U && perf::memory_control.index() == 7);
static_assert(perf_flag_by_name("PERF_PFSECTION") == perf::session && perf_flag_name(perf::session) == "PERF_SESSION");

// EVENT_TRACE_FLAG_* and their PERF equivalents (through group_mask.hpp's alias list).
static_assert(perf_equivalent(event_trace_flag::cswitch) == perf::context_switch);
static_assert(perf_equivalent(event_trace_flag::profile) == perf::profile);
static_assert(perf_equivalent(event_trace_flag::system_call) == perf::syscall);
static_assert(perf_equivalent(event_trace_flag::process) == perf::process);
static_assert(event_trace_flag::profile == 0x01000000U && event_trace_flag::extension == 0x80000000U);

// xperf kernel flags.
constexpr group_mask xperf(std::string_view name) { return find_xperf_kernel_flag(name)->mask; }
static_assert(xperf("PROC_THREAD").masks[0] == 0x3U && xperf("PROC_THREAD") == mask_of(perf::proc_thread));
static_assert(xperf("PROFILE") == mask_of(perf::profile) && xperf("PROFILE").masks[0] == 0);
static_assert(xperf("CSWITCH").masks[1] == 0x4U && xperf("SYSCALL").masks[2] == 0x40U);
static_assert(xperf("DISK_IO").masks[0] == 0x300U && xperf("HIBERRUNDOWN").masks[5] == 1U);
static_assert(xperf("proc_thread") == xperf("PROC_THREAD"));
static_assert(xperf("PROFILE").enables(perf::profile) && group_mask::from_enable_flags(0x01000000U).enables(perf::profile));

// Combining is a set operation: PROFILE + SYSCALL sets Masks[1] and Masks[2], never Masks[3].
constexpr group_mask profile_syscall = kernel_flags<"PROFILE+SYSCALL">;
static_assert(profile_syscall.masks[1] == 0x2U && profile_syscall.masks[2] == 0x40U && profile_syscall.masks[3] == 0);
constexpr group_mask typical = kernel_flags<"PROC_THREAD+LOADER+PROFILE+CSWITCH">;
static_assert(typical.masks[0] == 0x7U && typical.masks[1] == 0x6U);
static_assert(kernel_flags<"">.empty());
static_assert(kernel_flags<"0x20000002 + mask0:0x80000000"> == (mask_of(perf::profile) | group_mask::from_enable_flags(0x80000000U)));
static_assert(kernel_flags<"PERF_JOB+perf_pool"> == mask_of(perf::job, perf::pool));

// Compile-time stack walk lists are hook_lists.
constexpr auto sw = stack_walk<"CSwitch+ReadyThread+Profile">;
static_assert(sw.size() == 3 && sw[0] == hook_id{0x0524} && sw[1] == hook_id{0x0532} && sw[2] == hook_id{0x0F2E});
static_assert(stack_walk<" cswitch + 0x0F2f ">.size() == 2 && stack_walk<" cswitch + 0x0F2f ">[1] == hook_id{0x0F2F});
static_assert(stack_walk<"">.empty());

// WPR's names (names/wpr.hpp): keywords as group-mask values, Stack names as hook ids.
static_assert(find_wpr_keyword("CSwitch")->value.value == 0x00000010U, "WPR's plain CSwitch is the Masks[0] alias bit");
static_assert(find_wpr_keyword("KeClock")->value == perf::clock_timer && find_wpr_keyword("HiberRundown")->value.index() == 5);
static_assert(!find_wpr_keyword("HvHypercalls") && find_wpr_keyword_without_value("HvHypercalls"));
static_assert(find_wpr_stack("SampledProfile")->hook() == hook_id{0x0F2E} && !find_wpr_stack("Profile"));
static_assert(find_wpr_stack("ProcessFreeze")->hook() == hook_id{0x0324} && find_wpr_stack("WakeEventKernel")->hook() == hook_id{0x0362});
static_assert(wpr_keywords<"ProcessThread+Loader+IdleStates">.masks[0] == 0x7U && wpr_keywords<"ProcessThread+Loader+IdleStates">.masks[2] == 0x8000U);

// Section 4: profile sources.
static_assert(profile_source_by_name("Timer") == profile_source::time);
static_assert(profile_source_by_name("ProfileTime") == profile_source::time);
static_assert(profile_source_by_name("totalcycles") == profile_source::total_cycles);
static_assert(static_cast<std::uint32_t>(*profile_source_by_name("InstructionRetired")) == 26);
static_assert(static_cast<std::uint32_t>(*profile_source_by_name("TimerFixed")) == 36);
static_assert(name_of(profile_source::total_cycles) == "TotalCycles" && name_of(profile_source{0x13}) == "TotalCycles");
static_assert(name_of(profile_source{0x18}) == "Maximum" && name_of(profile_source{99}).empty());
static_assert(is_processor_specific(profile_source{26}) && !is_processor_specific(profile_source::cache_misses));

// Section 8: the timer's interval bounds.
static_assert(timer_interval<1221>.count() == 1221 && timer_interval<1000000>.count() == 1000000);
static_assert(timer_interval<timer::default_interval> == profile_interval{10000});
static_assert(within_timer_bounds(profile_interval{1221}) && !within_timer_bounds(profile_interval{1220}));
} // namespace

// The tables' own consistency checks (unique names, canonical rows, order). They live here rather than
// in the headers so that user translation units do not pay for them.
namespace etwctl {
static_assert(detail::kernel_event_table_well_formed(),
              "etwctl: kernel_event_table: names must be unique (case-insensitively) and free of '+' and blanks; "
              "each hook id has one canonical row, and aliases follow it");
static_assert(detail::xperf_table_well_formed(),
              "etwctl: xperf_kernel_flag_table: names and masks must be unique and no row may follow a row it "
              "strictly contains");
static_assert(detail::perf_table_well_formed(), "etwctl: perf_flag_table<>: names unique, no empty flag");
static_assert(detail::wpr_tables_well_formed(),
              "etwctl: WPR's keyword and Stack lists and the known-names-without-value tables: names unique and "
              "parseable, every Stack name in kernel_event_table, no name both with and without a value");
static_assert(detail::profile_source_table_well_formed(),
              "etwctl: profile_source_table rows must be in value order without gaps, names unique");
} // namespace etwctl
