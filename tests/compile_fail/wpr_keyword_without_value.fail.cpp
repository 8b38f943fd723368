// expect: etwctl::wpr_keywords: the name<...> above is a WPR keyword whose group-mask value no public source
// expect-gcc: fixed_string<15>{"IdealProcessor"}>
// expect-clang: name<'I', 'd', 'e', 'a', 'l', 'P'
// Misuse: a WPR keyword no public source gives a value for (known, refused by name, never guessed). Must not compile, and must say so in etwctl's words.
#include "etwctl/names/wpr.hpp"

int main() {
    constexpr auto x = etwctl::wpr_keywords<"Loader+IdealProcessor">;
    (void)x;
}
