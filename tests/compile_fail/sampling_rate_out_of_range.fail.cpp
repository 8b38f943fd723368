// expect: etwctl::sampling_rate<Hz> / _Hz / _kHz: the rate .above, in Hz. is outside the timer's documented range
// expect-any: 10000
// Misuse: 10 kHz, above the timer's 8190 Hz (interval 1000 x 100 ns, under its 1221). Must not compile.
#include "etwctl/names/sources.hpp"

int main() {
    constexpr etwctl::profile_interval iv = etwctl::sampling_rate<10000>;
    (void)iv;
}
