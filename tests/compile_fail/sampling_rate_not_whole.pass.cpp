// Twin of sampling_rate_not_whole.fail.cpp without the misuse: 8 kHz is exactly 1250 x 100 ns.
#include "etwctl/names/sources.hpp"

int main() {
    using namespace etwctl::literals;
    constexpr etwctl::profile_interval iv = 8_kHz;
    static_assert(iv.count() == 1250 && iv == etwctl::timer_interval<1250>);
    (void)iv;
}
