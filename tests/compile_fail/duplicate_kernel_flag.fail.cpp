// expect: etwctl::kernel_flags: flag named twice
// expect-gcc: fixed_string<13>{"PERF_PROFILE"}
// expect-clang: name<'P', 'E', 'R', 'F', '_'
// Misuse: the same flag under two names. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto m = etwctl::kernel_flags<"PROFILE+LOADER+PERF_PROFILE">;
    (void)m;
}
