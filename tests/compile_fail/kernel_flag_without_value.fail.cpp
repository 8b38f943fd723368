// expect: etwctl::kernel_flags: the name<...> above is a known xperf flag whose value no public source
// expect-gcc: fixed_string<10>{"HAL_CLOCK"}>
// expect-clang: name<'H', 'A', 'L', '_', 'C'
// Misuse: an xperf kernel flag no public source gives a value for. Must not compile, and must say so in etwctl's words.
#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto x = etwctl::kernel_flags<"PROC_THREAD+HAL_CLOCK">;
    (void)x;
}
