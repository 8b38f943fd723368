// expect: etwctl::stack_walk: event named twice
// expect-gcc: duplicate_kernel_event_name<etwctl::diagnostic::name<etwctl::fixed_string<15>{"SampledProfile"}>
// expect-clang: duplicate_kernel_event_name<etwctl::diagnostic::name<'S', 'a', 'm', 'p', 'l', 'e', 'd'
// Misuse: an alias of an event already listed. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto ids = etwctl::stack_walk<"Profile+CSwitch+SampledProfile">;
    (void)ids;
}
