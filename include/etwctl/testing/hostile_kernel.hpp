// SPDX-License-Identifier: MIT
// etwctl/testing/hostile_kernel.hpp - a kernel that lies. It wraps the simulated kernel (sim::kernel: all
// state and rules) and corrupts its replies in one chosen way, so tests can check that etwctl turns every
// malformed reply into a precise error (rule::kernel_reply_malformed, or the status the kernel returned)
// or a correctly truncated result, and never reads or writes outside the buffers it was given.
//
// Faults (one at a time, for every later call until changed):
//   return lengths    length_beyond_buffer (ReturnLength > the buffer), length_short (ReturnLength smaller
//                     than the data written), length_zero
//   status            success_short_data (success, but only part of the reply written, ReturnLength
//                     saying so), too_small_needs_less (STATUS_BUFFER_TOO_SMALL / INFO_LENGTH_MISMATCH
//                     naming a size that is not bigger than the buffer)
//   source chain      chain_cycle (NextEntryOffset leading back to an earlier record), chain_past_end,
//                     chain_misaligned, chain_zero_length_record (an offset smaller than a record's head),
//                     chain_zero_not_last (NextEntryOffset 0 on the first of several records),
//                     chain_links_to_nothing (the last record links to the end of the reply),
//                     description_unterminated (a description without its NUL)
//   disallow list     disallow_not_multiple_of_16 (ReturnLength 16n + 4)
// The kernel itself never writes past the length it is given: the lies are about what it wrote.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "etwctl/config.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/testing/sim_kernel.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace sim {

enum class reply_fault : std::uint8_t {
    none,
    length_beyond_buffer,
    length_short,
    length_zero,
    success_short_data,
    too_small_needs_less,
    chain_cycle,
    chain_past_end,
    chain_misaligned,
    chain_zero_length_record,
    chain_zero_not_last,
    chain_links_to_nothing,
    description_unterminated,
    disallow_not_multiple_of_16,
    count_ // keep last
};

class hostile_kernel {
public:
    hostile_kernel() noexcept = default;
    hostile_kernel(hostile_kernel const&) = delete;
    hostile_kernel& operator=(hostile_kernel const&) = delete;

    /// The simulated kernel underneath (start loggers, set lists, inspect requests through it).
    kernel& inner() noexcept { return inner_; }
    kernel const& inner() const noexcept { return inner_; }

    void set_fault(reply_fault f) noexcept { fault_ = f; }
    reply_fault fault() const noexcept { return fault_; }

    // ---- the six calls (etwctl::kernel) ------------------------------------------------------------
    std::int32_t nt_set_system_information(std::uint32_t c, void const* buffer, std::uint32_t length) noexcept {
        return inner_.nt_set_system_information(c, buffer, length);
    }

    std::int32_t nt_query_system_information(std::uint32_t c, void* buffer, std::uint32_t length,
                                             std::uint32_t* return_length) noexcept {
        std::uint32_t cls = 0xFFFFFFFFU;
        if (buffer && length >= 4) std::memcpy(&cls, buffer, 4);
        // success_short_data on a fixed-size reply: the kernel writes only its first 8 bytes (what was
        // in the rest of the buffer stays), while saying it succeeded.
        std::byte saved[64];
        bool const short_write = fault_ == reply_fault::success_short_data && buffer && length > 8 &&
                                 length <= sizeof saved &&
                                 cls != static_cast<std::uint32_t>(event_trace_information_class::profile_source_list);
        if (short_write) std::memcpy(saved, buffer, length);
        std::uint32_t returned = 0;
        std::int32_t s = inner_.nt_query_system_information(c, buffer, length, &returned);
        if (short_write) std::memcpy(static_cast<std::byte*>(buffer) + 8, saved + 8, length - 8);
        if (cls == static_cast<std::uint32_t>(event_trace_information_class::profile_source_list))
            s = corrupt_source_list(static_cast<std::byte*>(buffer), length, s, returned);
        else
            s = corrupt_fixed_reply(static_cast<std::byte*>(buffer), length, s, returned);
        if (return_length) *return_length = returned;
        return s;
    }

    std::int32_t nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) noexcept {
        return inner_.nt_set_interval_profile(interval, source);
    }
    std::int32_t nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) noexcept {
        return inner_.nt_query_interval_profile(source, interval);
    }

    std::int32_t nt_trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                                  std::uint32_t out_length, std::uint32_t* return_length) noexcept {
        std::uint32_t returned = 0;
        std::int32_t s = inner_.nt_trace_control(code, in, in_length, out, out_length, &returned);
        if (code == trace_control::get_disallow_list) s = corrupt_disallow_list(out, out_length, s, returned);
        if (return_length) *return_length = returned;
        return s;
    }

    std::uint32_t event_set_information(std::uint64_t reg, std::uint32_t c, void const* info, std::uint32_t length) noexcept {
        return inner_.event_set_information(reg, c, info, length);
    }

    bool available(kernel_function f) const noexcept { return inner_.available(f); }

private:
    static std::uint32_t next_of(std::byte const* rec) noexcept {
        std::uint32_t v;
        std::memcpy(&v, rec, 4);
        return v;
    }
    static void set_next(std::byte* rec, std::uint32_t v) noexcept { std::memcpy(rec, &v, 4); }

    /// Lies common to every reply: about its length, its status, or how much of it was written.
    std::int32_t corrupt_fixed_reply(std::byte* buffer, std::uint32_t length, std::int32_t s, std::uint32_t& returned) noexcept {
        switch (fault_) {
        case reply_fault::length_beyond_buffer:
            if (s >= 0) returned = length + 8;
            return s;
        case reply_fault::length_short:
            if (s >= 0 && returned > 0) returned -= returned > 4 ? 4 : returned;
            return s;
        case reply_fault::length_zero:
            returned = 0;
            return s;
        case reply_fault::success_short_data:
            // Only the first 8 bytes of the reply are the kernel's; what follows is left as it was.
            if (s >= 0 && returned > 8) returned = 8;
            return s;
        case reply_fault::too_small_needs_less:
            if (buffer && length >= 4) returned = length; // "too small", yet the buffer is what it "needs"
            return ntstatus::buffer_too_small;
        default:
            return s;
        }
    }

    std::int32_t corrupt_source_list(std::byte* buffer, std::uint32_t length, std::int32_t s, std::uint32_t& returned) noexcept {
        constexpr std::uint32_t head = kernel_profile_list_records_offset;
        if (fault_ == reply_fault::too_small_needs_less) {
            returned = length; // says "too small" and names the buffer's own size
            return ntstatus::info_length_mismatch;
        }
        if (s < 0 || buffer == nullptr || returned < head || returned > length) return corrupt_fixed_reply(buffer, length, s, returned);
        std::byte* const records = buffer + head;
        std::uint32_t const size = returned - head;
        // offsets of the first, second and last records of the (well-formed) chain the sim wrote
        std::uint32_t first = 0, second = 0, last = 0;
        std::uint32_t count = 0;
        if (size != 0) {
            for (std::uint32_t off = 0;; ++count) {
                if (count == 1) second = off;
                last = off;
                std::uint32_t const next = next_of(records + off);
                if (next == 0) break;
                off += next;
            }
            ++count;
        }
        if (count < 2 && fault_ >= reply_fault::chain_cycle && fault_ <= reply_fault::chain_links_to_nothing) return s;
        switch (fault_) {
        case reply_fault::success_short_data:
            // success, but the reply ends 10 bytes into the first record's description
            if (size != 0) returned = head + static_cast<std::uint32_t>(profile_source_info_description_offset) + 10;
            return s;
        case reply_fault::chain_cycle:
            set_next(records + second, first - second); // unsigned: wraps, back to the first
            return s;
        case reply_fault::chain_past_end:
            set_next(records + last, size - last + 8);
            return s;
        case reply_fault::chain_misaligned:
            set_next(records + first, next_of(records + first) + 2);
            return s;
        case reply_fault::chain_zero_length_record:
            set_next(records + first, 0x10); // shorter than a record's 0x18-byte head
            return s;
        case reply_fault::chain_zero_not_last:
            set_next(records + first, 0);
            return s;
        case reply_fault::chain_links_to_nothing:
            set_next(records + last, size - last);
            return s;
        case reply_fault::description_unterminated:
            if (size != 0)
                for (std::uint32_t p = last + static_cast<std::uint32_t>(profile_source_info_description_offset); p < size; ++p)
                    records[p] = std::byte{'A'};
            return s;
        default:
            return corrupt_fixed_reply(buffer, length, s, returned);
        }
    }

    std::int32_t corrupt_disallow_list(void* out, std::uint32_t out_length, std::int32_t s, std::uint32_t& returned) noexcept {
        switch (fault_) {
        case reply_fault::disallow_not_multiple_of_16:
            if (s >= 0) returned += 4;
            return s;
        case reply_fault::length_short:
            if (s >= 0 && returned >= 16) returned -= 16; // a shorter (still whole) list
            return s;
        case reply_fault::too_small_needs_less:
            returned = out_length;
            return ntstatus::buffer_too_small;
        default:
            return corrupt_fixed_reply(static_cast<std::byte*>(out), out_length, s, returned);
        }
    }

    kernel inner_;
    reply_fault fault_ = reply_fault::none;
};

static_assert(etwctl::kernel<hostile_kernel>);
static_assert(etwctl::kernel_with_availability<hostile_kernel>);

} // namespace sim
ETWCTL_END_NAMESPACE
