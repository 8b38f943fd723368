// Twin of stack_tracing_257.fail.cpp without the misuse (257 stack-traced events in a fixed-size array): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/typed/set.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const s{k.start_logger(etwctl::limits::kernel_logger_id)};
    etwctl::hook_id ids[256] = {};
    (void)etwctl::set<etwctl::stack_tracing>(k, s, ids);
}
