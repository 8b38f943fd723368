// SPDX-License-Identifier: MIT
// etwctl/typed/outcome.hpp - what a typed call answers when it did not succeed: the broken rule
// (rule_category()), or the kernel's status (ntstatus_category()) with its context recorded for
// describe(ec) - what the status means for this class and what to do.
//
// "This Windows does not have the class" is part of the same model: a class a later release added
// (the class table's windows_10_later rows, 16-28) that the kernel answers with STATUS_NOT_IMPLEMENTED
// (a system class) or STATUS_INVALID_DEVICE_REQUEST (an NtTraceControl code) breaks
// rule::class_not_on_this_windows (ERROR_INVALID_FUNCTION, what TraceSetInformation returns for it),
// and describe(ec) names the class and the status the kernel gave.
#pragma once

#include <cstdint>
#include <system_error>

#include "etwctl/classes/info_classes.hpp"
#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/status_codes.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace detail {

/// Whether a status says the kernel lacks C's request: C is a class a later release added and the
/// kernel answered as a kernel without it does.
template <class C>
constexpr bool lacks_class(std::int32_t status) noexcept {
    if constexpr (requires { C::row; }) {
        return C::row.release == windows_release::windows_10_later &&
               (status == ntstatus::not_implemented || status == ntstatus::invalid_device_request);
    } else {
        return false;
    }
}

/// rule::class_not_on_this_windows with its context: the class and the kernel's status (cold).
template <class C>
ETWCTL_COLD std::error_code class_missing(std::int32_t status) noexcept {
    return fail(make_error_code<C>(rule::class_not_on_this_windows),
                "this Windows does not have {name} (the kernel answered {status}); a later Windows release added it",
                C::row.sdk_name, static_cast<std::uint32_t>(status));
}

/// The context of a kernel refusal of a typed set (or, with Query, a typed query): what the status means
/// for this class (cold). The session is not named (keeping it for this path would cost the successful
/// call a saved register); the caller knows which session it passed.
template <class C, bool Query = false>
ETWCTL_COLD std::error_code kernel_refused(std::int32_t status) noexcept {
    std::error_code const ec = ntstatus_error_code<C>(status);
    if constexpr (requires { C::row; }) {
        if (lacks_class<C>(status)) return class_missing<C>(status);
        constexpr request_kind kind = Query ? C::row.query.request : C::row.set.request;
        if (!Query && status == ntstatus::invalid_parameter &&
            (kind == request_kind::hook_list || kind == request_kind::group_mask))
            return fail(ec,
                        "the kernel refused set<{name}> for this session (STATUS_INVALID_PARAMETER): stack walk and "
                        "kernel flags need a system logger; start the session with EVENT_TRACE_SYSTEM_LOGGER_MODE (or use "
                        "the NT Kernel Logger)",
                        C::name);
        if (status == ntstatus::wmi_instance_not_found)
            return fail(ec,
                        Query ? "query<{name}>: no such session (stopped, or not a TRACEHANDLE from StartTrace)"
                              : "set<{name}>: no such session (stopped, or not a TRACEHANDLE from StartTrace)",
                        C::name);
        if (status == ntstatus::privilege_not_held)
            return fail(ec,
                        Query ? "query<{name}>: the kernel wants SeSystemProfilePrivilege: run elevated and enable it "
                                "(etwctl::enable_system_profile_privilege(k), etwctl/kernel/privilege.hpp)"
                              : "set<{name}>: the kernel wants SeSystemProfilePrivilege: run elevated and enable it "
                                "(etwctl::enable_system_profile_privilege(k), etwctl/kernel/privilege.hpp)",
                        C::name);
        if (!Query && status == ntstatus::wmi_already_enabled)
            return fail(ec, "set<{name}> can be applied once per session, and this session already has it", C::name);
    }
    return fail(ec, Query ? "the kernel refused query<{name}>: {status}" : "the kernel refused set<{name}>: {status}",
                C::name, static_cast<std::uint32_t>(status));
}

template <class C, bool Query = false, class... Args>
std::error_code to_error_code(outcome o, Args const&...) noexcept { // by value: a register, not memory
    if (o.ok()) [[likely]] return no_error<C>();
    if (o.broken != rule::ok) return failed(make_error_code<C>(o.broken)); // keeps the detail this call noted
    return kernel_refused<C, Query>(o.status); // only the status crosses to the cold path (a register)
}
template <class C, class... Args>
std::error_code to_error_code(std::error_code const& ec, Args const&...) noexcept {
    return ec;
}

/// The answer of a typed query: the broken rule, the missing class, or the kernel's status.
template <class C>
std::error_code query_error(outcome o) noexcept {
    if (o.ok()) [[likely]] return no_error<C>();
    if (o.broken != rule::ok) return failed(make_error_code<C>(o.broken));
    return kernel_refused<C, true>(o.status); // its refusals are described as query<C>, not set<C>
}

} // namespace detail
ETWCTL_END_NAMESPACE
