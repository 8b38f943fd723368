// Twin of pmc_events_5.fail.cpp without the misuse (five PMC events): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/typed/set.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const s{k.start_logger(etwctl::limits::kernel_logger_id)};
    etwctl::hook_id ids[4] = {};
    (void)etwctl::set<etwctl::pmc_event_list>(k, s, ids);
}
