// Fuzz harness: TRACEHANDLE decoding. compat::get_trace_enable_flags (EtwGetTraceEnableFlags) must agree
// with etwctl::enable_context and enable_flags_of, and both with a reference written from Geoff Chappell's EtwGetTraceEnableFlags page:
// 0 -> ERROR_INVALID_HANDLE; logger id (low 16 bits) >= 64 and != 0xFFFF -> ERROR_INVALID_HANDLE;
// otherwise the flags are bits 32-63. make() round-trips every handle through its parts.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

using namespace etwctl;

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    while (in.remaining_bytes() > 0) {
        std::uint64_t const h = in.ConsumeIntegral<std::uint64_t>();
        std::uint32_t const id = static_cast<std::uint32_t>(h & 0xFFFF);
        bool const ref_valid = h != 0 && (id < 64 || id == 0xFFFF);
        std::uint32_t const ref_flags = ref_valid ? static_cast<std::uint32_t>(h >> 32) : 0;

        std::uint32_t err = 0xDEADBEEFU;
        std::uint32_t const flags = compat::get_trace_enable_flags(h, &err);
        FUZZ_CHECK(flags == ref_flags);
        FUZZ_CHECK(err == (ref_valid ? win32::success : win32::invalid_handle));
        FUZZ_CHECK(compat::get_trace_enable_flags(h, nullptr) == ref_flags);

        enable_context const c{h};
        FUZZ_CHECK(c.valid() == ref_valid);
        FUZZ_CHECK(win32_error_of(c.check()) == err);
        FUZZ_CHECK(c.check() == rule::ok || c.check() == rule::enable_context_zero_handle ||
                   c.check() == rule::enable_context_bad_logger_id);
        FUZZ_CHECK((c.check() == rule::enable_context_zero_handle) == (h == 0));
        FUZZ_CHECK(enable_flags_of(h) == ref_flags);
        FUZZ_CHECK(c.logger_id().value == id && c.level() == ((h >> 16) & 0xFF) &&
                   c.internal_flag() == ((h >> 24) & 0xFF) && c.enable_flags() == (h >> 32));
        FUZZ_CHECK(c.logger_id().is_kernel_logger() == (id == 0xFFFF));
        FUZZ_CHECK(enable_context::make(c.logger_id(), c.level(), c.enable_flags(), c.internal_flag()).handle == h);
    }
    return 0;
}
