// expect: etwctl_session_configuration_breaks_rule.*rule::session_log_file_mode_conflict
// Misuse: real time with a file mode that excludes it (APPEND), in a constant configuration. Must not compile, and the compiler must name the rule.
#include "etwctl/session/config.hpp"

int main() {
    using namespace etwctl;
    constexpr auto config = session_config::user("etwctl-test").file_append("trace.etl").real_time();
    (void)config;
}
