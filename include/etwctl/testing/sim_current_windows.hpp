// SPDX-License-Identifier: MIT
// etwctl/testing/sim_current_windows.hpp - the simulated kernel's model of the information classes later
// Windows releases added (TRACE_INFO_CLASS 16-28; request/layouts.hpp has the requests). It is a
// part of sim::kernel (testing/sim_kernel.hpp owns one and hands it these requests); on its own it
// keeps the per-logger state of the newer classes and answers their requests.
//
// What the kernel does (public decompiled listings of ntoskrnl's EtwSetPerformanceTraceInformation,
// EtwpEnableStackCaching, NtTraceControl and EtwpUpdatePeriodicCaptureState, Windows 10 / 11 builds;
// SDK evntrace.h comments). None of these classes checks the logger's system-logger mode: in that
// handler only group masks (0x01) and the pool-tag / object-type filters (0x0A / 0x11) do, so stack
// caching, LBR and context registers work on ordinary sessions (WPR's <StackCaching> on event collectors).
//  - stack caching (0x10) and unified stack caching (0x1A): exactly 0x20 bytes (else
//    STATUS_INFO_LENGTH_MISMATCH); Enabled = 0 -> STATUS_NOT_SUPPORTED, before the logger is looked up;
//    an unknown logger -> STATUS_WMI_INSTANCE_NOT_FOUND. One cache per logger: any second enable,
//    classic or unified, -> STATUS_WMI_ALREADY_ENABLED. CacheSize clamped to 3..50 MiB, BucketCount to
//    256..4096.
//  - LBR configuration (0x13): at least 0x18 bytes; options excluding both kernel and user ->
//    STATUS_INVALID_PARAMETER.
//  - LBR event list (0x14): a 0x10-byte head and whole ULONG hook ids (else STATUS_INVALID_PARAMETER);
//    more than 4 -> STATUS_INVALID_PARAMETER (model choice: the limit is SECHOST's wrapper's).
//  - context registers (0x1B): at least 0x14 bytes, whole ULONGs after them (else
//    STATUS_INVALID_PARAMETER); SeSystemProfilePrivilege checked before the logger; RegisterTypes must
//    be 3, at most 8 hooks (else STATUS_INVALID_PARAMETER).
//  - NtTraceControl 0x25 (periodic capture state): at least 12 bytes; ProviderCount > 16, a frequency of
//    1-4 s, providers with a frequency of 0 or a frequency without providers, or a length other than
//    12 + 16 x ProviderCount -> STATUS_INVALID_PARAMETER; an unknown logger -> STATUS_INVALID_PARAMETER
//    (EtwpUpdatePeriodicCaptureState); frequency 0 with no providers clears.
//  - NtTraceControl 0x29 (binary tracking), 0x2A (max loggers), 0x2B (max PMC counters), 0x2C (stream
//    count: input exactly 8 bytes), 0x2D (counter owners: needs SeSystemProfilePrivilege; buffer >= 8 +
//    12 x max counters), 0x2E (PMC sessions: the size needed is reported; hook ids are USHORTs in 4-byte
//    slots, upper halves zero).
// Model choices (no public source; docs/choices.md): an output shorter than 4 bytes ->
// STATUS_BUFFER_TOO_SMALL with the size needed; 8 processors, each logger emitting one stream per
// processor; counter owners: counters held outside ETW (set_external_owner, e.g. a hypervisor) first,
// then each logger's PMC counters (tagged-with-source, tag = logger id), the rest free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/request/encode.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace sim {

/// One counter's owner as the model reports it.
struct pmc_owner {
    pmc_owner_type type = pmc_owner_type::free;
    std::uint32_t source = 0;
    std::uint32_t tag = 0;
};

class current_windows_model {
public:
    static constexpr std::size_t slots = 65; ///< logger ids 0..63 and the NT Kernel Logger
    static constexpr std::uint32_t processors = 8;
    static constexpr std::size_t max_counters_modelled = 256; ///< machines with more than 16 counters exist

    struct stack_cache {
        bool enabled = false;
        std::uint32_t cache_size = 0;
        std::uint32_t bucket_count = 0;
    };
    struct logger {
        stack_cache classic{};
        stack_cache unified{};
        bool lbr_configured = false;
        std::uint32_t lbr_options = 0;
        std::uint32_t lbr_events[limits::max_lbr_events] = {};
        std::size_t lbr_event_count = 0;
        bool binary_tracking = false;
        std::uint32_t capture_frequency = 0;
        guid capture_providers[limits::max_periodic_capture_providers] = {};
        std::size_t capture_provider_count = 0;
        std::uint32_t context_register_types = 0;
        std::uint32_t context_hooks[limits::max_context_register_events] = {};
        std::size_t context_hook_count = 0;
    };

    // ---- the machine ----
    /// A counter held outside ETW (index < the machine's max counters); type free releases it.
    void set_external_owner(std::size_t counter, pmc_owner owner) noexcept {
        if (counter < max_counters_modelled) external_[counter] = owner;
    }
    std::size_t external_owner_count(std::uint32_t max_counters) const noexcept {
        std::size_t n = 0;
        for (std::size_t i = 0; i < max_counters && i < max_counters_modelled; ++i)
            n += external_[i].type != pmc_owner_type::free ? 1 : 0;
        return n;
    }

    // ---- inspection ----
    logger const& state(std::uint16_t id) const noexcept { return loggers_[slot(id)]; }
    void reset(std::uint16_t id) noexcept { loggers_[slot(id)] = logger{}; }

    // ---- SystemPerformanceTraceInformation classes (the sim has resolved the logger) ----
    static constexpr bool owns_system_class(std::uint32_t c) noexcept {
        return c == static_cast<std::uint32_t>(kernel_class::stack_caching) ||
               c == static_cast<std::uint32_t>(kernel_class::last_branch_configuration) ||
               c == static_cast<std::uint32_t>(kernel_class::last_branch_event_list) ||
               c == static_cast<std::uint32_t>(kernel_class::unified_stack_caching) ||
               c == static_cast<std::uint32_t>(kernel_class::context_register);
    }
    /// What the kernel checks before it looks the logger up: the request's shape, stack caching's
    /// Enabled, the context-register privilege (EtwSetPerformanceTraceInformation's order).
    static std::int32_t system_shape(std::uint32_t c, void const* buf, std::uint32_t length, bool privilege) noexcept {
        if (length < sizeof(kernel_request_header)) return ntstatus::info_length_mismatch;
        if (c == static_cast<std::uint32_t>(kernel_class::stack_caching) ||
            c == static_cast<std::uint32_t>(kernel_class::unified_stack_caching)) {
            if (length != sizeof(kernel_stack_caching_request)) return ntstatus::info_length_mismatch;
            return detail::load<kernel_stack_caching_request>(buf).enabled == 0 ? ntstatus::not_supported : ntstatus::success;
        }
        if (c == static_cast<std::uint32_t>(kernel_class::last_branch_configuration))
            return length >= sizeof(kernel_lbr_configuration_request) ? ntstatus::success : ntstatus::info_length_mismatch;
        if (c == static_cast<std::uint32_t>(kernel_class::context_register)) {
            if (length < context_hooks_at) return ntstatus::info_length_mismatch;
            if ((length - context_hooks_at) % 4 != 0) return ntstatus::invalid_parameter;
            return privilege ? ntstatus::success : ntstatus::privilege_not_held;
        }
        // last-branch event list
        return (length - sizeof(kernel_request_header)) % 4 != 0 ? ntstatus::invalid_parameter : ntstatus::success;
    }
    /// The request once the logger is known (system_shape passed).
    std::int32_t set_system(std::uint32_t c, void const* buf, std::uint32_t length, std::uint16_t logger_id) noexcept {
        auto const* p = static_cast<unsigned char const*>(buf);
        logger& l = loggers_[slot(logger_id)];
        if (c == static_cast<std::uint32_t>(kernel_class::stack_caching) ||
            c == static_cast<std::uint32_t>(kernel_class::unified_stack_caching)) {
            stack_cache& s = c == static_cast<std::uint32_t>(kernel_class::stack_caching) ? l.classic : l.unified;
            auto const r = detail::load<kernel_stack_caching_request>(p); // the length was checked: system_shape
            // one cache slot per logger (EtwpEnableStackCaching): classic then unified is a second enable
            if (l.classic.enabled || l.unified.enabled) return ntstatus::wmi_already_enabled;
            s.enabled = true;
            s.cache_size = clamp(r.cache_size, limits::stack_cache_min_bytes, limits::stack_cache_max_bytes);
            s.bucket_count = clamp(r.bucket_count, limits::stack_cache_min_buckets, limits::stack_cache_max_buckets);
            return ntstatus::success;
        }
        if (c == static_cast<std::uint32_t>(kernel_class::last_branch_configuration)) {
            std::uint32_t const options = detail::load<kernel_lbr_configuration_request>(p).options;
            if ((options & 3U) == 3U) return ntstatus::invalid_parameter;
            l.lbr_configured = true;
            l.lbr_options = options;
            return ntstatus::success;
        }
        if (c == static_cast<std::uint32_t>(kernel_class::context_register)) {
            if ((length - context_hooks_at) / 4 > limits::max_context_register_events) return ntstatus::invalid_parameter;
            if (load32(p, offsetof(kernel_context_register_request, register_types)) != context_registers::both)
                return ntstatus::invalid_parameter;
            l.context_register_types = context_registers::both;
            l.context_hook_count = (length - context_hooks_at) / 4;
            std::memcpy(l.context_hooks, p + context_hooks_at, 4 * l.context_hook_count);
            return ntstatus::success;
        }
        if ((length - sizeof(kernel_request_header)) / 4 > limits::max_lbr_events) return ntstatus::invalid_parameter;
        l.lbr_event_count = (length - sizeof(kernel_request_header)) / 4;
        std::memcpy(l.lbr_events, p + sizeof(kernel_request_header), 4 * l.lbr_event_count);
        return ntstatus::success;
    }

    // ---- NtTraceControl codes ----
    static constexpr bool owns_control(std::uint32_t code) noexcept {
        return code == trace_control::periodic_capture_state || code == trace_control::provider_binary_tracking ||
               code == trace_control::max_loggers || code == trace_control::max_pmc_counters ||
               code == trace_control::stream_count || code == trace_control::pmc_counter_owners ||
               code == trace_control::pmc_session_information;
    }

    /// Sim: the simulated kernel (logger_exists, privilege, max_loggers, max_pmc_counters, pmc_counters, pmc_events).
    template <class Sim>
    std::int32_t control(Sim const& k, std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                         std::uint32_t out_length, std::uint32_t* returned) noexcept {
        *returned = 0;
        auto const* p = static_cast<unsigned char const*>(in);
        switch (code) {
        case trace_control::periodic_capture_state: {
            using capture = kernel_periodic_capture_request<1>;
            constexpr std::uint32_t head = offsetof(capture, providers);
            if (in == nullptr || in_length < head) return ntstatus::invalid_parameter;
            // NtTraceControl's checks (its listing, in this order), then EtwpUpdatePeriodicCaptureState's
            auto const count = detail::load<std::uint16_t>(p, offsetof(capture, provider_count));
            if (count > limits::max_periodic_capture_providers) return ntstatus::invalid_parameter;
            std::uint32_t const frequency = load32(p, offsetof(capture, frequency_seconds));
            if (frequency != 0 && frequency < limits::min_periodic_capture_seconds) return ntstatus::invalid_parameter;
            if ((count != 0) != (frequency != 0)) return ntstatus::invalid_parameter; // providers need a frequency
            if (in_length != capture::length_for(count)) return ntstatus::invalid_parameter;
            auto const id = static_cast<std::uint16_t>(load32(p, offsetof(capture, logger_id)));
            if (!k.logger_exists(id)) return ntstatus::invalid_parameter; // not STATUS_WMI_INSTANCE_NOT_FOUND
            logger& l = loggers_[slot(id)];
            l.capture_frequency = frequency;
            l.capture_provider_count = count;
            std::memcpy(l.capture_providers, p + head, sizeof(guid) * count);
            return ntstatus::success;
        }
        case trace_control::provider_binary_tracking: {
            if (in == nullptr || in_length < sizeof(kernel_binary_tracking_request)) return ntstatus::invalid_parameter;
            auto const r = detail::load<kernel_binary_tracking_request>(p);
            auto const id = static_cast<std::uint16_t>(r.logger_id);
            if (!k.logger_exists(id)) return ntstatus::wmi_instance_not_found;
            loggers_[slot(id)].binary_tracking = r.enable != 0;
            return ntstatus::success;
        }
        case trace_control::max_loggers:
            return reply32(k.max_loggers(), out, out_length, returned); // the session model's limit
        case trace_control::max_pmc_counters:
            return reply32(k.max_pmc_counters(), out, out_length, returned);
        case trace_control::stream_count: {
            if (in == nullptr || in_length != sizeof(kernel_stream_count_request)) return ntstatus::invalid_parameter;
            std::uint16_t const id = detail::load<kernel_stream_count_request>(p).logger_id;
            if (!k.logger_exists(id)) return ntstatus::wmi_instance_not_found;
            return reply32(processors, out, out_length, returned);
        }
        case trace_control::pmc_counter_owners: {
            if (!k.privilege()) return ntstatus::privilege_not_held;
            std::uint32_t const max = k.max_pmc_counters();
            // 64-bit: 8 + 12 x max wrapped in 32 bits for a large max-counter setting and the model wrote
            // past a small buffer. A size no ULONG can state is refused (model choice).
            std::uint64_t const needed64 = pmc_owners_head_size + std::uint64_t{pmc_owner_record_size} * max;
            if (needed64 > 0xFFFFFFFFULL) return ntstatus::insufficient_resources;
            auto const needed = static_cast<std::uint32_t>(needed64);
            if (in == nullptr || in_length < 4) return ntstatus::invalid_parameter;
            if (load32(p, 0) >= processors) return ntstatus::invalid_parameter;
            *returned = needed;
            if (out == nullptr || out_length < needed) return ntstatus::buffer_too_small;
            pmc_owner owners[max_counters_modelled] = {};
            owners_of(k, max, owners);
            auto* o = static_cast<unsigned char*>(out);
            std::memset(o + 4, 0, needed - 4); // counters past those modelled are free (zero records)
            store32(o, 4, max);
            for (std::uint32_t i = 0; i < max && i < max_counters_modelled; ++i) {
                store32(o, 8 + 12 * i, static_cast<std::uint32_t>(owners[i].type));
                store32(o, 12 + 12 * i, owners[i].source);
                store32(o, 16 + 12 * i, owners[i].tag);
            }
            return ntstatus::success;
        }
        case trace_control::pmc_session_information: {
            std::uint32_t needed = 0;
            for_each_pmc_logger(k, [&](std::uint16_t, std::size_t sources, std::size_t hooks) {
                needed += static_cast<std::uint32_t>(pmc_session_head_size + 4 * sources + 4 * hooks);
            });
            *returned = needed;
            if (needed == 0) return ntstatus::success;
            if (out == nullptr || out_length < needed) return ntstatus::buffer_too_small;
            auto* o = static_cast<unsigned char*>(out);
            std::memset(o, 0, needed);
            std::uint32_t off = 0;
            std::uint32_t last = 0;
            for_each_pmc_logger(k, [&](std::uint16_t id, std::size_t sources, std::size_t hooks) {
                auto const size = static_cast<std::uint32_t>(pmc_session_head_size + 4 * sources + 4 * hooks);
                if (off != 0) store32(o, last, off - last); // link the previous record here
                last = off;
                std::uint16_t const logger_id = id;
                std::memcpy(o + off + 4, &logger_id, 2);
                store32(o, off + 8, static_cast<std::uint32_t>(sources));
                store32(o, off + 12, static_cast<std::uint32_t>(hooks));
                auto const src = k.pmc_counters(id);
                for (std::size_t i = 0; i < sources; ++i) store32(o, off + 16 + 4 * i, src[i]);
                auto const ev = k.pmc_events(id);
                for (std::size_t i = 0; i < hooks; ++i) {
                    auto const h = static_cast<std::uint16_t>(ev[i]);
                    std::memcpy(o + off + 16 + 4 * sources + 2 * i, &h, 2); // USHORTs; the rest stays zero
                }
                off += size;
            });
            return ntstatus::success;
        }
        default:
            return ntstatus::invalid_device_request;
        }
    }

    /// The owners of the machine's counters, in the model's order (see the top of this file).
    template <class Sim>
    void owners_of(Sim const& k, std::uint32_t max, pmc_owner (&owners)[max_counters_modelled]) const noexcept {
        std::size_t next = 0;
        for (std::size_t i = 0; i < max && i < max_counters_modelled; ++i) owners[i] = external_[i];
        for_each_pmc_logger(k, [&](std::uint16_t id, std::size_t sources, std::size_t) {
            auto const src = k.pmc_counters(id);
            for (std::size_t s = 0; s < sources; ++s) {
                while (next < max && next < max_counters_modelled && owners[next].type != pmc_owner_type::free) ++next;
                if (next >= max || next >= max_counters_modelled) return;
                owners[next] = {pmc_owner_type::tagged_with_source, src[s], id};
            }
        });
    }

private:
    static constexpr std::size_t slot(std::uint16_t id) noexcept {
        return id == limits::kernel_logger_id ? 64 : (id < 64 ? id : 64); // 0: no logger has it (its row stays unused)
    }
    static std::uint32_t load32(void const* p, std::size_t off) noexcept { return detail::load<std::uint32_t>(p, off); }
    static constexpr std::uint32_t context_hooks_at = offsetof(kernel_context_register_request, hooks);
    static void store32(void* p, std::size_t off, std::uint32_t v) noexcept { detail::store(p, off, v); }
    static constexpr std::uint32_t clamp(std::uint32_t v, std::uint32_t lo, std::uint32_t hi) noexcept {
        return v < lo ? lo : v > hi ? hi : v;
    }
    static std::int32_t reply32(std::uint32_t value, void* out, std::uint32_t out_length, std::uint32_t* returned) noexcept {
        *returned = 4;
        if (out == nullptr || out_length < 4) return ntstatus::buffer_too_small;
        store32(out, 0, value);
        return ntstatus::success;
    }
    /// Calls f(logger id, counters, events) for each started logger with a PMC counter list.
    template <class Sim, class F>
    static void for_each_pmc_logger(Sim const& k, F&& f) noexcept {
        auto visit = [&](std::uint16_t id) {
            if (!k.logger_exists(id)) return;
            auto const n = k.pmc_counters(id).size();
            if (n != 0) f(id, n, k.pmc_events(id).size());
        };
        for (std::uint16_t id = 1; id < 64; ++id) visit(id);
        visit(limits::kernel_logger_id);
    }

    logger loggers_[slots] = {};
    pmc_owner external_[max_counters_modelled] = {};
};

} // namespace sim
ETWCTL_END_NAMESPACE
