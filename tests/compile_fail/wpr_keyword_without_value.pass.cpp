// Twin of wpr_keyword_without_value.fail.cpp without the misuse (a WPR keyword no public source gives a value for (known, refused by name, never guessed)): must compile cleanly.
#include "etwctl/names/wpr.hpp"

int main() {
    constexpr auto x = etwctl::wpr_keywords<"Loader+IdleStates">;
    (void)x;
}
