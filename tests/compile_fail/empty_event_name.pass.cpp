// Twin of empty_event_name.fail.cpp without the misuse (an empty name between two '+'): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto ids = etwctl::stack_walk<"CSwitch+Profile">;
    (void)ids;
}
