// A do-nothing kernel for the size programs (size_programs.cpp): only what a set<stack_tracing> call
// needs, defined in size_kernel.cpp so that neither program can inline it.
#pragma once

#include <cstdint>

namespace etwctl_size {
struct null_kernel {
    std::int32_t nt_set_system_information(std::uint32_t cls, void const* in, std::uint32_t length) noexcept;
    std::int32_t nt_query_system_information(std::uint32_t cls, void* out, std::uint32_t length,
                                             std::uint32_t* returned) noexcept;
    std::int32_t nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) noexcept;
    std::int32_t nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) noexcept;
    std::int32_t nt_trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                                  std::uint32_t out_length, std::uint32_t* returned) noexcept;
    std::uint32_t event_set_information(std::uint64_t reg, std::uint32_t cls, void const* in,
                                        std::uint32_t length) noexcept;
};
extern null_kernel kernel;
extern std::uint64_t session;
} // namespace etwctl_size
