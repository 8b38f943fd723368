// The etwctl demo: start the NT Kernel Logger of a simulated machine and configure it the way a sampling
// profiler does, read the configuration back, show what was sent and what the kernel now holds, and stop
// it with its statistics. (scripts/demo.sh then records on a simulated machine and reads the events back.)
//   - call stacks on SampledProfile, CSwitch and ReadyThread
//   - kernel groups PROC_THREAD + LOADER + PROFILE + CSWITCH + DISPATCHER + PMC_PROFILE
//   - 8 kHz timer sampling (the interval is machine-global and restored on exit)
//   - hardware counters TotalCycles and InstructionRetired on every CSwitch: their ids looked up by name
//     in this machine's profile-source list at run time (ids above 24 are the HAL's and differ between
//     machines), and the counter list set before the event list (the step the kernel refuses most
//     goes first; both lists can be set once per session - setup_pmc does all of this in one call)
// The same code drives the real kernel on Windows with etwctl::native_kernel instead of sim::kernel.
// Exit code 0 only if the kernel holds exactly what was asked for.
#include <cstdio>
#include <iterator>
#include <memory>
#include <span>
#include <string_view>

#include "etwctl/compat.hpp" // the drop-in functions (opt-in)
#include "etwctl/etwctl.hpp"
#include "etwctl/sessions.hpp"
#include "etwctl/testing/sim_kernel.hpp"

namespace {

using namespace etwctl;

int failures = 0;

void check(bool ok, char const* what) {
    if (!ok) {
        std::printf("  !! %s\n", what);
        ++failures;
    }
}

void expect_ok(std::error_code ec, char const* what) {
    std::printf("  %-44s %s\n", what, ec ? ec.message().c_str() : "ok");
    check(!ec, what);
}

void hex_dump(std::span<std::byte const> bytes) {
    std::size_t const shown = bytes.size() < 64 ? bytes.size() : 48; // a 4 KiB reply buffer: its head
    for (std::size_t i = 0; i < shown; i += 16) {
        std::printf("      %04zx ", i);
        for (std::size_t j = i; j < i + 16 && j < shown; ++j)
            std::printf(" %02x", std::to_integer<unsigned>(bytes[j]));
        std::printf("\n");
    }
    if (shown < bytes.size()) std::printf("      ... (%zu bytes)\n", bytes.size());
}

} // namespace

int main() {
    // The machine: a simulated kernel, no session running.
    auto kernel = std::make_unique<sim::kernel>(); // ~160 KiB of fixed-size state: keep it off the stack
    std::printf("etwctl demo (simulated kernel)\n\n");

    // The session: the NT Kernel Logger, real time, 1 MiB buffers. It stops when `logger` goes out of
    // scope; stop() below returns its final statistics.
    auto logger = start_session(*kernel, session_config::nt_kernel_logger().real_time().buffer(buffer_size::megabytes(1)));
    if (!logger) {
        std::printf("start_session: %s\n", describe(logger.error()).c_str());
        return 1;
    }
    session_handle const session = logger->handle();
    std::printf("started the NT Kernel Logger (handle 0x%llx)\n", static_cast<unsigned long long>(session.value));

    // What a sampling profiler asks for, in xperf's names; every name is checked and encoded at
    // compile time (a misspelt or repeated name does not compile and says which one).
    constexpr auto stacks = stack_walk<"SampledProfile+CSwitch+ReadyThread">;            // hook_list<3>
    constexpr group_mask groups = kernel_flags<"PROC_THREAD+LOADER+PROFILE+CSWITCH+DISPATCHER+PMC_PROFILE">;
    constexpr profile_interval eight_khz = timer_interval<1250>;                            // 125 us, checked: 1221..1000000
    constexpr std::string_view counter_names[] = {"TotalCycles", "InstructionRetired"};
    constexpr auto pmc_events = stack_walk<"CSwitch">;                                      // counters ride on CSwitch
    static_assert(stacks[1] == hook_id{0x0524} && groups.contains(perf_flag{0x20000002}));

    auto const previous = query<sampled_profile_interval>(*kernel);
    check(previous.has_value(), "read the current timer interval");

    std::printf("configuring it\n");
    expect_ok(set<system_trace_enable_flags>(*kernel, session, groups), "set<system_trace_enable_flags>");
    expect_ok(set<stack_tracing>(*kernel, session, stacks), "set<stack_tracing> (3 events)");
    expect_ok(set<sampled_profile_interval>(*kernel, profile_source::time, eight_khz), "set<sampled_profile_interval> 8 kHz");
    // Counter ids from this machine's list, by name (never compile-time ids: they are machine-specific).
    profile_source counters[std::size(counter_names)] = {};
    std::size_t resolved = 0;
    for (std::string_view const name : counter_names) {
        auto const id = find_profile_source(*kernel, name);
        check(id.has_value(), "counter found by name in the profile-source list");
        if (id) counters[resolved++] = *id;
    }
    expect_ok(set<pmc_counter_list>(*kernel, session, std::span<profile_source const>(counters, resolved)),
              "set<pmc_counter_list> (2 counters, by name)");
    expect_ok(set<pmc_event_list>(*kernel, session, pmc_events), "set<pmc_event_list> (CSwitch), after them");

    std::printf("\nwhat was sent (every kernel request, byte for byte)\n");
    std::size_t index = 0, counter_request = 0, event_request = 0;
    for (auto const& r : kernel->requests()) {
        ++index;
        if (r.is_session_call) { // StartTraceW, ControlTraceW, ...: the properties block as sent, Win32's answer
            std::printf("  %s, %u bytes -> Win32 %d\n", session_function_name(r.session).data(), r.length, r.status);
            hex_dump(r.bytes);
            continue;
        }
        if (r.function == kernel_function::nt_set_system_information &&
            r.kernel_class == static_cast<std::uint32_t>(event_trace_information_class::profile_counter_list))
            counter_request = index;
        if (r.function == kernel_function::nt_set_system_information &&
            r.kernel_class == static_cast<std::uint32_t>(event_trace_information_class::profile_event_list))
            event_request = index;
        std::printf("  %s code 0x%02x", kernel_function_name(r.function).data(), r.code);
        if (r.function == kernel_function::nt_set_system_information ||
            r.function == kernel_function::nt_query_system_information)
            std::printf(" (EVENT_TRACE_INFORMATION_CLASS 0x%02x)", r.kernel_class);
        std::printf(", %u bytes -> NTSTATUS 0x%08x\n", r.length, static_cast<unsigned>(r.status));
        hex_dump(r.bytes);
    }

    check(counter_request != 0 && event_request != 0 && counter_request < event_request,
          "PMC counter list sent before the PMC event list");

    std::printf("\nwhat the kernel holds now\n");
    auto const masks = query<system_trace_enable_flags>(*kernel, session);
    check(masks.has_value(), "query<system_trace_enable_flags>");
    if (masks) {
        std::printf("  group masks:");
        for (auto m : masks->masks) std::printf(" %08x", m);
        char names[256];
        std::size_t const n = format_kernel_flags(masks->canonical(), names); // without the Masks[0] alias repeats
        std::printf("\n  kernel flags: %.*s\n", static_cast<int>(n), names);
        check(masks->contains(perf_flag{0x20000002}) && masks->contains(perf_flag{0x20000004}), "PROFILE and CSWITCH on");
        check((masks->masks[0] & 0x7U) == 0x7U, "PROC_THREAD and LOADER on");
    }
    std::printf("  stack-traced hook ids:");
    auto const hooks = kernel->stack_tracing_hooks(kernel_logger.value);
    for (auto h : hooks) std::printf(" 0x%04x (%.*s)", h, static_cast<int>(kernel_event_name(hook_id{static_cast<std::uint16_t>(h)}).size()),
                                     kernel_event_name(hook_id{static_cast<std::uint16_t>(h)}).data());
    std::printf("\n");
    check(hooks.size() == 3 && hooks[0] == 0x0F2E && hooks[1] == 0x0524 && hooks[2] == 0x0532, "stack list as sent");

    auto const interval = query<sampled_profile_interval>(*kernel);
    if (interval)
        std::printf("  timer interval: %u x 100 ns (%.2f kHz)\n", interval->count(), 10000.0 / interval->count());
    check(interval.has_value() && interval->count() == 1250, "timer interval 1250");

    std::printf("  PMC counters:");
    for (auto c : kernel->pmc_counters(kernel_logger.value)) std::printf(" %u", c);
    std::printf(" on events:");
    for (auto e : kernel->pmc_events(kernel_logger.value)) std::printf(" 0x%04x", e);
    std::printf("\n");
    check(kernel->pmc_counters(kernel_logger.value).size() == 2, "two PMC counters");

    profile_source_list_buffer<> storage;
    if (auto const sources = query<profile_source_list>(*kernel, storage)) {
        std::printf("  profile sources on this machine: %zu (", sources->size());
        int shown = 0;
        for (auto const& e : *sources) {
            char name[64];
            e.description_ascii(name);
            if (shown++ < 4) std::printf("%s%s [%u..%u]", shown > 1 ? ", " : "", name, e.min_interval(), e.max_interval());
        }
        std::printf(", ...)\n");
    } else {
        check(false, "query<profile_source_list>");
    }

    // A mistake is refused before the kernel is called, naming the rule broken.
    std::printf("\na mistake, refused with the rule it breaks\n");
    std::uint32_t const not_eight_masks[9] = {};
    std::uint32_t const e = compat::trace_set_information(*kernel, session.value, 4, not_eight_masks, sizeof not_eight_masks);
    std::printf("  TraceSetInformation(TraceSystemTraceEnableFlagsInfo, 36 bytes) -> %u (%s)\n", e,
                make_error_code(rule::enable_flags_set_size).message().c_str());
    check(e == win32::invalid_parameter, "36-byte group mask refused");

    // Machine-global state is restored, as a well-behaved tool does.
    if (previous)
        expect_ok(set<sampled_profile_interval>(*kernel, profile_source::time, *previous), "restore the timer interval");

    // Stopping returns the final statistics: lost events are reported, never silent.
    stop_report const stopped = logger->stop();
    std::printf("\nstopped the NT Kernel Logger: %u buffers written, %u events lost\n", stopped.statistics.buffers_written,
                stopped.statistics.events_lost);
    check(static_cast<bool>(stopped), "stopped, nothing lost");

    std::printf("\n%s\n", failures == 0 ? "demo: the kernel holds what was asked for" : "demo: MISMATCH");
    return failures == 0 ? 0 : 1;
}
