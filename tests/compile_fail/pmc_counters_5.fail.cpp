// expect: etwctl::set<pmc_counter_list>: too many counters. TracePmcCounterListInfo accepts at most 4
// Misuse: five PMC counters. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/typed/set.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const s{k.start_logger(etwctl::limits::kernel_logger_id)};
    std::array<etwctl::profile_source, 5> c{};
    (void)etwctl::set<etwctl::pmc_counter_list>(k, s, c);
}
