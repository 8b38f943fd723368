// Twin of session_buffer_size_integer.fail.cpp without the misuse (a bare number as the buffer size): must compile cleanly.
#include "etwctl/session/config.hpp"

int main() {
    using namespace etwctl;
    constexpr auto config = session_config::user("etwctl-test").real_time().buffer(buffer_size::kilobytes(64));
    (void)config;
}
