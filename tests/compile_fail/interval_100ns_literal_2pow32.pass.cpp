// Twin of interval_100ns_literal_2pow32.fail.cpp without the misuse: the largest value that fits compiles.
#include "etwctl/types.hpp"

int main() {
    using namespace etwctl::literals;
    constexpr etwctl::profile_interval iv = 0xFFFF'FFFF_100ns;
    static_assert(iv.count() == 0xFFFFFFFFU);
    (void)iv;
}
