// SPDX-License-Identifier: MIT
// etwctl/sessions.hpp - the typed session API: configure, start, attach to, list, query, update, flush and
// stop ETW sessions, enable providers on them, kernel sessions and orphans (session/*.hpp). Light: no
// <vector>, <map> or iostreams (nor <string> beyond what the error model's categories need); no heap.
//
//   session/text.hpp           session_text: a name or path as char (UTF-8), char16_t or wchar_t text
//   session/config.hpp         session_config, buffer_size, file_size, ..., session_properties (the block)
//   session/kernel_ref.hpp     session_kernel_ref: any session kernel, type-erased
//   session/session.hpp        start_session, trace_session (owning), session_ref (not), attach, stop_report
//   session/providers.hpp      enable_provider, disable_provider, capture_state, enable_options (filters)
//   session/provider_name.hpp  provider_name<"Name">: an EventSource / TraceLogging name's GUID
//   session/list.hpp           list_sessions: every session of the machine, into the caller's storage
//   session/orphans.hpp        owned_session_name (etwctl-<prefix>-<pid>), stop_orphans
//   session/system_logger.hpp  kernel_session: a private system logger, or the NT Kernel Logger
// On Windows also the calls without the kernel argument (native_kernel::instance()).
#pragma once

#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/session/text.hpp"
#include "etwctl/session/config.hpp"
#include "etwctl/session/kernel_ref.hpp"
#include "etwctl/session/session.hpp"
#include "etwctl/session/providers.hpp"
#include "etwctl/session/provider_name.hpp"
#include "etwctl/session/list.hpp"
#include "etwctl/session/orphans.hpp"
#include "etwctl/session/system_logger.hpp"

#if defined(_WIN32)
#include "etwctl/kernel/native.hpp"

ETWCTL_BEGIN_NAMESPACE
// Windows: the same calls without the kernel argument (native_kernel::instance()).
[[nodiscard]] inline result<trace_session> start_session(session_config const& config, if_exists policy = if_exists::fail) noexcept {
    return start_session(native_kernel::instance(), config, policy);
}
[[nodiscard]] inline result<session_ref> attach_session(session_text name) noexcept {
    return attach_session(native_kernel::instance(), name);
}
[[nodiscard]] inline stop_report stop_session(session_text name) noexcept { return stop_session(native_kernel::instance(), name); }
[[nodiscard]] inline result<session_list> list_sessions(session_list_storage storage) noexcept {
    return list_sessions(native_kernel::instance(), storage);
}
[[nodiscard]] inline orphan_report stop_orphans(std::string_view prefix, session_list_storage storage) noexcept {
    return stop_orphans(native_kernel::instance(), prefix, storage);
}
inline session_config kernel_session(owned_session_name const& name,
                                     kernel_session_choice choice = kernel_session_choice::automatic) noexcept {
    return kernel_session(native_kernel::instance(), name, choice);
}

ETWCTL_END_NAMESPACE
#endif
