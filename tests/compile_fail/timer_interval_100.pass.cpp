// Twin of timer_interval_100.fail.cpp without the misuse (a timer interval below the documented minimum): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/names/sources.hpp"

int main() {
    constexpr auto iv = etwctl::timer_interval<1221>;
    (void)iv;
}
