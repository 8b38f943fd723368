// expect: etwctl::set<stack_tracing>: too many events. the kernel accepts at most 256
// Misuse: 257 stack-traced events in a fixed-size array. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/typed/set.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const s{k.start_logger(etwctl::limits::kernel_logger_id)};
    etwctl::hook_id ids[257] = {};
    (void)etwctl::set<etwctl::stack_tracing>(k, s, ids);
}
