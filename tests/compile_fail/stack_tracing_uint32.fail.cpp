// expect: etwctl::set<stack_tracing>: wrong arguments. use set<stack_tracing>.kernel, session, events.
// Misuse: raw uint32_t hook ids instead of hook_id. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/typed/set.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const s{k.start_logger(etwctl::limits::kernel_logger_id)};
    std::uint32_t ids[2] = {0x0524, 0x0532};
    (void)etwctl::set<etwctl::stack_tracing>(k, s, ids);
}
