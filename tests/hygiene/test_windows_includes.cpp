// Runs the functions of the include-order TUs: each compiled (that is most of the test) and each works.
#include "etwctl_test.hpp"
#include "windows_includes.hpp"

TEST_CASE("etwctl with <windows.h> in every include order and configuration") {
    CHECK(hygiene_windows_first() == 1);
    CHECK(hygiene_etwctl_first() == 1);
    CHECK(hygiene_lean_windows_first() == 1);
    CHECK(hygiene_lean_etwctl_first() == 1);
    CHECK(hygiene_unicode() == 1);
    CHECK(hygiene_nt_declarations() == 1);
}
