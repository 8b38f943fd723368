// expect: etwctl::query: this information class can only be set
// Misuse: query of a set-only class. Must not compile, and must say so in etwctl's words.
#include <array>
#include <cstdint>

#include "etwctl/typed/query.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const s{k.start_logger(etwctl::limits::kernel_logger_id)};
    auto r = etwctl::query<etwctl::stack_tracing>(k, s);
    (void)r;
}
