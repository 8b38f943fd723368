// Two minimal programs whose linked text scripts/bench.sh compares (the "text" rows of the table):
//   etwctl_size_typed   one etwctl::set<stack_tracing> call with a compile-time hook_list
//   etwctl_size_raw     the same request written by hand
// Built from this one file (ETWCTL_SIZE_RAW selects the raw one) and size_kernel.cpp, a do-nothing
// kernel in its own translation unit. Both check the result, as a real caller would; the typed program
// returns the error_code's value, so it carries what a caller of the typed API links.
#include <cstdint>

#include "size_kernel.hpp"

#ifdef ETWCTL_SIZE_RAW
namespace {
struct hook_request3 {
    std::uint32_t information_class;
    std::uint32_t spare;
    std::uint64_t trace_handle;
    std::uint32_t hook_ids[3];
};
} // namespace

int main() {
    hook_request3 req{0x06, 0, etwctl_size::session, {0x0524, 0x0532, 0x0F2E}};
    return etwctl_size::kernel.nt_set_system_information(0x1F, &req, 0x1C) >= 0 ? 0 : 1;
}
#else
#include "etwctl/hook_list.hpp"
#include "etwctl/typed/set.hpp"

int main() {
    constexpr etwctl::hook_list<3> hooks{etwctl::hook_id{0x0524}, etwctl::hook_id{0x0532}, etwctl::hook_id{0x0F2E}};
    std::error_code const ec =
        etwctl::set<etwctl::stack_tracing>(etwctl_size::kernel, etwctl::session_handle{etwctl_size::session}, hooks);
    return ec ? 1 : 0;
}
#endif
