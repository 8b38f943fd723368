// Twin of session_buffering_with_file.fail.cpp without the misuse (in-memory buffering with a log file): must compile cleanly.
#include "etwctl/session/config.hpp"

int main() {
    using namespace etwctl;
    constexpr auto config = session_config::user("etwctl-test").buffering();
    (void)config;
}
