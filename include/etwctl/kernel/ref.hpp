// SPDX-License-Identifier: MIT
// etwctl/kernel/ref.hpp - etwctl::kernel_ref: any kernel behind one type.
//
//   etwctl::kernel_ref k = my_kernel;              // a native_kernel, a sim::kernel, your own double
//   etwctl::set<etwctl::stack_tracing>(k, session, etwctl::stack_walk<"CSwitch">);
//
// A non-owning reference that erases the kernel's type: a pointer to the kernel and a pointer to a
// constant table of the six calls (and the optional extensions: available(), privilege enabling). It
// satisfies the kernel concept, so every etwctl function takes it; what it buys is one type for code
// that must not be a template on the kernel: a guard held as a member or in a std::optional
// (interval_guard is basic_interval_guard<kernel_ref>), a command compiled once for every kernel.
// Each call through it is one indirect call more than through the kernel itself (docs/performance.md
// measures it); the typed calls on a concrete kernel are unchanged. The kernel must outlive the
// reference. A default-constructed kernel_ref refers to no kernel: every call answers
// STATUS_INVALID_HANDLE (ERROR_INVALID_HANDLE from EventSetInformation) and valid() is false.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/status_codes.hpp"

ETWCTL_BEGIN_NAMESPACE

class kernel_ref {
    struct table {
        std::int32_t (*set_system_information)(void*, std::uint32_t, void const*, std::uint32_t) noexcept;
        std::int32_t (*query_system_information)(void*, std::uint32_t, void*, std::uint32_t, std::uint32_t*) noexcept;
        std::int32_t (*set_interval_profile)(void*, std::uint32_t, std::uint32_t) noexcept;
        std::int32_t (*query_interval_profile)(void*, std::uint32_t, std::uint32_t*) noexcept;
        std::int32_t (*trace_control)(void*, std::uint32_t, void const*, std::uint32_t, void*, std::uint32_t,
                                      std::uint32_t*) noexcept;
        std::uint32_t (*event_set_information)(void*, std::uint64_t, std::uint32_t, void const*, std::uint32_t) noexcept;
        bool (*available)(void const*, kernel_function) noexcept;
        std::uint32_t (*enable_system_profile_privilege)(void*) noexcept;
    };

    template <class K>
    static constexpr table table_for{
        [](void* k, std::uint32_t c, void const* b, std::uint32_t n) noexcept {
            return static_cast<K*>(k)->nt_set_system_information(c, b, n);
        },
        [](void* k, std::uint32_t c, void* b, std::uint32_t n, std::uint32_t* r) noexcept {
            return static_cast<K*>(k)->nt_query_system_information(c, b, n, r);
        },
        [](void* k, std::uint32_t interval, std::uint32_t source) noexcept {
            return static_cast<K*>(k)->nt_set_interval_profile(interval, source);
        },
        [](void* k, std::uint32_t source, std::uint32_t* interval) noexcept {
            return static_cast<K*>(k)->nt_query_interval_profile(source, interval);
        },
        [](void* k, std::uint32_t code, void const* in, std::uint32_t in_length, void* out, std::uint32_t out_length,
           std::uint32_t* r) noexcept {
            return static_cast<K*>(k)->nt_trace_control(code, in, in_length, out, out_length, r);
        },
        [](void* k, std::uint64_t reg, std::uint32_t c, void const* info, std::uint32_t n) noexcept {
            return static_cast<K*>(k)->event_set_information(reg, c, info, n);
        },
        [](void const* k, kernel_function f) noexcept { return is_available(*static_cast<K const*>(k), f); },
        [](void* k) noexcept -> std::uint32_t {
            if constexpr (kernel_with_privileges<K>) return static_cast<K*>(k)->enable_system_profile_privilege();
            else return win32::not_supported; // this kernel has no way to enable a privilege
        },
    };

    static constexpr table no_kernel{
        [](void*, std::uint32_t, void const*, std::uint32_t) noexcept { return ntstatus::invalid_handle; },
        [](void*, std::uint32_t, void*, std::uint32_t, std::uint32_t*) noexcept { return ntstatus::invalid_handle; },
        [](void*, std::uint32_t, std::uint32_t) noexcept { return ntstatus::invalid_handle; },
        [](void*, std::uint32_t, std::uint32_t*) noexcept { return ntstatus::invalid_handle; },
        [](void*, std::uint32_t, void const*, std::uint32_t, void*, std::uint32_t, std::uint32_t*) noexcept {
            return ntstatus::invalid_handle;
        },
        [](void*, std::uint64_t, std::uint32_t, void const*, std::uint32_t) noexcept { return win32::invalid_handle; },
        [](void const*, kernel_function) noexcept { return false; },
        [](void*) noexcept -> std::uint32_t { return win32::invalid_handle; },
    };

public:
    /// Refers to no kernel (valid() is false; every call answers STATUS_INVALID_HANDLE).
    constexpr kernel_ref() noexcept = default;
    /// Refers to k (implicit: pass any kernel where a kernel_ref is wanted). k must outlive the reference.
    template <kernel K>
        requires(!std::same_as<std::remove_cv_t<K>, kernel_ref>)
    constexpr kernel_ref(K& k) noexcept : object_(&k), table_(&table_for<K>) {} // NOLINT: implicit by design

    /// Whether it refers to a kernel.
    constexpr bool valid() const noexcept { return table_ != &no_kernel; }
    /// Whether both refer to the same kernel object.
    friend constexpr bool operator==(kernel_ref a, kernel_ref b) noexcept { return a.object_ == b.object_; }

    std::int32_t nt_set_system_information(std::uint32_t c, void const* buffer, std::uint32_t length) const noexcept {
        return table_->set_system_information(object_, c, buffer, length);
    }
    std::int32_t nt_query_system_information(std::uint32_t c, void* buffer, std::uint32_t length,
                                             std::uint32_t* return_length) const noexcept {
        return table_->query_system_information(object_, c, buffer, length, return_length);
    }
    std::int32_t nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) const noexcept {
        return table_->set_interval_profile(object_, interval, source);
    }
    std::int32_t nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) const noexcept {
        return table_->query_interval_profile(object_, source, interval);
    }
    std::int32_t nt_trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                                  std::uint32_t out_length, std::uint32_t* return_length) const noexcept {
        return table_->trace_control(object_, code, in, in_length, out, out_length, return_length);
    }
    std::uint32_t event_set_information(std::uint64_t reg, std::uint32_t c, void const* info, std::uint32_t length) const noexcept {
        return table_->event_set_information(object_, reg, c, info, length);
    }
    /// The referred kernel's available() (true where it has none).
    bool available(kernel_function f) const noexcept { return table_->available(object_, f); }
    /// The referred kernel's enable_system_profile_privilege(), or ERROR_NOT_SUPPORTED where it has none.
    std::uint32_t enable_system_profile_privilege() const noexcept { return table_->enable_system_profile_privilege(object_); }

private:
    void* object_ = nullptr;
    table const* table_ = &no_kernel;
};

static_assert(kernel<kernel_ref> && kernel<kernel_ref const>);
static_assert(kernel_with_availability<kernel_ref> && kernel_with_privileges<kernel_ref>);
static_assert(std::is_trivially_copyable_v<kernel_ref>);

ETWCTL_END_NAMESPACE
