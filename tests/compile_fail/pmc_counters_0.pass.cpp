// Twin of pmc_counters_0.fail.cpp without the misuse (an empty PMC counter list): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/typed/set.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const s{k.start_logger(etwctl::limits::kernel_logger_id)};
    std::array<etwctl::profile_source, 1> c{etwctl::profile_source::total_cycles};
    (void)etwctl::set<etwctl::pmc_counter_list>(k, s, c);
}
