// Helpers of the session tests: a properties block of any size with guard bytes after it (nothing may
// be written past Wnode.BufferSize), names as 16-bit units, and a fresh simulated kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "etwctl/session/compat.hpp"
#include "etwctl/testing/sim_kernel.hpp"
#include "etwctl_test.hpp"

namespace session_test {

using namespace etwctl;

inline constexpr unsigned char guard = 0xCD;
inline constexpr std::size_t guard_bytes = 64;

/// A block of `size` bytes (Wnode.BufferSize) zeroed, followed by guard bytes; any size, any alignment
/// the caller's real block would have (8).
struct block {
    alignas(8) unsigned char bytes[8192 + guard_bytes];
    std::uint32_t size;

    explicit block(std::uint32_t buffer_size, std::uint32_t mode = log_file_mode::real_time) : size(buffer_size) {
        std::memset(bytes, guard, sizeof bytes);
        std::memset(bytes, 0, size);
        if (size >= sizeof(event_trace_properties)) {
            auto* p = ::new (static_cast<void*>(bytes)) event_trace_properties{};
            p->wnode.buffer_size = size;
            p->wnode.flags = wnode_flag::traced_guid;
            p->wnode.client_context = 1;
            p->log_file_mode = mode;
        } else {
            std::memcpy(bytes, &size, 4);
        }
    }
    event_trace_properties* props() { return std::launder(reinterpret_cast<event_trace_properties*>(bytes)); }
    event_trace_properties const* props() const { return std::launder(reinterpret_cast<event_trace_properties const*>(bytes)); }
    bool guard_intact() const {
        for (std::size_t i = size; i < size + guard_bytes; ++i)
            if (bytes[i] != guard) return false;
        return true;
    }
    /// Reserves the session name at `offset` (StartTrace copies it there).
    void name_at(std::uint32_t offset) { props()->logger_name_offset = offset; }
    /// Writes a log-file name (16-bit units) at `offset`.
    void log_file_at(std::uint32_t offset, std::u16string_view name) {
        props()->log_file_name_offset = offset;
        for (std::size_t i = 0; i <= name.size(); ++i) {
            char16_t const c = i < name.size() ? name[i] : u'\0';
            bytes[offset + 2 * i] = static_cast<unsigned char>(c & 0xFF);
            bytes[offset + 2 * i + 1] = static_cast<unsigned char>(c >> 8);
        }
    }
    void log_file_at_a(std::uint32_t offset, std::string_view name) {
        props()->log_file_name_offset = offset;
        std::memcpy(bytes + offset, name.data(), name.size());
        bytes[offset + name.size()] = 0;
    }
    /// The 16-bit name stored at `offset`.
    std::u16string name_from(std::uint32_t offset) const {
        std::u16string s;
        for (std::size_t at = offset; at + 1 < size; at += 2) {
            auto const c = static_cast<char16_t>(bytes[at] | (bytes[at + 1] << 8));
            if (c == 0) break;
            s += c;
        }
        return s;
    }
};

/// A name as the kernel takes it (wide_char: char16_t off Windows, wchar_t on Windows).
inline std::basic_string<wide_char> w(std::u16string_view s) {
    std::basic_string<wide_char> r;
    for (char16_t c : s) r += static_cast<wide_char>(c);
    return r;
}

/// The standard block of the tests: the structure plus room for two 1024-character names, the session
/// name right after the structure, as Microsoft documents for a block used to query any session.
inline constexpr std::uint32_t full_size = static_cast<std::uint32_t>(sizeof(event_trace_properties) + limits::control_block_names_bytes);
inline constexpr std::uint32_t name_offset = sizeof(event_trace_properties);
inline constexpr std::uint32_t file_offset = name_offset + 2 * limits::max_session_name_length; // as Microsoft lays it out

/// "prefix N".
inline std::u16string numbered(std::u16string_view prefix, int n) {
    std::u16string s(prefix);
    for (char c : std::to_string(n)) s += static_cast<char16_t>(c);
    return s;
}

inline std::unique_ptr<sim::kernel> machine() { return std::make_unique<sim::kernel>(); }

/// Starts a real-time session named `name` through the drop-in function; returns its handle (0 on failure).
inline std::uint64_t start(sim::kernel& k, std::u16string_view name, std::uint32_t mode = log_file_mode::real_time) {
    block b(full_size, mode);
    b.name_at(name_offset);
    std::uint64_t h = 0;
    auto const n = w(name);
    return compat::start_trace(k, &h, n.c_str(), b.props()) == 0 ? h : 0;
}

} // namespace session_test
