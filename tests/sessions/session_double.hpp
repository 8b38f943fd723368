// A small session kernel for the typed API's own tests: it records every call (the block's address and a
// copy of its first bytes, the name, the code) and answers from a few sessions it keeps, so a test can see
// what the typed layer sends (a fresh block per call, the fields of an UPDATE, the EnableTraceEx2 filters)
// independently of the simulated kernel's model. The behaviour of Windows itself is tested on sim::kernel.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "etwctl/sessions.hpp"

namespace typed_test {

using namespace etwctl;

struct recorded_call {
    char const* function = "";
    std::uint64_t handle = 0;
    std::u16string name;
    void const* block = nullptr;
    event_trace_properties_v2 properties{};
    std::uint32_t code = 0;
    // EnableTraceEx2
    guid provider{};
    std::uint8_t level = 0;
    std::uint64_t any = 0, all = 0;
    std::uint32_t timeout = 0;
    enable_trace_parameters parameters{};
    std::vector<event_filter_descriptor> filters;
    std::vector<std::vector<unsigned char>> filter_bytes;
};

class session_double {
public:
    struct session {
        std::u16string name;
        std::uint64_t handle = 0;
        event_trace_properties_v2 properties{};
        bool running = true;
    };

    std::vector<recorded_call> calls;
    std::vector<session> sessions;
    std::uint32_t next_id = 1;
    std::uint32_t fail_next = 0; ///< a Win32 code the next call returns
    session_statistics stop_statistics{};
    std::uint32_t clamp_maximum_buffers = 0; ///< a start keeps MaximumBuffers at most this (0: no clamp)

    std::uint32_t start_trace_w(std::uint64_t* h, wide_char const* name, void* props) noexcept {
        auto& p = *static_cast<session_properties*>(props);
        record("StartTraceW", 0, name, props, 0);
        if (auto e = take_failure()) return e;
        if (find(name) != nullptr) return win32::already_exists;
        session s;
        s.name = to_u16(name);
        s.handle = next_id++;
        s.properties = p.properties;
        if (clamp_maximum_buffers != 0 && s.properties.maximum_buffers > clamp_maximum_buffers)
            s.properties.maximum_buffers = clamp_maximum_buffers;
        s.properties.wnode.historical_context = s.handle;
        p.properties = s.properties;
        *h = s.handle;
        sessions.push_back(s);
        return win32::success;
    }
    std::uint32_t control_trace_w(std::uint64_t h, wide_char const* name, void* props, std::uint32_t code) noexcept {
        record("ControlTraceW", h, name, props, code);
        if (auto e = take_failure()) return e;
        session* s = name != nullptr ? find(name) : find(h);
        if (s == nullptr) return win32::wmi_instance_not_found;
        auto& p = *static_cast<session_properties*>(props);
        std::uint32_t const offset = p.properties.log_file_name_offset;
        p.properties = s->properties;
        for (std::size_t i = 0; i < s->name.size(); ++i) p.logger_name[i] = static_cast<wide_char>(s->name[i]);
        if (code == static_cast<std::uint32_t>(control_code::stop)) {
            p.properties.events_lost = stop_statistics.events_lost;
            p.properties.buffers_written = stop_statistics.buffers_written;
            p.properties.log_buffers_lost = stop_statistics.log_buffers_lost;
            p.properties.real_time_buffers_lost = stop_statistics.real_time_buffers_lost;
            s->running = false;
            erase(*s);
        }
        (void)offset;
        return win32::success;
    }
    std::uint32_t query_all_traces_w(void** array, std::uint32_t count, std::uint32_t* out) noexcept {
        record("QueryAllTracesW", 0, nullptr, nullptr, count);
        *out = static_cast<std::uint32_t>(sessions.size());
        std::size_t const n = sessions.size() < count ? sessions.size() : count;
        for (std::size_t i = 0; i < n; ++i) {
            auto& p = *static_cast<session_properties*>(array[i]);
            p.properties = sessions[i].properties;
            for (std::size_t c = 0; c < sessions[i].name.size(); ++c) p.logger_name[c] = static_cast<wide_char>(sessions[i].name[c]);
        }
        return sessions.size() > count ? win32::more_data : win32::success;
    }
    std::uint32_t enable_trace_ex2(std::uint64_t h, guid const* g, std::uint32_t code, std::uint8_t level, std::uint64_t any,
                                   std::uint64_t all, std::uint32_t timeout, void const* params) noexcept {
        recorded_call c;
        c.function = "EnableTraceEx2";
        c.handle = h;
        c.provider = *g;
        c.code = code;
        c.level = level;
        c.any = any;
        c.all = all;
        c.timeout = timeout;
        if (params != nullptr) {
            std::memcpy(&c.parameters, params, sizeof c.parameters);
            for (std::uint32_t i = 0; i < c.parameters.filter_desc_count; ++i) {
                event_filter_descriptor const d = c.parameters.enable_filter_desc[i];
                c.filters.push_back(d);
                auto const* bytes = reinterpret_cast<unsigned char const*>(static_cast<std::uintptr_t>(d.ptr));
                c.filter_bytes.emplace_back(bytes, bytes + d.size);
            }
        }
        calls.push_back(c);
        if (auto e = take_failure()) return e;
        return find(h) != nullptr ? win32::success : win32::invalid_parameter;
    }

    std::uint32_t pid = 4242;
    std::vector<std::uint32_t> alive_pids{4242};
    std::uint32_t current_process_id() noexcept { return pid; }
    bool process_alive(std::uint32_t p) noexcept {
        for (auto a : alive_pids)
            if (a == p) return true;
        return false;
    }

    std::uint32_t build = 0;
    std::uint32_t windows_build() noexcept { return build; }

    session* find(std::uint64_t h) {
        for (auto& s : sessions)
            if (s.handle == h) return &s;
        return nullptr;
    }
    session* find(wide_char const* name) {
        std::u16string const n = to_u16(name);
        for (auto& s : sessions)
            if (s.name == n) return &s;
        return nullptr;
    }
    void add_running(std::u16string name) {
        session s;
        s.name = std::move(name);
        s.handle = next_id++;
        s.properties.wnode.historical_context = s.handle;
        s.properties.log_file_mode = log_file_mode::real_time;
        sessions.push_back(s);
    }

private:
    static std::u16string to_u16(wide_char const* name) {
        std::u16string s;
        if (name != nullptr)
            for (; *name != 0; ++name) s.push_back(static_cast<char16_t>(*name));
        return s;
    }
    void record(char const* f, std::uint64_t h, wide_char const* name, void const* props, std::uint32_t code) {
        recorded_call c;
        c.function = f;
        c.handle = h;
        c.name = to_u16(name);
        c.block = props;
        if (props != nullptr) std::memcpy(&c.properties, props, sizeof c.properties);
        c.code = code;
        calls.push_back(c);
    }
    std::uint32_t take_failure() { return std::exchange(fail_next, 0U); }
    void erase(session& s) {
        for (auto it = sessions.begin(); it != sessions.end(); ++it)
            if (&*it == &s) {
                sessions.erase(it);
                return;
            }
    }
};

static_assert(session_kernel<session_double>);
static_assert(orphan_session_kernel<session_double>);

} // namespace typed_test
