// Twin of interval_with_session.fail.cpp without the misuse (a session handle given to the machine-global interval class): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/typed/set.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const s{k.start_logger(etwctl::limits::kernel_logger_id)};
    (void)s;
    (void)etwctl::set<etwctl::sampled_profile_interval>(k, etwctl::profile_source::time, etwctl::profile_interval{10000});
}
