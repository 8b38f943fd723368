// Twin of traits_embedded_nul.fail.cpp without the misuse (a provider name with an embedded NUL): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/provider_traits.hpp"

int main() {
    constexpr auto t = etwctl::make_provider_traits("MyProvider");
    (void)t;
}
