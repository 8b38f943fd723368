// expect: etwctl::set<sampled_profile_interval>: the interval is a bare number, which has no unit; write timer_interval<1250>
// Misuse: a plain int as the interval (issue 21 item 21: the message talked about a session, though none
// was passed). Must not compile, and must say what was wrong.
#include "etwctl/typed/set.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    static etwctl::sim::kernel k;
    (void)etwctl::set<etwctl::sampled_profile_interval>(k, etwctl::profile_source::time, 1250);
}
