// Twin of interval_bare_int.fail.cpp without the misuse: the interval with its unit (a rate, or 100 ns units).
#include "etwctl/names/sources.hpp"
#include "etwctl/typed/set.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    static etwctl::sim::kernel k;
    using namespace etwctl::literals;
    (void)etwctl::set<etwctl::sampled_profile_interval>(k, etwctl::profile_source::time, 8_kHz);
    (void)etwctl::set<etwctl::sampled_profile_interval>(k, etwctl::profile_source::time, 1250_100ns);
    (void)etwctl::set<etwctl::sampled_profile_interval>(k, etwctl::sampling_rate<4000>);
}
