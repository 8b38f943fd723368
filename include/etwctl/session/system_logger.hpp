// SPDX-License-Identifier: MIT
// etwctl/session/system_logger.hpp - "a kernel session" for a profiler: a private system logger of its own
// where the Windows release has them, the NT Kernel Logger only where it must.
//
//   auto const name = etwctl::owned_session_name::of("profile", k.current_process_id()); // etwctl-profile-<pid>
//   auto config = etwctl::kernel_session(k, name).real_time().enable_flags(...);
//   auto s = etwctl::start_session(k, config, etwctl::if_exists::fail);
//   set<stack_tracing>(k, s->handle(), stack_walk<"SampledProfile">);    // the existing set<> calls
//
// Choice (kernel_session_choice):
//  - automatic: a private system logger (EVENT_TRACE_SYSTEM_LOGGER_MODE, Windows 8+; "Configuring and
//    Starting a SystemTraceProvider Session") named by the caller, so it never collides with another tool's
//    NT Kernel Logger (Tracy #771, PerfView #2298); the NT Kernel Logger on a Windows older than 8 (build
//    < 9200), which has no private system loggers. The build comes from the kernel when it offers
//    windows_build(); a kernel that does not is taken to be Windows 8 or later, every target etwctl supports.
//  - private_system_logger / nt_kernel_logger: that one, whatever the release.
// At most 8 system loggers run at once (the NT Kernel Logger and the Circular Kernel Context Logger among
// them): a 9th start is ERROR_NO_SYSTEM_RESOURCES, reported as such. "Already exists" (the NT Kernel
// Logger of another tool, or a leftover of a crashed run) is the caller's choice through start_session's
// if_exists: fail (default), attach, or stop_and_restart; nothing the program did not start is stopped
// unless it asked for exactly that.
#pragma once

#include <cstdint>

#include "etwctl/config.hpp"
#include "etwctl/session/config.hpp"
#include "etwctl/session/kernel_ref.hpp"
#include "etwctl/session/orphans.hpp"

ETWCTL_BEGIN_NAMESPACE

/// Which kernel session kernel_session() configures.
enum class kernel_session_choice : std::uint8_t {
    automatic,             ///< a private system logger on Windows 8+, else the NT Kernel Logger
    private_system_logger, ///< EVENT_TRACE_SYSTEM_LOGGER_MODE with the given name
    nt_kernel_logger,      ///< the NT Kernel Logger (the singleton)
};

/// The first Windows build with private system loggers (Windows 8, 6.2.9200).
inline constexpr std::uint32_t first_build_with_system_logger_mode = 9200;

/// Whether kernel_session(k, ..., automatic) chooses a private system logger on this kernel.
inline bool has_private_system_loggers(session_kernel_ref k) noexcept {
    std::uint32_t const build = k.windows_build();
    return build == 0 || build >= first_build_with_system_logger_mode;
}

/// The configuration of a kernel session (its destination, buffers and enable flags follow, as for any
/// session_config). `name` names the private system logger and must outlive the configuration; it is not
/// used for the NT Kernel Logger.
inline session_config kernel_session(session_kernel_ref k, owned_session_name const& name,
                                     kernel_session_choice choice = kernel_session_choice::automatic) noexcept {
    bool const private_logger = choice == kernel_session_choice::private_system_logger ||
                                (choice == kernel_session_choice::automatic && has_private_system_loggers(k));
    return private_logger ? session_config::system_logger(name.text()) : session_config::nt_kernel_logger();
}

ETWCTL_END_NAMESPACE
