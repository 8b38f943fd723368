// expect: etwctl::set<sampled_profile_interval>: wrong arguments. the interval is machine-global and takes no session
// Misuse: a session handle given to the machine-global interval class. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/typed/set.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const s{k.start_logger(etwctl::limits::kernel_logger_id)};
    (void)etwctl::set<etwctl::sampled_profile_interval>(k, s, etwctl::profile_source::time, etwctl::profile_interval{10000});
}
