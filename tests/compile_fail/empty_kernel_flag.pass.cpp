// Twin of empty_kernel_flag.fail.cpp without the misuse (a trailing '+'): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto m = etwctl::kernel_flags<"LOADER">;
    (void)m;
}
