// expect: etwctl::result<T>: T must be nothrow default-constructible
// Misuse: an error result<T> of a T whose default constructor may throw (the error result holds a
// default T, built in a noexcept constructor). Must not compile, and must say so in etwctl's words.
#include "etwctl/error.hpp"

struct throwing_default {
    throwing_default() noexcept(false) {}
};

int main() {
    etwctl::result<throwing_default> r(etwctl::rule::kernel_reply_malformed);
    return r.has_value() ? 1 : 0;
}
