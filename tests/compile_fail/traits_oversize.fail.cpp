// expect: etwctl::provider_traits: the blob exceeds 65535 bytes
// Misuse: a provider traits blob over 65535 bytes. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/provider_traits.hpp"

int main() {
    static constexpr char name[65534] = "x";
    auto t = etwctl::make_provider_traits(name);
    (void)t;
}
