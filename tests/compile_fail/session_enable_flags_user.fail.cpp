// expect: etwctl_session_configuration_breaks_rule.*rule::session_enable_flags_need_system_logger
// Misuse: kernel enable flags (a system-logger-only setting) on a user session, in a constant configuration. Must not compile, and the compiler must name the rule.
#include "etwctl/session/config.hpp"

int main() {
    using namespace etwctl;
    constexpr auto config = session_config::user("etwctl-test").real_time().enable_flags(0x1);
    (void)config;
}
