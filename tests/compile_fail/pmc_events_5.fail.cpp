// expect: etwctl::set<pmc_event_list>: too many events. TracePmcEventListInfo accepts at most 4
// Misuse: five PMC events. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/typed/set.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const s{k.start_logger(etwctl::limits::kernel_logger_id)};
    etwctl::hook_id ids[5] = {};
    (void)etwctl::set<etwctl::pmc_event_list>(k, s, ids);
}
