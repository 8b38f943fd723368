// The etwctl tool's words for kernel requests: the annotated row types and the names of kernel classes,
// LBR options, sizes, statuses and loggers (annotate.hpp and annotate_custom.hpp use them).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/group_mask.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/request/decode.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/request/encode.hpp"
#include "etwctl/request/custom_counters.hpp"
#include "etwctl/request/logger_query.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/error.hpp"

#include "recording_kernel.hpp"
#include "text.hpp"

namespace etwctl_tool {

/// Names profile sources for annotations (from the machine's list when the tool has read it).
using source_namer = std::function<std::string(std::uint32_t)>;

struct annotated_row {
    std::size_t offset;
    std::string hex;    ///< the bytes, space-separated
    std::string note;
};

struct annotated_request {
    std::string call;   ///< e.g. NtSetSystemInformation(SystemPerformanceTraceInformation, 0x18 bytes)
    std::string state;  ///< "sent", "not sent (dry run)"
    std::string status; ///< the status name, for sent requests
    std::vector<annotated_row> rows;
};

inline char const* kernel_class_name(std::uint32_t c) {
    using etwctl::event_trace_information_class;
    switch (static_cast<event_trace_information_class>(c)) {
    case event_trace_information_class::kernel_version: return "EventTraceKernelVersionInformation";
    case event_trace_information_class::group_mask: return "EventTraceGroupMaskInformation";
    case event_trace_information_class::time_profile: return "EventTraceTimeProfileInformation";
    case event_trace_information_class::stack_tracing: return "EventTraceStackTracingInformation";
    case event_trace_information_class::profile_config: return "EventTraceProfileConfigInformation";
    case event_trace_information_class::profile_source_list: return "EventTraceProfileSourceListInformation";
    case event_trace_information_class::profile_event_list: return "EventTraceProfileEventListInformation";
    case event_trace_information_class::profile_counter_list: return "EventTraceProfileCounterListInformation";
    default: break;
    }
    switch (c) { // the classes of later releases (phnt ntexapi.h EVENT_TRACE_INFORMATION_CLASS)
    case 0x10: return "EventTraceStackCachingInformation";
    case 0x13: return "EventTraceLastBranchConfigurationInformation";
    case 0x14: return "EventTraceLastBranchEventListInformation";
    case 0x15: return "EventTraceProfileSourceAddInformation";
    case 0x16: return "EventTraceProfileSourceRemoveInformation";
    case 0x1A: return "EventTraceUnifiedStackCachingInformation";
    case 0x1B: return "EventTraceContextRegisterTraceInformation";
    default: return "EVENT_TRACE_INFORMATION_CLASS";
    }
}

/// TRACE_LBR_CONFIGURATION option names as `etwctl lbr --options` takes them, in bit order.
struct lbr_option_name {
    std::string_view name;
    std::uint32_t bit;
};
inline constexpr lbr_option_name lbr_option_names[] = {
    {"exclude-kernel", etwctl::lbr::exclude_kernel},
    {"exclude-user", etwctl::lbr::exclude_user},
    {"exclude-jcc", etwctl::lbr::exclude_jcc},
    {"exclude-near-rel-call", etwctl::lbr::exclude_near_rel_call},
    {"exclude-near-ind-call", etwctl::lbr::exclude_near_ind_call},
    {"exclude-near-ret", etwctl::lbr::exclude_near_ret},
    {"exclude-near-ind-jmp", etwctl::lbr::exclude_near_ind_jmp},
    {"exclude-near-rel-jmp", etwctl::lbr::exclude_near_rel_jmp},
    {"exclude-far-branch", etwctl::lbr::exclude_far_branch},
    {"callstack", etwctl::lbr::callstack_enable},
    {"sampled", etwctl::lbr::sampled},
};

/// "exclude-kernel+callstack" ("none" for 0; unknown bits as 0x...).
inline std::string lbr_options_text(std::uint32_t flags) {
    std::string t;
    std::uint32_t rest = flags;
    for (auto const& o : lbr_option_names)
        if (flags & o.bit) {
            t += (t.empty() ? "" : "+") + std::string(o.name);
            rest &= ~o.bit;
        }
    if (rest) t += (t.empty() ? "" : "+") + hex(rest, 8);
    return t.empty() ? std::string("none") : t;
}

/// "16 MiB" for whole mebibytes / kibibytes, else "N bytes".
inline std::string byte_size_text(std::uint64_t bytes) {
    if (bytes != 0 && bytes % (1024 * 1024) == 0) return std::to_string(bytes / (1024 * 1024)) + " MiB";
    if (bytes != 0 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
    return std::to_string(bytes) + " bytes";
}

inline std::string status_text(std::int32_t s) {
    if (char const* n = etwctl::ntstatus::name(s)) return n;
    return hex(static_cast<std::uint32_t>(s), 8);
}

inline std::string logger_text(std::uint64_t handle) {
    auto const id = static_cast<std::uint16_t>(handle & 0xFFFFU);
    return hex(handle, 16) + (id == 0xFFFF ? " (logger 0xFFFF, NT Kernel Logger)" : " (logger " + std::to_string(id) + ")");
}

} // namespace etwctl_tool
