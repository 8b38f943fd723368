// Twin of unknown_wpr_keyword.fail.cpp without the misuse (a misspelt WPR SystemProvider keyword (with the suggestion)): must compile cleanly.
#include "etwctl/names/wpr.hpp"

int main() {
    constexpr auto x = etwctl::wpr_keywords<"ProcessThread+CSwitch">;
    (void)x;
}
