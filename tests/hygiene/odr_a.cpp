// One of two TUs that include the umbrella header and are linked into the same program.
#include "etwctl/etwctl.hpp"
#include "etwctl/testing/sim_kernel.hpp"
#include "odr.hpp"

odr_report odr_report_a(etwctl::sim::kernel& k, std::uint64_t session) {
    odr_report r{};
    r.info_class_table = &etwctl::trace_info_class_table[0];
    r.rules = &etwctl::rule_category();
    r.nt = &etwctl::ntstatus_category();
#if defined(_WIN32)
    r.native = &etwctl::native_kernel::instance();
#endif
    etwctl::group_mask m = etwctl::group_mask::from_enable_flags(0x10U);
    r.set_result = etwctl::to_win32(etwctl::set<etwctl::system_trace_enable_flags>(k, session, m));
    return r;
}
