// The tool's kernel wrapper: forwards the six calls to a real or simulated kernel and keeps a copy of
// every request, so --dry-run can print the exact bytes. In dry-run mode only reads reach the kernel
// (queries are needed to validate and do not change anything); every set is recorded and answered
// with STATUS_SUCCESS without being sent. So that a dry run of "set the flags, then check against
// them" (pmc --flags) sees what it would have set, group masks set in a dry run are remembered per
// session and answered to later group-mask queries in the same run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "etwctl/kernel/concept.hpp"
#include "etwctl/request/logger_query.hpp"
#include "etwctl/status_codes.hpp"

namespace etwctl_tool {

struct request {
    etwctl::kernel_function function{};
    std::uint32_t code = 0;          ///< information class, NtTraceControl code, profile source or EVENT_INFO_CLASS
    std::uint32_t length = 0;        ///< the declared buffer length
    std::uint32_t value = 0;         ///< NtSetIntervalProfile's interval
    std::vector<std::byte> bytes;    ///< input bytes (for a query: the request head the caller filled in)
    bool is_query = false;
    bool sent = true;
    std::int32_t status = 0;         ///< NTSTATUS (event_set_information: the Win32 error)
    std::string logger_name;         ///< the logger query: the name its LoggerName points at (ASCII)

    /// Sent, succeeded and changed something (not a read).
    bool took_effect() const noexcept { return sent && !is_query && status >= 0 &&
                                               (function != etwctl::kernel_function::event_set_information || status == 0); }
};

template <etwctl::kernel K>
class recording_kernel {
public:
    recording_kernel(K& inner, bool dry_run) noexcept : inner_(inner), dry_run_(dry_run) {}

    std::vector<request> const& requests() const noexcept { return log_; }
    bool dry_run() const noexcept { return dry_run_; }
    K& inner() noexcept { return inner_; }

    std::int32_t nt_set_system_information(std::uint32_t cls, void const* buffer, std::uint32_t length) noexcept {
        auto& r = add(etwctl::kernel_function::nt_set_system_information, cls, buffer, length, length, false);
        if (dry_run_ && is_group_mask(cls, buffer, length)) remember_mask(buffer);
        return r.status = dry_run_ ? etwctl::ntstatus::success : inner_.nt_set_system_information(cls, buffer, length);
    }
    std::int32_t nt_query_system_information(std::uint32_t cls, void* buffer, std::uint32_t length,
                                             std::uint32_t* return_length) noexcept {
        // Only the head the caller filled in is input (class, handle); the rest is the output buffer.
        auto& r = add(etwctl::kernel_function::nt_query_system_information, cls, buffer, length,
                      length < 16 ? length : 16, true);
        r.status = inner_.nt_query_system_information(cls, buffer, length, return_length);
        if (dry_run_ && r.status >= 0 && is_group_mask(cls, buffer, length)) recall_mask(buffer);
        return r.status;
    }
    std::int32_t nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) noexcept {
        auto& r = add(etwctl::kernel_function::nt_set_interval_profile, source, nullptr, 0, 0, false);
        r.value = interval;
        return r.status = dry_run_ ? etwctl::ntstatus::success : inner_.nt_set_interval_profile(interval, source);
    }
    std::int32_t nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) noexcept {
        auto& r = add(etwctl::kernel_function::nt_query_interval_profile, source, nullptr, 0, 0, true);
        return r.status = inner_.nt_query_interval_profile(source, interval);
    }
    std::int32_t nt_trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                                  std::uint32_t out_length, std::uint32_t* return_length) noexcept {
        // The logger query (a session by name) only reads: it is sent in a dry run too.
        bool const read_only = code == etwctl::logger_query::control_code;
        auto& r = add(etwctl::kernel_function::nt_trace_control, code, in, in_length, in_length, read_only);
        if (read_only && in && in_length >= sizeof(etwctl::logger_query::wmi_logger_information)) {
            etwctl::logger_query::wmi_logger_information info;
            std::memcpy(&info, in, sizeof info);
            for (std::size_t i = 0; info.logger_name.buffer && i < info.logger_name.length / 2u; ++i)
                r.logger_name += static_cast<char>(info.logger_name.buffer[i] < 0x80 ? info.logger_name.buffer[i] : u'?');
        }
        return r.status = dry_run_ && !read_only
                              ? etwctl::ntstatus::success
                              : inner_.nt_trace_control(code, in, in_length, out, out_length, return_length);
    }
    std::uint32_t event_set_information(std::uint64_t reg, std::uint32_t cls, void const* info, std::uint32_t length) noexcept {
        auto& r = add(etwctl::kernel_function::event_set_information, cls, info, length, length, false);
        std::uint32_t const e = dry_run_ ? 0U : inner_.event_set_information(reg, cls, info, length);
        r.status = static_cast<std::int32_t>(e);
        return e;
    }

private:
    struct shadow_mask {
        std::uint64_t handle;
        unsigned char masks[32];
    };
    static bool is_group_mask(std::uint32_t cls, void const* buffer, std::uint32_t length) noexcept {
        std::uint32_t c = 0;
        if (cls != etwctl::system_performance_trace_information || !buffer || length != 0x30) return false;
        std::memcpy(&c, buffer, 4);
        return c == static_cast<std::uint32_t>(etwctl::event_trace_information_class::group_mask);
    }
    static std::uint64_t handle_of(void const* buffer) noexcept {
        std::uint64_t h = 0;
        std::memcpy(&h, static_cast<unsigned char const*>(buffer) + 8, 8);
        return h & 0xFFFFU; // the logger id selects the session
    }
    void remember_mask(void const* buffer) {
        shadow_mask m{handle_of(buffer), {}};
        std::memcpy(m.masks, static_cast<unsigned char const*>(buffer) + 0x10, 32);
        for (auto& s : shadow_)
            if (s.handle == m.handle) {
                s = m;
                return;
            }
        shadow_.push_back(m);
    }
    void recall_mask(void* buffer) const noexcept {
        for (auto const& s : shadow_)
            if (s.handle == handle_of(buffer)) std::memcpy(static_cast<unsigned char*>(buffer) + 0x10, s.masks, 32);
    }

    request& add(etwctl::kernel_function f, std::uint32_t code, void const* bytes, std::uint32_t length,
                 std::uint32_t copy, bool query) {
        request r;
        r.function = f;
        r.code = code;
        r.length = length;
        r.is_query = query;
        r.sent = query || !dry_run_;
        if (bytes && copy) {
            r.bytes.resize(copy);
            std::memcpy(r.bytes.data(), bytes, copy);
        }
        log_.push_back(std::move(r));
        return log_.back();
    }

    K& inner_;
    bool dry_run_;
    std::vector<request> log_;
    std::vector<shadow_mask> shadow_;
};

} // namespace etwctl_tool
