// Twin of session_real_time_append.fail.cpp without the misuse (real time with a file mode that excludes it (APPEND)): must compile cleanly.
#include "etwctl/session/config.hpp"

int main() {
    using namespace etwctl;
    constexpr auto config = session_config::user("etwctl-test").file_sequential("trace.etl").real_time();
    (void)config;
}
