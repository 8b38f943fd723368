// expect: etwctl_provider_traits_name_contains_an_embedded_NUL
// Misuse: a provider name with an embedded NUL. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/provider_traits.hpp"

int main() {
    constexpr auto t = etwctl::make_provider_traits("My\0Provider");
    (void)t;
}
