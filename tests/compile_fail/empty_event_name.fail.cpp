// expect: etwctl::stack_walk: empty name .a stray '.'. at the character offset
// expect-any: at_offset<8>
// Misuse: an empty name between two '+'. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto ids = etwctl::stack_walk<"CSwitch++Profile">;
    (void)ids;
}
