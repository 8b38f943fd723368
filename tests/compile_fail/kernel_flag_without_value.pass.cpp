// Twin of kernel_flag_without_value.fail.cpp without the misuse (an xperf kernel flag no public source gives a value for): must compile cleanly.
#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto x = etwctl::kernel_flags<"PROC_THREAD+KE_CLOCK">;
    (void)x;
}
