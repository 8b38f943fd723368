// expect: etwctl_guid_from_string_malformed_text_expected_8_4_4_4_12_hex_digits
// Misuse: a GUID literal one digit short. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/guid.hpp"

int main() {
    using namespace etwctl::literals;
    constexpr etwctl::guid g = "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7"_guid;
    (void)g;
}
