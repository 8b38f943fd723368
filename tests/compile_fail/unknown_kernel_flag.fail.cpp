// expect: etwctl::kernel_flags: unknown kernel flag
// expect-gcc: fixed_string<6>{"LOADR"}>, etwctl::diagnostic::did_you_mean<etwctl::fixed_string<7>{"LOADER"}>
// expect-clang: name<'L', 'O', 'A', 'D', 'R'>, etwctl::diagnostic::did_you_mean<'L', 'O', 'A', 'D', 'E', 'R'>
// Misuse: a misspelt xperf kernel flag. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto m = etwctl::kernel_flags<"PROC_THREAD+LOADR">;
    (void)m;
}
