// A library and the application both want kernel stacks on the same session. The kernel keeps one
// stack-walk list per session, replaces it on every call and cannot be asked for it, so each party
// keeps its wishes in a stack_walk_set and the session gets their union in one call. A set that would
// overflow the kernel's 256 events is refused, never silently cut.
#include <cstdio>
#include <memory>

#include "etwctl/etwctl.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    using namespace etwctl;
    auto machine = std::make_unique<sim::kernel>(); // the simulated kernel: runs anywhere
    session_handle const session{machine->start_kernel_logger()};

    // Built at compile time from names: a hook_list becomes a set (sorted, deduplicated).
    constexpr stack_walk_set<> profiler_library{stack_walk<"Profile+CSwitch">};
    stack_walk_set<> application{stack_walk<"CSwitch+ReadyThread">};
    if (application.add(stack_walk<"ImageLoad">) != rule::ok) return 1;

    rule r = rule::ok;
    auto const wanted = unite(profiler_library, application, &r);
    if (r != rule::ok) return 1;
    if (auto const ec = wanted.apply(*machine, session); ec) {
        std::printf("stack walk refused: %s\n", ec.message().c_str());
        return 1;
    }
    char names[256];
    format_stack_walk(wanted.span(), names);
    std::printf("stack walk on the NT Kernel Logger: %s (%zu events)\n", names, wanted.size());

    // The application stops wanting ReadyThread: remove it and send the list again.
    stack_walk_set<> now = wanted;
    now.remove(kernel_event_hook("ReadyThread").value());
    if (now.apply(*machine, session)) return 1;
    format_stack_walk(now.span(), names);
    std::printf("after removing ReadyThread: %s\n", names);

    // Overflow is an error the caller sees.
    stack_walk_set<2> small{stack_walk<"CSwitch+ReadyThread">};
    std::error_code const ec = small.add(kernel_event_hook("Profile").value());
    std::printf("adding a third event to a set of capacity 2: %s\n", ec.message().c_str());
    return ec == rule::stack_walk_overflow && machine->stack_tracing_hooks(limits::kernel_logger_id).size() == 3 ? 0 : 1;
}
