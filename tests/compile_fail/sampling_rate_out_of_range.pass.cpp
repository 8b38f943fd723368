// Twin of sampling_rate_out_of_range.fail.cpp without the misuse: 10 Hz, the slowest rate the timer takes.
#include "etwctl/names/sources.hpp"

int main() {
    constexpr etwctl::profile_interval iv = etwctl::sampling_rate<10>;
    static_assert(iv.count() == 1000000);
    (void)iv;
}
