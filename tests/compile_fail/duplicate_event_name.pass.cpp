// Twin of duplicate_event_name.fail.cpp without the misuse (an alias of an event already listed): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto ids = etwctl::stack_walk<"Profile+CSwitch">;
    (void)ids;
}
