// A consumer of etwctl: uses the umbrella header, the typed API and the compat layer on the simulated
// kernel, and prints what it saw.
#include <cstdio>

#include <etwctl/compat.hpp> // the drop-in functions: opt-in
#include <etwctl/etwctl.hpp>
#include <etwctl/testing/sim_kernel.hpp>

int main() {
    etwctl::sim::kernel k;
    etwctl::session_handle const session = k.start_logger(0x30);
    constexpr etwctl::guid thread = etwctl::guid::from_string("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c");
    etwctl::classic_event_id const events[2] = {{thread, 36, {}}, {thread, 50, {}}};
    if (std::error_code const ec = etwctl::set<etwctl::stack_tracing>(k, session, events)) {
        std::printf("set<stack_tracing> failed: %s\n", ec.message().c_str());
        return 1;
    }
    std::uint32_t const e =
        etwctl::compat::trace_set_information(k, session.value, 3, events, static_cast<std::uint32_t>(sizeof events - 1));
    std::printf("etwctl consumer ok: %d.%d.%d, %zu hooks, incorrect size %u\n", ETWCTL_VERSION_MAJOR,
                ETWCTL_VERSION_MINOR, ETWCTL_VERSION_PATCH, k.stack_tracing_hooks(0x30).size(), e);
    return e == etwctl::win32::incorrect_size ? 0 : 1;
}
