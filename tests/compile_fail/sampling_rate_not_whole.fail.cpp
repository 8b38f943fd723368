// expect: etwctl::sampling_rate<Hz> / _Hz / _kHz: 10000000 / Hz .above. is not a whole number of 100 ns
// expect-any: 3000
// Misuse: 3 kHz, whose period (3333.3 x 100 ns) the timer cannot take exactly. Must not compile.
#include "etwctl/names/sources.hpp"

int main() {
    using namespace etwctl::literals;
    constexpr etwctl::profile_interval iv = 3_kHz;
    (void)iv;
}
