// Hardware counters on context switches: instructions retired and cycles per CSwitch, the way a
// profiler computes IPC per thread. setup_pmc checks everything the library can know first (the
// counters exist on this machine and are not the timer, intervals within bounds, at most 4 of each,
// the events' groups enabled in the session), then applies in order and names any failed condition.
#include <cstdio>
#include <memory>
#include <string>

#include "etwctl/etwctl.hpp"
#include "etwctl/testing/sim_kernel.hpp"

namespace {
void print(etwctl::pmc_report const& r) {
    if (r) {
        std::printf("  ok: %zu counters attached\n", r.counter_count);
        return;
    }
    std::printf("  failed at %s: %s\n    (%s)\n", std::string(etwctl::to_string(r.step)).c_str(),
                std::string(etwctl::to_string(r.condition)).c_str(), r.error.message().c_str());
}
} // namespace

int main() {
    using namespace etwctl;
    auto machine = std::make_unique<sim::kernel>();
    session_handle const session{machine->start_kernel_logger()};
    auto& k = *machine;

    // Names as this machine's profile-source list spells them (processor-specific ids above 24).
    pmc_counter const counters[] = {pmc_counter::named("InstructionRetired"), pmc_counter::named("UnhaltedCoreCycles")};

    std::printf("CSwitch with its group off:\n");
    auto const refused = setup_pmc(k, session, counters, stack_walk<"CSwitch">);
    print(refused);

    std::printf("after enabling CSWITCH:\n");
    if (set<system_trace_enable_flags>(k, session, kernel_flags<"PROC_THREAD+CSWITCH">)) return 1;
    auto const ok = setup_pmc(k, session, counters, stack_walk<"CSwitch">);
    print(ok);

    std::printf("a second time on the same session:\n");
    auto const again = setup_pmc(k, session, counters, stack_walk<"CSwitch">);
    print(again);

    return refused.condition == pmc_condition::group_not_enabled && ok &&
                   again.condition == pmc_condition::already_configured
               ? 0
               : 1;
}
