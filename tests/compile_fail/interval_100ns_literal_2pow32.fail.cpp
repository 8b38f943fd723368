// expect: etwctl::literals, _100ns: the interval does not fit the kernel's 32-bit field
// Misuse: a timer interval of 2^32 x 100 ns (it used to wrap to 0). Must not compile.
#include "etwctl/types.hpp"

int main() {
    using namespace etwctl::literals;
    etwctl::profile_interval const iv = 0x1'0000'0000_100ns;
    (void)iv;
}
