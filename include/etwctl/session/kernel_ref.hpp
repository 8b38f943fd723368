// SPDX-License-Identifier: MIT
// etwctl/session/kernel_ref.hpp - a reference to any session kernel (kernel/session_concept.hpp), with the
// kernel's type erased: two pointers, copied freely. The typed session API takes one, so its objects are
// plain classes (trace_session, session_ref): a trace_session is held as a member or in a std::optional
// without naming the kernel's type, and passing native_kernel::instance(), a sim::kernel or your own double
// converts implicitly.
//
// The cost is one indirect call per session call (StartTrace and friends are system calls: the difference
// does not show). The referenced kernel must outlive every object that holds the reference.
#pragma once

#include <cstdint>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/session_concept.hpp"

ETWCTL_BEGIN_NAMESPACE

class session_kernel_ref {
public:
    /// No kernel: every call returns ERROR_INVALID_HANDLE (what an empty session object holds).
    constexpr session_kernel_ref() noexcept = default;
    template <session_kernel K>
        requires(!std::is_same_v<std::remove_cv_t<K>, session_kernel_ref>)
    constexpr session_kernel_ref(K& k) noexcept // NOLINT(google-explicit-constructor): a reference to any kernel
        : object_(&k), calls_(&table_for<K>) {}

    std::uint32_t start_trace_w(std::uint64_t* handle, wide_char const* name, void* props) const noexcept {
        return calls_ ? calls_->start(object_, handle, name, props) : invalid;
    }
    std::uint32_t control_trace_w(std::uint64_t handle, wide_char const* name, void* props, std::uint32_t code) const noexcept {
        return calls_ ? calls_->control(object_, handle, name, props, code) : invalid;
    }
    std::uint32_t query_all_traces_w(void** array, std::uint32_t count, std::uint32_t* sessions) const noexcept {
        return calls_ ? calls_->query_all(object_, array, count, sessions) : invalid;
    }
    std::uint32_t enable_trace_ex2(std::uint64_t handle, guid const* provider, std::uint32_t code, std::uint8_t level,
                                   std::uint64_t any, std::uint64_t all, std::uint32_t timeout, void const* params) const noexcept {
        return calls_ ? calls_->enable(object_, handle, provider, code, level, any, all, timeout, params) : invalid;
    }

    /// Whether the kernel knows processes (orphan_session_kernel): this process's id, another's liveness.
    bool knows_processes() const noexcept { return calls_ != nullptr && calls_->current_pid != nullptr; }
    /// This process's id (0 when the kernel does not know processes).
    std::uint32_t current_process_id() const noexcept { return knows_processes() ? calls_->current_pid(object_) : 0; }
    /// Whether process `pid` runs (true when the kernel does not know processes: nothing is an orphan then).
    bool process_alive(std::uint32_t pid) const noexcept { return knows_processes() ? calls_->alive(object_, pid) : true; }

    /// The Windows build the kernel reports, when it offers `windows_build()` (else 0: unknown).
    std::uint32_t windows_build() const noexcept { return calls_ != nullptr && calls_->build != nullptr ? calls_->build(object_) : 0; }

private:
    struct calls {
        std::uint32_t (*start)(void*, std::uint64_t*, wide_char const*, void*) noexcept;
        std::uint32_t (*control)(void*, std::uint64_t, wide_char const*, void*, std::uint32_t) noexcept;
        std::uint32_t (*query_all)(void*, void**, std::uint32_t, std::uint32_t*) noexcept;
        std::uint32_t (*enable)(void*, std::uint64_t, guid const*, std::uint32_t, std::uint8_t, std::uint64_t,
                                std::uint64_t, std::uint32_t, void const*) noexcept;
        std::uint32_t (*current_pid)(void*) noexcept;
        bool (*alive)(void*, std::uint32_t) noexcept;
        std::uint32_t (*build)(void*) noexcept;
    };

    template <class K>
    static constexpr calls make_calls() noexcept {
        calls c{};
        c.start = [](void* o, std::uint64_t* h, wide_char const* n, void* p) noexcept {
            return static_cast<K*>(o)->start_trace_w(h, n, p);
        };
        c.control = [](void* o, std::uint64_t h, wide_char const* n, void* p, std::uint32_t code) noexcept {
            return static_cast<K*>(o)->control_trace_w(h, n, p, code);
        };
        c.query_all = [](void* o, void** a, std::uint32_t n, std::uint32_t* s) noexcept {
            return static_cast<K*>(o)->query_all_traces_w(a, n, s);
        };
        c.enable = [](void* o, std::uint64_t h, guid const* g, std::uint32_t code, std::uint8_t level, std::uint64_t any,
                      std::uint64_t all, std::uint32_t timeout, void const* params) noexcept {
            return static_cast<K*>(o)->enable_trace_ex2(h, g, code, level, any, all, timeout, params);
        };
        if constexpr (orphan_session_kernel<K>) {
            c.current_pid = [](void* o) noexcept { return static_cast<K*>(o)->current_process_id(); };
            c.alive = [](void* o, std::uint32_t pid) noexcept { return static_cast<K*>(o)->process_alive(pid); };
        }
        if constexpr (requires(K& k) { { k.windows_build() } -> std::same_as<std::uint32_t>; })
            c.build = [](void* o) noexcept { return static_cast<K*>(o)->windows_build(); };
        return c;
    }
    template <class K>
    static constexpr calls table_for = make_calls<K>();

    static constexpr std::uint32_t invalid = 6; // ERROR_INVALID_HANDLE
    void* object_ = nullptr;
    calls const* calls_ = nullptr;
};

ETWCTL_END_NAMESPACE
