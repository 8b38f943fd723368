// Twin of provider_name_not_ascii.fail.cpp without the misuse (a non-ASCII provider name): must compile cleanly.
#include "etwctl/session/provider_name.hpp"

int main() {
    constexpr etwctl::guid g = etwctl::provider_name<"Cafe.Provider">;
    (void)g;
}
