// expect: etwctl::stack_walk: unknown event name
// expect-gcc: name<etwctl::fixed_string<7>{"CSwtch"}>, etwctl::diagnostic::did_you_mean<etwctl::fixed_string<8>{"CSwitch"}>
// expect-clang: name<'C', 'S', 'w', 't', 'c', 'h'>, etwctl::diagnostic::did_you_mean<'C', 'S', 'w', 'i', 't', 'c', 'h'>
// Misuse: a misspelt event name (with the suggestion). Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto ids = etwctl::stack_walk<"CSwitch+CSwtch">;
    (void)ids;
}
