// Twin of stack_tracing_uint32.fail.cpp without the misuse (raw uint32_t hook ids instead of hook_id): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/typed/set.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const s{k.start_logger(etwctl::limits::kernel_logger_id)};
    etwctl::hook_id ids[2] = {etwctl::hook_id{0x0524}, etwctl::hook_id{0x0532}};
    (void)etwctl::set<etwctl::stack_tracing>(k, s, ids);
}
