// expect: etwctl::kernel_flags: empty name .a stray '.'.
// expect-any: at_offset<7>
// Misuse: a trailing '+'. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto m = etwctl::kernel_flags<"LOADER+">;
    (void)m;
}
