// The tool's kernel, type-erased: the commands are compiled once (tools/etwctl/commands/*.cpp), not
// once per kernel. any_kernel has the six calls of etwctl::kernel and the four of etwctl::session_kernel
// as virtual functions; kernel_ref<K> forwards them to a real or simulated kernel. tool_kernel records every request (--dry-run).
#pragma once

#include <cstdint>

#include "etwctl/kernel/concept.hpp"
#include "etwctl/kernel/session_concept.hpp"

#include "recording_kernel.hpp"

namespace etwctl_tool {

class any_kernel {
public:
    virtual ~any_kernel() = default;
    virtual std::int32_t nt_set_system_information(std::uint32_t cls, void const* buffer, std::uint32_t length) noexcept = 0;
    virtual std::int32_t nt_query_system_information(std::uint32_t cls, void* buffer, std::uint32_t length,
                                                     std::uint32_t* return_length) noexcept = 0;
    virtual std::int32_t nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) noexcept = 0;
    virtual std::int32_t nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) noexcept = 0;
    virtual std::int32_t nt_trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                                          std::uint32_t out_length, std::uint32_t* return_length) noexcept = 0;
    virtual std::uint32_t event_set_information(std::uint64_t reg, std::uint32_t cls, void const* info,
                                                std::uint32_t length) noexcept = 0;
    // The session calls (etwctl::session_kernel).
    virtual std::uint32_t start_trace_w(std::uint64_t* handle, etwctl::wide_char const* name, void* props) noexcept = 0;
    virtual std::uint32_t control_trace_w(std::uint64_t handle, etwctl::wide_char const* name, void* props,
                                          std::uint32_t code) noexcept = 0;
    virtual std::uint32_t query_all_traces_w(void** array, std::uint32_t count, std::uint32_t* sessions) noexcept = 0;
    virtual std::uint32_t enable_trace_ex2(std::uint64_t handle, etwctl::guid const* provider, std::uint32_t code,
                                           std::uint8_t level, std::uint64_t any, std::uint64_t all, std::uint32_t timeout,
                                           void const* params) noexcept = 0;
};

template <class K>
    requires(etwctl::kernel<K> && etwctl::session_kernel<K>)
class kernel_ref final : public any_kernel {
public:
    explicit kernel_ref(K& k) noexcept : k_(k) {}
    std::int32_t nt_set_system_information(std::uint32_t cls, void const* buffer, std::uint32_t length) noexcept override {
        return k_.nt_set_system_information(cls, buffer, length);
    }
    std::int32_t nt_query_system_information(std::uint32_t cls, void* buffer, std::uint32_t length,
                                             std::uint32_t* return_length) noexcept override {
        return k_.nt_query_system_information(cls, buffer, length, return_length);
    }
    std::int32_t nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) noexcept override {
        return k_.nt_set_interval_profile(interval, source);
    }
    std::int32_t nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) noexcept override {
        return k_.nt_query_interval_profile(source, interval);
    }
    std::int32_t nt_trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                                  std::uint32_t out_length, std::uint32_t* return_length) noexcept override {
        return k_.nt_trace_control(code, in, in_length, out, out_length, return_length);
    }
    std::uint32_t event_set_information(std::uint64_t reg, std::uint32_t cls, void const* info,
                                        std::uint32_t length) noexcept override {
        return k_.event_set_information(reg, cls, info, length);
    }
    std::uint32_t start_trace_w(std::uint64_t* handle, etwctl::wide_char const* name, void* props) noexcept override {
        return k_.start_trace_w(handle, name, props);
    }
    std::uint32_t control_trace_w(std::uint64_t handle, etwctl::wide_char const* name, void* props, std::uint32_t code) noexcept override {
        return k_.control_trace_w(handle, name, props, code);
    }
    std::uint32_t query_all_traces_w(void** array, std::uint32_t count, std::uint32_t* sessions) noexcept override {
        return k_.query_all_traces_w(array, count, sessions);
    }
    std::uint32_t enable_trace_ex2(std::uint64_t handle, etwctl::guid const* provider, std::uint32_t code, std::uint8_t level,
                                   std::uint64_t any, std::uint64_t all, std::uint32_t timeout, void const* params) noexcept override {
        return k_.enable_trace_ex2(handle, provider, code, level, any, all, timeout, params);
    }

private:
    K& k_;
};

static_assert(etwctl::kernel<any_kernel> && etwctl::session_kernel<any_kernel>);
using tool_kernel = recording_kernel<any_kernel>;
static_assert(etwctl::kernel<tool_kernel> && etwctl::session_kernel<tool_kernel>);

} // namespace etwctl_tool
