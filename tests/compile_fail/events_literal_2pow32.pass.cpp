// Twin of events_literal_2pow32.fail.cpp without the misuse: the largest count that fits compiles.
#include "etwctl/types.hpp"

int main() {
    using namespace etwctl::literals;
    constexpr etwctl::counter_interval iv = 4294967295_events;
    static_assert(iv.count() == 4294967295U);
    (void)iv;
}
