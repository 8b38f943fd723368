// Twin of unknown_kernel_flag.fail.cpp without the misuse (a misspelt xperf kernel flag): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto m = etwctl::kernel_flags<"PROC_THREAD+LOADER">;
    (void)m;
}
