// The naming tables against xperf's own name lists (tests/data/, each with its public source) and the
// table corrections of issue 16: xperf's page-fault names (earlier names kept as aliases), DiskFlush
// under PERF_DISK_IO, enabling flags where the event has one, the xperf flags without a public value,
// the kernel groups as named unions, and the column marking the names xperf does not know.
#include <algorithm>
#include <cstddef>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "etwctl/names/events.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/names/wpr.hpp"

namespace {
using namespace etwctl;

// The data files, embedded at configure time (tests/tables/CMakeLists.txt): no file access at run time,
// so the test runs the same under Wine.
#include "xperf_data.inc"

std::vector<std::string> lines_of(std::string_view text) {
    std::vector<std::string> v;
    std::istringstream in{std::string(text)};
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty() && line[0] != '#') v.push_back(line);
    }
    return v;
}

std::string lower(std::string_view s) {
    std::string o(s);
    for (char& c : o) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    return o;
}

// xperf names with no public hook id: not in the table, but in kernel_event_without_hook (refused by name).
const std::set<std::string> left_out = {"ThreadSetIdealProcessor", "ThreadSetUserIdealProcessor", "KernelSignal",
                                        "KernelSignalInit", "KernelSync", "KernelSyncAll", "KernelWaitSync",
                                        "KernelWaitSyncAll"};
} // namespace

TEST_CASE("every xperf-named event row is in xperf's list, exactly as xperf spells it") {
    auto const names = lines_of(xperf_stackwalk_names);
    REQUIRE(names.size() == 157);
    std::set<std::string> const exact(names.begin(), names.end());
    std::set<std::string> folded;
    for (auto const& n : names) folded.insert(lower(n));
    std::size_t xperf_rows = 0;
    for (auto const& e : kernel_event_table<>) {
        CAPTURE(e.name);
        if (e.xperf_name) {
            ++xperf_rows;
            CHECK(exact.count(std::string(e.name)) == 1);
        } else {
            CHECK(folded.count(lower(e.name)) == 0); // marked etwctl's own: xperf must not know it
        }
    }
    CHECK(xperf_rows == names.size() - left_out.size());
}

TEST_CASE("every name in xperf's list is in the table or documented as left out") {
    for (auto const& n : lines_of(xperf_stackwalk_names)) {
        CAPTURE(n);
        auto const* e = find_kernel_event(n);
        if (left_out.count(n)) {
            CHECK(e == nullptr);
            REQUIRE(find_kernel_event_without_hook(n) != nullptr); // known: refused by name, not "unknown"
            hook_id ids[2];
            std::size_t count = 0;
            parse_error err;
            CHECK(parse_stack_walk("CSwitch+" + n, ids, count, &err) == rule::parse_name_without_value);
            CHECK(err.offset == 8);
            CHECK(err.length == n.size());
            CHECK(err.note.find("xperf") != std::string_view::npos);
            continue;
        }
        REQUIRE(e != nullptr);
        CHECK(e->xperf_name);
        CHECK(e->name == n);
    }
}

TEST_CASE("page faults: xperf's Pagefault* names are canonical, the earlier names are aliases") {
    struct row { std::string_view xperf, old; std::uint16_t hook; };
    constexpr row rows[] = {{"PagefaultTransition", "TransitionFault", 0x020A}, {"PagefaultDemandZero", "DemandZeroFault", 0x020B},
                            {"PagefaultCopyOnWrite", "CopyOnWrite", 0x020C},     {"PagefaultGuard", "GuardPageFault", 0x020D},
                            {"PagefaultHard", "HardPageFault", 0x020E},          {"PagefaultAV", "AccessViolation", 0x020F}};
    for (auto const& r : rows) {
        CAPTURE(r.xperf);
        CHECK(kernel_event_hook(r.xperf) == hook_id{r.hook});
        CHECK(kernel_event_hook(r.old) == hook_id{r.hook});
        CHECK(kernel_event_name(hook_id{r.hook}) == r.xperf);
        CHECK(find_kernel_event(r.old)->alias);
        CHECK_FALSE(find_kernel_event(r.old)->xperf_name);
        CHECK(enabling_flag(hook_id{r.hook}) == perf::all_faults);
    }
}

TEST_CASE("enabling flags: DiskFlush, ThreadDelete, ProcessDCStart, ISR-MSI") {
    CHECK(enabling_flag(*kernel_event_hook("DiskFlush")) == perf::disk_io);
    CHECK(enabling_flag(*kernel_event_hook("DiskFlushInit")) == perf::disk_io_init);
    CHECK(enabling_flag(*kernel_event_hook("ThreadDelete")) == perf::thread);
    CHECK(enabling_flag(*kernel_event_hook("ProcessDCStart")) == perf::process);
    CHECK(enabling_flag(*kernel_event_hook("ISR-MSI")) == perf::interrupt);
}

TEST_CASE("events without an enabling flag are exactly those no kernel flag turns on") {
    // User-mode sessions (heap ranges are MEMORY-group events of the heap manager, thread pool, critical
    // sections), ProfileSetInterval and its rundown (logged when the interval changes), Mark (logged on
    // request), and the section-object / image-mapping events no source pairs with a flag.
    std::set<std::string> const expected = {"Mark", "ProfileSetInterval", "ProfileSetIntervalDCStart", "ProfileSetIntervalDCEnd",
                                            "HeapRangeCreate", "HeapRangeReserve", "HeapRangeRelease", "HeapRangeDestroy",
                                            "PagefileBackedImageMapping", "PagefileMappedSectionObjectCreate",
                                            "PagefileMappedSectionObjectDelete", "CritSecCollision", "ThreadPoolCallbackEnqueue",
                                            "ThreadPoolCallbackDequeue", "ThreadPoolCallbackStart", "ThreadPoolCallbackStop",
                                            "ThreadPoolCallbackCancel", "ThreadPoolCreate", "ThreadPoolClose",
                                            "ThreadPoolSetMinThreads", "ThreadPoolSetMaxThreads",
                                            // WPR's names: its spelling of ProfileSetInterval, and the thread-pool timers
                                            "SampledProfileSetInterval", "ThreadPoolTimerSet", "ThreadPoolTimerCancelled",
                                            "ThreadPoolSetNtTimer", "ThreadPoolCancelNtTimer", "ThreadPoolTimerExpirationBegin",
                                            "ThreadPoolTimerExpirationEnd", "ThreadPoolTimerExpiration"};
    std::set<std::string> without;
    for (auto const& e : kernel_event_table<>)
        if (!e.enabling_flag()) without.insert(std::string(e.name));
    CHECK(without == expected);
}

TEST_CASE("xperf's kernel flags: the table plus the names without a public value are xperf's list") {
    std::set<std::string> listed;
    for (auto const& n : lines_of(xperf_kernel_flags)) listed.insert(n);
    REQUIRE(listed.size() == 63);
    std::set<std::string> ours;
    for (auto const& f : xperf_kernel_flag_table<>) ours.insert(std::string(f.name));
    for (auto const& f : xperf_kernel_flag_without_value)
        if (f.seen_in.substr(0, 5) == "xperf") ours.insert(std::string(f.name));
    CHECK(ours == listed);
}

TEST_CASE("SYNCOBJECTS is PERF_SYNC_OBJECTS (inferred); HAL_CLOCK has no public value and is refused by name") {
    REQUIRE(find_xperf_kernel_flag("SYNCOBJECTS") != nullptr);
    CHECK(find_xperf_kernel_flag("SYNCOBJECTS")->mask == mask_of(perf::sync_objects));
    CHECK(find_xperf_kernel_flag("syncobjects")->inferred);
    for (std::string_view n : {"HAL_CLOCK", "hal_clock"}) {
        CAPTURE(n);
        CHECK(find_xperf_kernel_flag(n) == nullptr);
        CHECK(find_xperf_flag_without_value(n) != nullptr);
        group_mask m;
        parse_error err;
        CHECK(parse_kernel_flags(n, m, &err) == rule::parse_name_without_value);
        CHECK(err.note == find_xperf_flag_without_value(n)->seen_in);
    }
}

TEST_CASE("KE_CLOCK, KQUEUE and IDLE_STATES are WPR's KeClock, KernelQueue and IdleStates (inferred values)") {
    struct row { std::string_view xperf, wpr; perf_flag value; };
    constexpr row rows[] = {{"KE_CLOCK", "KeClock", perf::clock_timer},
                            {"KQUEUE", "KernelQueue", perf::kernel_queue},
                            {"IDLE_STATES", "IdleStates", perf::processor_idle}};
    for (auto const& r : rows) {
        CAPTURE(r.xperf);
        auto const* f = find_xperf_kernel_flag(r.xperf);
        REQUIRE(f != nullptr);
        CHECK(f->inferred);
        CHECK(identical(f->mask, mask_of(r.value)));
        CHECK(find_xperf_flag_without_value(r.xperf) == nullptr);
        REQUIRE(find_wpr_keyword(r.wpr) != nullptr);
        CHECK(find_wpr_keyword(r.wpr)->value == r.value);
        group_mask m;
        CHECK(parse_kernel_flags(r.xperf, m) == rule::ok);
        CHECK(identical(m, mask_of(r.value)));
    }
    CHECK(identical(kernel_flags<"KE_CLOCK">, wpr_keywords<"KeClock">));
}

TEST_CASE("kernel groups: named unions equal to xperf's listing, DiagEasy and Latency confirmed") {
    auto const lines = lines_of(xperf_kernel_groups);
    REQUIRE(lines.size() == std::size(xperf_kernel_group_table<>));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        auto const& g = xperf_kernel_group_table<>[i];
        CAPTURE(g.name);
        auto const space = lines[i].find(' ');
        CHECK(lines[i].substr(0, space) == g.name);
        CHECK(lines[i].substr(space + 1) == g.members);
        group_mask parsed;
        REQUIRE(parse_kernel_flags(g.members, parsed) == rule::ok);
        CHECK(parsed == g.mask);
        CHECK(g.inferred == (g.name != "DiagEasy" && g.name != "Latency"));
        CHECK(find_xperf_kernel_group(lower(g.name)) == &g); // xperf accepts any case
        CHECK(find_xperf_kernel_flag(g.name) == nullptr);    // a group is not a flag
    }
}
