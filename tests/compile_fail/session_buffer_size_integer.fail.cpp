// expect: buffer_size
// Misuse: a bare number as the buffer size (KB or MB? PerfView #2439 wrote MB into the KB field). Only
// buffer_size::kilobytes(n) / ::megabytes(n) make one.
#include "etwctl/session/config.hpp"

int main() {
    using namespace etwctl;
    constexpr auto config = session_config::user("etwctl-test").real_time().buffer(64);
    (void)config;
}
