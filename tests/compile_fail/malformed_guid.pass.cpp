// Twin of malformed_guid.fail.cpp without the misuse (a GUID literal one digit short): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/guid.hpp"

int main() {
    using namespace etwctl::literals;
    constexpr etwctl::guid g = "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c"_guid;
    (void)g;
}
