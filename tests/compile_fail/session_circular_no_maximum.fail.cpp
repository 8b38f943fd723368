// expect: etwctl_session_configuration_breaks_rule.*rule::session_mode_needs_maximum_file_size
// Misuse: a circular file without a maximum size, in a constant configuration. Must not compile, and the compiler must name the rule.
#include "etwctl/session/config.hpp"

int main() {
    using namespace etwctl;
    constexpr auto config = session_config::user("etwctl-test").file_circular("trace.etl", file_size{});
    (void)config;
}
