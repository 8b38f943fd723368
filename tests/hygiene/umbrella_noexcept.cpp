// The umbrella header and its typed API with -fno-exceptions -fno-rtti.
#include "etwctl/etwctl.hpp"
#include "etwctl/testing/sim_kernel.hpp"

#if defined(__cpp_exceptions) || defined(__GXX_RTTI) || defined(__cpp_rtti)
#error "this TU must be compiled with -fno-exceptions -fno-rtti"
#endif

int etwctl_hygiene_noexcept_use() {
    etwctl::sim::kernel k;
    auto const session = k.start_logger(0x22);
    return static_cast<int>(etwctl::to_win32(
        etwctl::set<etwctl::system_trace_enable_flags>(k, session, etwctl::group_mask::from_enable_flags(1))));
}
