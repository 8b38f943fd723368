// Self-test of the SDK-macro check (tests/hygiene/CMakeLists.txt): a program that compiles with and
// without the SDK's max() macro, but not as the same program (with it, std::max is never called). The
// check must report it: compiling after the macros would not.
#include <algorithm>
int main() {
    using std::max;
    return max(1, 2) - 2;
}
