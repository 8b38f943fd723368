// expect: etwctl::timer_interval<V>: V .the first template argument above, in 100 ns units. is outside the timer's documented bounds 1221..1000000
// expect-any: timer_interval_out_of_bounds_100ns_units<100, 1221, 1000000>
// Misuse: a timer interval below the documented minimum. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/names/sources.hpp"

int main() {
    constexpr auto iv = etwctl::timer_interval<100>;
    (void)iv;
}
