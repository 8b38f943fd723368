// The size programs' do-nothing kernel (see size_kernel.hpp). Every member is defined, so the typed
// program satisfies etwctl's kernel concept; only the one the programs call is linked in (--gc-sections
// is not used: unused members stay, equally in both programs).
#include "size_kernel.hpp"

namespace etwctl_size {
namespace {
inline void touch(void const* p) noexcept { asm volatile("" : : "r"(p) : "memory"); }
} // namespace
std::int32_t null_kernel::nt_set_system_information(std::uint32_t, void const* in, std::uint32_t) noexcept {
    touch(in);
    return 0;
}
std::int32_t null_kernel::nt_query_system_information(std::uint32_t, void* out, std::uint32_t length,
                                                      std::uint32_t* returned) noexcept {
    touch(out);
    *returned = length;
    return 0;
}
std::int32_t null_kernel::nt_set_interval_profile(std::uint32_t, std::uint32_t) noexcept { return 0; }
std::int32_t null_kernel::nt_query_interval_profile(std::uint32_t, std::uint32_t* value) noexcept {
    *value = 0;
    return 0;
}
std::int32_t null_kernel::nt_trace_control(std::uint32_t, void const* in, std::uint32_t, void* out, std::uint32_t,
                                           std::uint32_t* returned) noexcept {
    touch(in);
    touch(out);
    *returned = 0;
    return 0;
}
std::uint32_t null_kernel::event_set_information(std::uint64_t, std::uint32_t, void const* in, std::uint32_t) noexcept {
    touch(in);
    return 0;
}
null_kernel kernel;
std::uint64_t session = 0xFFFF;
} // namespace etwctl_size
