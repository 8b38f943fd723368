// expect: etwctl::wpr_keywords: unknown WPR keyword
// expect-gcc: fixed_string<7>{"CSwich"}>, etwctl::diagnostic::did_you_mean<etwctl::fixed_string<8>{"CSwitch"}>
// expect-clang: name<'C', 'S', 'w', 'i', 'c', 'h'>, etwctl::diagnostic::did_you_mean<'C', 'S', 'w', 'i', 't', 'c', 'h'>
// Misuse: a misspelt WPR SystemProvider keyword (with the suggestion). Must not compile, and must say so in etwctl's words.
#include "etwctl/names/wpr.hpp"

int main() {
    constexpr auto x = etwctl::wpr_keywords<"ProcessThread+CSwich">;
    (void)x;
}
