// Twin of traits_oversize.fail.cpp without the misuse (a provider traits blob over 65535 bytes): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/provider_traits.hpp"

int main() {
    static constexpr char name[65533] = "x";
    auto t = etwctl::make_provider_traits(name);
    (void)t;
}
