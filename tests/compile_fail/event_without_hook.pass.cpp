// Twin of event_without_hook.fail.cpp without the misuse (a stack-walk name xperf and WPR list but no public source gives a hook id for): must compile cleanly.
#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto x = etwctl::stack_walk<"CSwitch+ThreadSetPriority">;
    (void)x;
}
