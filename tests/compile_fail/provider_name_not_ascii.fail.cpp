// expect: etwctl::provider_name<Name>: the name must be 1 or more ASCII characters without NUL
// Misuse: a provider name with a non-ASCII character (etwctl cannot upper-case it as EventSource does).
#include "etwctl/session/provider_name.hpp"

int main() {
    constexpr etwctl::guid g = etwctl::provider_name<"Caf\xC3\xA9.Provider">;
    (void)g;
}
