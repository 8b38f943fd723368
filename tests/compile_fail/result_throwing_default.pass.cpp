// Twin of result_throwing_default.fail.cpp without the misuse (a T whose default constructor cannot
// throw): must compile cleanly.
#include "etwctl/error.hpp"

struct quiet_default {
    quiet_default() noexcept {}
};

int main() {
    etwctl::result<quiet_default> r(etwctl::rule::kernel_reply_malformed);
    return r.has_value() ? 1 : 0;
}
