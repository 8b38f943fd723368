// expect: etwctl::literals, _events: the count does not fit the kernel's 32-bit interval .at most 4294967295 events.
// Misuse: a hardware-counter interval of 2^32 events (it used to wrap to 0). Must not compile.
#include "etwctl/types.hpp"

int main() {
    using namespace etwctl::literals;
    etwctl::counter_interval const iv = 4294967296_events;
    (void)iv;
}
