// Twin of session_enable_flags_user.fail.cpp without the misuse (kernel enable flags (a system-logger-only setting) on a user session): must compile cleanly.
#include "etwctl/session/config.hpp"

int main() {
    using namespace etwctl;
    constexpr auto config = session_config::system_logger("etwctl-test").real_time().enable_flags(0x1);
    (void)config;
}
