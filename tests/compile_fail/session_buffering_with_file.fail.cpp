// expect: etwctl_session_configuration_breaks_rule.*rule::session_log_file_mode_conflict
// Misuse: in-memory buffering with a log file, in a constant configuration. Must not compile, and the compiler must name the rule.
#include "etwctl/session/config.hpp"

int main() {
    using namespace etwctl;
    constexpr auto config = session_config::user("etwctl-test").buffering().file_sequential("trace.etl");
    (void)config;
}
