// Twin of query_set_only_class.fail.cpp without the misuse (query of a set-only class): must compile cleanly.
#include <array>
#include <cstdint>

#include "etwctl/typed/query.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const s{k.start_logger(etwctl::limits::kernel_logger_id)};
    auto r = etwctl::query<etwctl::system_trace_enable_flags>(k, s);
    (void)r;
}
