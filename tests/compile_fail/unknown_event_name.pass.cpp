// Twin of unknown_event_name.fail.cpp without the misuse (a misspelt event name (with the suggestion)): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/names/parse.hpp"

int main() {
    constexpr auto ids = etwctl::stack_walk<"CSwitch+ReadyThread">;
    (void)ids;
}
