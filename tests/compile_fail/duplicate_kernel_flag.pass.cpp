// Twin of duplicate_kernel_flag.fail.cpp without the misuse (the same flag under two names): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto m = etwctl::kernel_flags<"PROFILE+LOADER">;
    (void)m;
}
