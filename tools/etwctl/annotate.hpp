// --dry-run output: each recorded kernel request as hex rows with the meaning of each field, the way
// the kernel reads the buffer (EVENT_TRACE_* layouts of phnt ntwmi.h; see etwctl/request/layouts.hpp).
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
#include "etwctl/request/current_windows.hpp"
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

/// The set requests of the classes later releases added (request/current_windows.hpp,
/// request/custom_counters.hpp), field by field. False for any other request.
template <class Row>
bool annotate_newer_set(request const& r, annotated_request& a, Row const& row, source_namer const& source_name) {
    auto u32 = [&](std::size_t off) {
        std::uint32_t v = 0;
        if (off + 4 <= r.bytes.size()) std::memcpy(&v, r.bytes.data() + off, 4);
        return v;
    };
    auto u64 = [&](std::size_t off) {
        std::uint64_t v = 0;
        if (off + 8 <= r.bytes.size()) std::memcpy(&v, r.bytes.data() + off, 8);
        return v;
    };
    std::uint32_t const cls = u32(0);
    std::size_t const n = r.bytes.size();
    auto head = [&] {
        row(0, 8, std::string("class ") + hex(cls, 2) + " " + kernel_class_name(cls) + ", padding");
        row(8, 8, "TraceHandle " + logger_text(u64(8)));
    };
    switch (cls) {
    case 0x10:
    case 0x1A: // EVENT_TRACE_STACK_CACHING_INFORMATION
        if (n != sizeof(etwctl::kernel_stack_caching_request)) return false;
        head();
        row(0x10, 4, "Enabled " + std::to_string(u32(0x10) & 0xFFU) + ", 3 bytes padding");
        row(0x14, 4, "CacheSize " + std::to_string(u32(0x14)) + " (" + byte_size_text(u32(0x14)) + ")");
        row(0x18, 4, "BucketCount " + std::to_string(u32(0x18)));
        row(0x1C, 4, "reserved");
        return true;
    case 0x13: // last-branch configuration
        if (n != sizeof(etwctl::kernel_lbr_configuration_request)) return false;
        head();
        row(0x10, 4, "Options " + hex(u32(0x10), 8) + " " + lbr_options_text(u32(0x10)));
        row(0x14, 4, "reserved");
        return true;
    case 0x14: // last-branch event list
        if (n < 16 || (n - 16) % 4 != 0) return false;
        head();
        for (std::size_t off = 16, i = 0; off < n; off += 4, ++i) {
            auto const v = u32(off);
            auto const name = etwctl::kernel_event_name(etwctl::hook_id(static_cast<std::uint16_t>(v)));
            row(off, 4, "HookId[" + std::to_string(i) + "] " + hex(v, 4) + (name.empty() ? "" : " " + std::string(name)));
        }
        if (n == 16) a.rows.push_back({16, "", "(empty list)"});
        return true;
    case 0x15: { // EVENT_TRACE_PROFILE_ADD_INFORMATION
        using add = etwctl::kernel_profile_add_request;
        if (n != sizeof(add)) return false;
        row(0, 4, std::string("class ") + hex(cls, 2) + " " + kernel_class_name(cls));
        row(offsetof(add, version), 4, "Version " + std::to_string(u32(4) & 0xFFU) + ", 3 bytes padding");
        row(offsetof(add, counter), 8, "counter fields (the V2 / V3 union: EventSelect, UnitMask, ...)");
        row(offsetof(add, cpu_info_hierarchy), 12,
            "CpuInfoHierarchy " + hex(u32(0x10), 8) + " " + hex(u32(0x14), 8) + " " + hex(u32(0x18), 8) +
                (u32(0x10) == etwctl::profile_add_all_processors ? " (every processor)" : ""));
        row(offsetof(add, initial_interval), 4, "InitialInterval " + std::to_string(u32(0x1C)));
        row(offsetof(add, persist), 2, "Persist " + std::to_string(u32(0x20) & 0xFFU) + ", 1 byte padding");
        // The description: its characters and the NUL, 8 bytes a row; then the zero fill.
        std::string text;
        std::size_t off = offsetof(add, description);
        for (; off + 1 < n; off += 2) {
            auto const c = static_cast<unsigned>(std::to_integer<unsigned>(r.bytes[off]) |
                                                 (std::to_integer<unsigned>(r.bytes[off + 1]) << 8));
            if (c == 0) break;
            text += c < 0x80 ? static_cast<char>(c) : '?';
        }
        std::size_t const end = off + 2 < n ? off + 2 : n;
        for (std::size_t o = offsetof(add, description); o < end; o += 8)
            row(o, o + 8 <= end ? 8 : end - o,
                o == offsetof(add, description) ? "ProfileSourceDescription \"" + text + "\" (UTF-16, NUL-terminated)" : "");
        if (end < n) a.rows.push_back({end, "", "... " + std::to_string(n - end) + " bytes of zero fill"});
        return true;
    }
    case 0x16: { // EVENT_TRACE_PROFILE_REMOVE_INFORMATION
        if (n != sizeof(etwctl::kernel_profile_remove_request)) return false;
        row(0, 4, std::string("class ") + hex(cls, 2) + " " + kernel_class_name(cls));
        row(4, 4, "ProfileSource " + std::to_string(u32(4)) + " " + source_name(u32(4)));
        row(8, 12, "CpuInfoHierarchy " + hex(u32(8), 8) + " " + hex(u32(12), 8) + " " + hex(u32(16), 8) +
                       (u32(8) == etwctl::profile_add_all_processors ? " (every processor)" : ""));
        return true;
    }
    default:
        return false;
    }
}

inline annotated_request annotate(request const& r, source_namer const& source_name) {
    annotated_request a;
    a.state = r.sent ? "sent" : "not sent (dry run)";
    if (r.sent) a.status = status_text(r.status);
    auto u32 = [&](std::size_t off) {
        std::uint32_t v = 0;
        if (off + 4 <= r.bytes.size()) std::memcpy(&v, r.bytes.data() + off, 4);
        return v;
    };
    auto row = [&](std::size_t off, std::size_t n, std::string note) {
        std::string h;
        for (std::size_t i = off; i < off + n && i < r.bytes.size(); ++i)
            h += (i == off ? "" : " ") + hex_byte(std::to_integer<unsigned>(r.bytes[i]));
        a.rows.push_back({off, h, std::move(note)});
    };

    switch (r.function) {
    case etwctl::kernel_function::nt_set_interval_profile:
        a.call = "NtSetIntervalProfile(Interval=" + std::to_string(r.value) + ", Source=" + std::to_string(r.code) + " " +
                 source_name(r.code) + ")";
        return a;
    case etwctl::kernel_function::nt_query_interval_profile:
        a.call = "NtQueryIntervalProfile(Source=" + std::to_string(r.code) + " " + source_name(r.code) + ")";
        return a;
    case etwctl::kernel_function::nt_trace_control:
        if (r.code == etwctl::logger_query::control_code) {
            // WMI_LOGGER_INFORMATION: only the fields the query sets; LoggerName's buffer is an address.
            using info = etwctl::logger_query::wmi_logger_information;
            a.call = "NtTraceControl(0x03 EtwQueryLoggerCode, " + std::to_string(r.length) + " bytes in, " +
                     std::to_string(r.length) + " bytes out)";
            row(0, 4, "Wnode.BufferSize " + std::to_string(u32(0)));
            row(offsetof(info, wnode) + offsetof(etwctl::logger_query::wnode_header, flags), 4,
                "Wnode.Flags " + hex(u32(0x2C), 8) + " (WNODE_FLAG_TRACED_GUID)");
            row(offsetof(info, logger_name), 4, "LoggerName \"" + r.logger_name + "\" (Length, MaximumLength; Buffer follows)");
            return a;
        }
        a.call = "NtTraceControl(" + hex(r.code, 2) + ", " + std::to_string(r.length) + " bytes)";
        for (std::size_t off = 0; off < r.bytes.size(); off += 8) row(off, 8, "");
        return a;
    case etwctl::kernel_function::event_set_information:
        a.call = "EventSetInformation(class " + std::to_string(r.code) + ", " + std::to_string(r.length) + " bytes)";
        return a;
    default: break;
    }

    bool const query = r.function == etwctl::kernel_function::nt_query_system_information;
    a.call = std::string(query ? "NtQuerySystemInformation" : "NtSetSystemInformation") + "(" +
             (r.code == etwctl::system_performance_trace_information ? std::string("SystemPerformanceTraceInformation")
                                                                      : hex(r.code, 2)) +
             ", " + hex_min(r.length, 2) + " bytes)";
    if (r.bytes.size() < 4) return a;
    if (!query && annotate_newer_set(r, a, row, source_name)) return a;
    // The request layer reads the request (request/decode.hpp: the same reader the simulated kernel
    // and the tests use); this only words each field.
    etwctl::decoded_request const d =
        etwctl::decode_request(r.function, r.code, std::span<std::byte const>(r.bytes.data(), r.bytes.size()));
    std::uint32_t const cls = d.kernel_class;
    using etwctl::request_kind;
    if (d.kind == request_kind::interval || d.kind == request_kind::profile_source_list) {
        row(0, 4, std::string("class ") + hex(cls, 2) + " " + kernel_class_name(cls));
        if (d.kind == request_kind::interval)
            row(4, 4, query ? "ProfileInterval (output)"
                            : "ProfileInterval " + std::to_string(u32(4)) + " (" + describe_period(u32(4) ? u32(4) : 1) + ")");
        else row(4, 4, "Spare");
        if (query && r.length > 8) a.rows.push_back({8, "", "... " + std::to_string(r.length - 8) + " bytes of output buffer"});
        return a;
    }
    row(0, 8, std::string("class ") + hex(cls, 2) + " " + kernel_class_name(cls) + ", padding");
    row(8, 8, "TraceHandle " + logger_text(d.trace_handle));
    if (query) {
        if (r.length > 16) a.rows.push_back({16, "", "... " + std::to_string(r.length - 16) + " bytes of output buffer"});
        return a;
    }
    if (d.kind == request_kind::none) { // a class no layout describes: its bytes, 8 at a time
        for (std::size_t off = 16; off < r.bytes.size(); off += 8) row(off, 8, "");
        return a;
    }
    etwctl::group_mask m;
    etwctl::for_each_field(d, [&](etwctl::request_field const& f) {
        std::string const i = std::to_string(f.index);
        auto const v = static_cast<std::uint32_t>(f.value);
        switch (f.kind) {
        case etwctl::field_kind::mask:
            m.masks[f.index] = v;
            row(f.offset, 4, "Masks[" + i + "] " + hex(v, 8));
            break;
        case etwctl::field_kind::hook: {
            auto const name = etwctl::kernel_event_name(etwctl::hook_id(static_cast<std::uint16_t>(v)));
            row(f.offset, 4, "HookId[" + i + "] " + hex(v, 4) + (name.empty() ? "" : " " + std::string(name)));
            break;
        }
        case etwctl::field_kind::source:
            row(f.offset, 4, "ProfileSource[" + i + "] " + std::to_string(v) + " " + source_name(v));
            break;
        case etwctl::field_kind::flag:
            row(f.offset, 4, "Enabled " + std::to_string(v) + ", padding");
            break;
        case etwctl::field_kind::cache_size:
            row(f.offset, 4, "CacheSize " + std::to_string(v) + " bytes" +
                                 (v % (1024U * 1024U) == 0 ? " (" + std::to_string(v >> 20) + " MiB)" : std::string()));
            break;
        case etwctl::field_kind::bucket_count:
            row(f.offset, 4, "BucketCount " + std::to_string(v));
            break;
        case etwctl::field_kind::options:
            row(f.offset, 4, "LbrOptions " + hex(v, 8));
            break;
        case etwctl::field_kind::register_types:
            row(f.offset, 4, "RegisterTypes " + std::to_string(v) + (v == 3 ? " (control + integer)" : ""));
            break;
        case etwctl::field_kind::spare:
            if (f.offset >= 16 && f.size == 4) row(f.offset, 4, "padding");
            break;
        case etwctl::field_kind::unknown:
            for (std::size_t off = f.offset; off < f.offset + f.size; off += 8) row(off, 8, "");
            break;
        default:
            break;
        }
    });
    if (d.kind == request_kind::group_mask) {
        char text[512];
        std::size_t const n = etwctl::format_kernel_flags(m, text);
        a.rows.push_back({16, "", "= " + std::string(text, n < sizeof text ? n : sizeof text - 1)});
    }
    if (d.kind == request_kind::hook_list && r.bytes.size() == 16) a.rows.push_back({16, "", "(empty list)"});
    return a;
}

inline std::string format_text(annotated_request const& a, std::size_t index) {
    std::string o = "#" + std::to_string(index) + " " + a.call + "  [" + a.state + (a.status.empty() ? "" : ": " + a.status) + "]\n";
    for (auto const& r : a.rows) {
        std::string off = hex(r.offset, 4).substr(2);
        std::string h = r.hex;
        if (h.size() < 24) h.append(24 - h.size(), ' ');
        o += "    " + (r.hex.empty() ? std::string(4, ' ') : off) + "  " + h + "  " + r.note + "\n";
    }
    return o;
}

inline std::string format_json(annotated_request const& a, request const& r) {
    std::string bytes;
    for (auto b : r.bytes) bytes += hex_byte(std::to_integer<unsigned>(b));
    std::vector<std::string> rows;
    for (auto const& x : a.rows) rows.push_back(json_object().num("offset", x.offset).str("hex", x.hex).str("note", x.note).text());
    json_object o;
    o.str("call", a.call).boolean("sent", r.sent);
    if (r.sent) o.str("status", a.status);
    o.str("bytes", bytes).raw("fields", json_array(rows));
    return o.text();
}

} // namespace etwctl_tool
