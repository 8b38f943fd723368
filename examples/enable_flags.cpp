// Decoding enable flags in a classic provider's callback. The TRACEHANDLE a classic (RegisterTraceGuids)
// provider receives is really a TRACE_ENABLE_CONTEXT; etwctl decodes it without a call, at compile
// time if the handle is a constant, with the same validity rules as EtwGetTraceEnableFlags.
#include <cstdint>
#include <cstdio>

#include "etwctl/compat.hpp" // compat::get_trace_enable_flags (opt-in)
#include "etwctl/enable_context.hpp"
#include "etwctl/etwctl.hpp"

namespace {

constexpr std::uint32_t my_flag_network = 0x1;
constexpr std::uint32_t my_flag_disk = 0x4;

// What a WMIDPREQUEST callback does with the handle it got from GetTraceLoggerHandle.
int on_enable(std::uint64_t trace_handle) {
    etwctl::enable_context const ctx{trace_handle};
    if (!ctx.valid()) {
        std::printf("handle 0x%016llx: %s\n", static_cast<unsigned long long>(trace_handle),
                    etwctl::make_error_code(ctx.check()).message().c_str());
        return 0;
    }
    std::printf("handle 0x%016llx: logger %u%s, level %u, flags 0x%08x%s%s\n",
                static_cast<unsigned long long>(trace_handle), ctx.logger_id().value,
                ctx.logger_id().is_kernel_logger() ? " (NT Kernel Logger)" : "", ctx.level(), ctx.enable_flags(),
                (ctx.enable_flags() & my_flag_network) ? " network" : "", (ctx.enable_flags() & my_flag_disk) ? " disk" : "");
    return 1;
}

} // namespace

int main() {
    using etwctl::enable_context;
    // Decoded at compile time.
    constexpr enable_context c = enable_context::make({5}, 4, my_flag_network | my_flag_disk);
    static_assert(c.logger_id().value == 5 && c.level() == 4 && c.enable_flags() == 0x5 && c.valid());
    static_assert(!enable_context{0}.valid() && !enable_context{0x40}.valid() && enable_context{0xFFFF}.valid());

    int ok = on_enable(c.handle);
    ok += on_enable(enable_context::make(etwctl::kernel_logger, 5, 0x10).handle);
    ok += 1 - on_enable(0x41); // logger id 65 >= MAXLOGGERS: rejected like EtwGetTraceEnableFlags does

    // The drop-in: EtwGetTraceEnableFlags' result and error.
    std::uint32_t error = 0;
    std::uint32_t const flags = etwctl::compat::get_trace_enable_flags(c.handle, &error);
    std::printf("get_trace_enable_flags -> 0x%x, error %u\n", flags, error);
    return (ok == 3 && flags == 0x5 && error == 0) ? 0 : 1;
}
