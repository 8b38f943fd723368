// Twin of session_circular_no_maximum.fail.cpp without the misuse (a circular file without a maximum size): must compile cleanly.
#include "etwctl/session/config.hpp"

int main() {
    using namespace etwctl;
    constexpr auto config = session_config::user("etwctl-test").file_circular("trace.etl", file_size::megabytes(64));
    (void)config;
}
