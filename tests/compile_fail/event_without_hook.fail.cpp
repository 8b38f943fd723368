// expect: etwctl::stack_walk: the name<...> above is a known event name \(xperf or WPR lists it\) whose hook id
// expect-gcc: fixed_string<24>{"ThreadSetIdealProcessor"}>
// expect-clang: name<'T', 'h', 'r', 'e', 'a', 'd', 'S', 'e', 't', 'I'
// Misuse: a stack-walk name xperf and WPR list but no public source gives a hook id for. Must not compile, and must say so in etwctl's words.
#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto x = etwctl::stack_walk<"CSwitch+ThreadSetIdealProcessor">;
    (void)x;
}
