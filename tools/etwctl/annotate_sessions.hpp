// The etwctl tool's wording of the session calls (StartTraceW, ControlTraceW, QueryAllTracesW,
// EnableTraceEx2) for --dry-run / --trace: the properties block field by field (EVENT_TRACE_PROPERTIES,
// _V2 and the names after it, session/layouts.hpp), and the JSON members of each call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "etwctl/session/layouts.hpp"
#include "etwctl/status_codes.hpp"

#include "annotate_words.hpp"
#include "recording_kernel.hpp"
#include "text.hpp"

namespace etwctl_tool {

inline std::string guid_text(etwctl::guid const& g) {
    char t[37];
    g.format(t);
    return std::string("{") + t + "}";
}

inline char const* control_code_name(std::uint32_t c) {
    switch (c) {
    case 0: return "EVENT_TRACE_CONTROL_QUERY";
    case 1: return "EVENT_TRACE_CONTROL_STOP";
    case 2: return "EVENT_TRACE_CONTROL_UPDATE";
    case 3: return "EVENT_TRACE_CONTROL_FLUSH";
    case 4: return "EVENT_TRACE_CONTROL_INCREMENT_FILE";
    case 5: return "EVENT_TRACE_CONTROL_CONVERT_TO_REALTIME";
    default: return "ControlCode";
    }
}

inline char const* enable_code_name(std::uint32_t c) {
    switch (c) {
    case 0: return "EVENT_CONTROL_CODE_DISABLE_PROVIDER";
    case 1: return "EVENT_CONTROL_CODE_ENABLE_PROVIDER";
    case 2: return "EVENT_CONTROL_CODE_CAPTURE_STATE";
    default: return "ControlCode";
    }
}

/// "EVENT_TRACE_FILE_MODE_SEQUENTIAL|EVENT_TRACE_SYSTEM_LOGGER_MODE" ("EVENT_TRACE_FILE_MODE_NONE" for 0).
inline std::string log_file_mode_text(std::uint32_t mode) {
    std::string t;
    for (std::uint32_t bit = 1; bit != 0; bit <<= 1)
        if (mode & bit) {
            auto const n = etwctl::log_file_mode_name(bit);
            t += (t.empty() ? "" : "|") + (n.empty() ? hex(bit, 8) : std::string(n));
        }
    return t.empty() ? std::string("EVENT_TRACE_FILE_MODE_NONE") : t;
}

inline std::string enable_property_text(std::uint32_t p) {
    static constexpr std::pair<std::uint32_t, char const*> names[] = {
        {etwctl::enable_property::sid, "SID"}, {etwctl::enable_property::ts_id, "TS_ID"},
        {etwctl::enable_property::stack_trace, "STACK_TRACE"}, {etwctl::enable_property::psm_key, "PSM_KEY"},
        {etwctl::enable_property::ignore_keyword_0, "IGNORE_KEYWORD_0"}, {etwctl::enable_property::provider_group, "PROVIDER_GROUP"},
        {etwctl::enable_property::enable_keyword_0, "ENABLE_KEYWORD_0"}, {etwctl::enable_property::process_start_key, "PROCESS_START_KEY"},
        {etwctl::enable_property::event_key, "EVENT_KEY"}, {etwctl::enable_property::exclude_inprivate, "EXCLUDE_INPRIVATE"}};
    std::string t;
    std::uint32_t rest = p;
    for (auto const& [bit, name] : names)
        if (p & bit) t += (t.empty() ? "" : "|") + std::string(name), rest &= ~bit;
    if (rest) t += (t.empty() ? "" : "|") + hex(rest, 8);
    return t.empty() ? std::string("none") : t;
}

inline std::string clock_text(std::uint32_t c) {
    switch (c) {
    case 0: return "0 (default: QPC)";
    case 1: return "1 QPC (PerfCounter)";
    case 2: return "2 system time";
    case 3: return "3 CPU cycle counter";
    default: return std::to_string(c);
    }
}

inline std::string win32_status_text(std::int32_t s) {
    auto const w = static_cast<std::uint32_t>(s);
    char const* n = etwctl::win32::name(w);
    return n ? std::string(n) : "Win32 " + std::to_string(w);
}

/// The name at `offset` in a recorded properties block (UTF-16, up to the NUL or the block's end).
inline std::string name_in_block(request const& r, std::uint32_t offset, std::size_t* units = nullptr) {
    std::string o;
    std::size_t n = 0;
    if (offset != 0 && offset < r.bytes.size()) {
        std::vector<etwctl::wide_char> w((r.bytes.size() - offset) / 2 + 1, 0);
        std::memcpy(w.data(), r.bytes.data() + offset, (r.bytes.size() - offset) / 2 * 2);
        while (w[n]) ++n;
        o = utf8_of(w.data(), w.size());
    }
    if (units) *units = n;
    return o;
}

/// The session the call is about: its name argument (or the name an earlier call gave its handle), else
/// the name in its block.
inline std::string session_of(request const& r) {
    if (!r.session.session.empty()) return r.session.session;
    if (r.bytes.size() >= sizeof(etwctl::event_trace_properties)) {
        std::uint32_t off = 0;
        std::memcpy(&off, r.bytes.data() + offsetof(etwctl::event_trace_properties, logger_name_offset), 4);
        if (auto n = name_in_block(r, off); !n.empty()) return n;
    }
    return {};
}

/// The handle as the tool prints it: the logger id, the NT Kernel Logger, or a dry run's placeholder.
inline std::string session_handle_text(std::uint64_t h) {
    if (h != 0 && (h & 0xFFFFU) == 0) return hex(h, 16) + " (dry run: the handle StartTraceW would return)";
    return logger_text(h);
}

/// A properties block (EVENT_TRACE_PROPERTIES or _V2, then the names), field by field.
inline void annotate_properties(request const& r, annotated_request& a) {
    using p1 = etwctl::event_trace_properties;
    using p2 = etwctl::event_trace_properties_v2;
    auto const& b = r.bytes;
    auto u32 = [&](std::size_t off) {
        std::uint32_t v = 0;
        if (off + 4 <= b.size()) std::memcpy(&v, b.data() + off, 4);
        return v;
    };
    auto u64 = [&](std::size_t off) {
        std::uint64_t v = 0;
        if (off + 8 <= b.size()) std::memcpy(&v, b.data() + off, 8);
        return v;
    };
    auto row = [&](std::size_t off, std::size_t n, std::string note) {
        std::string h;
        for (std::size_t i = off; i < off + n && i < b.size(); ++i) h += (i == off ? "" : " ") + hex_byte(std::to_integer<unsigned>(b[i]));
        a.rows.push_back({off, h, std::move(note)});
    };
    if (b.size() < sizeof(p1)) {
        for (std::size_t off = 0; off < b.size(); off += 8) row(off, 8, off == 0 ? "Wnode.BufferSize " + std::to_string(u32(0)) + " (shorter than EVENT_TRACE_PROPERTIES)" : "");
        return;
    }
    constexpr std::size_t wn = offsetof(p1, wnode);
    std::uint32_t const flags = u32(wn + offsetof(etwctl::wnode_header, flags));
    bool const v2 = (flags & etwctl::wnode_flag::versioned_properties) != 0 && b.size() >= sizeof(p2);
    row(0, 4, "Wnode.BufferSize " + std::to_string(u32(0)) + (u32(0) == b.size() ? " (the whole block)" : ""));
    row(wn + offsetof(etwctl::wnode_header, historical_context), 8,
        "Wnode.HistoricalContext " + hex(u64(wn + offsetof(etwctl::wnode_header, historical_context)), 16));
    etwctl::guid g;
    std::memcpy(&g, b.data() + wn + offsetof(etwctl::wnode_header, guid), sizeof g);
    std::string gname = g == etwctl::guid{} ? " (none: ETW makes one)"
                        : g == etwctl::session_guids::system_trace_control ? " SystemTraceControlGuid"
                                                                            : "";
    row(wn + offsetof(etwctl::wnode_header, guid), 16, "Wnode.Guid " + guid_text(g) + gname);
    row(wn + offsetof(etwctl::wnode_header, client_context), 4,
        "Wnode.ClientContext " + clock_text(u32(wn + offsetof(etwctl::wnode_header, client_context))));
    std::string fl;
    if (flags & etwctl::wnode_flag::traced_guid) fl += "WNODE_FLAG_TRACED_GUID";
    if (flags & etwctl::wnode_flag::versioned_properties) fl += std::string(fl.empty() ? "" : "|") + "WNODE_FLAG_VERSIONED_PROPERTIES";
    row(wn + offsetof(etwctl::wnode_header, flags), 4, "Wnode.Flags " + hex(flags, 8) + (fl.empty() ? "" : " (" + fl + ")"));
    row(offsetof(p1, buffer_size), 4, "BufferSize " + std::to_string(u32(offsetof(p1, buffer_size))) + " KB");
    row(offsetof(p1, minimum_buffers), 4, "MinimumBuffers " + std::to_string(u32(offsetof(p1, minimum_buffers))));
    row(offsetof(p1, maximum_buffers), 4, "MaximumBuffers " + std::to_string(u32(offsetof(p1, maximum_buffers))));
    // MB, or KB with EVENT_TRACE_USE_KBYTES_FOR_SIZE (EVENT_TRACE_PROPERTIES): the unit the block says.
    bool const kilobytes = (u32(offsetof(p1, log_file_mode)) & etwctl::log_file_mode::use_kbytes_for_size) != 0;
    row(offsetof(p1, maximum_file_size), 4,
        "MaximumFileSize " + std::to_string(u32(offsetof(p1, maximum_file_size))) + (kilobytes ? " KB" : " MB"));
    row(offsetof(p1, log_file_mode), 4, "LogFileMode " + hex(u32(offsetof(p1, log_file_mode)), 8) + " " + log_file_mode_text(u32(offsetof(p1, log_file_mode))));
    row(offsetof(p1, flush_timer), 4, "FlushTimer " + std::to_string(u32(offsetof(p1, flush_timer))) + " s");
    row(offsetof(p1, enable_flags), 4, "EnableFlags " + hex(u32(offsetof(p1, enable_flags)), 8));
    row(offsetof(p1, flush_threshold), 4, "FlushThreshold " + std::to_string(u32(offsetof(p1, flush_threshold))));
    a.rows.push_back({offsetof(p1, number_of_buffers), "",
                      "... NumberOfBuffers .. LoggerThreadId: " + std::to_string(offsetof(p1, log_file_name_offset) - offsetof(p1, number_of_buffers)) +
                          " bytes the call writes back (statistics)"});
    std::uint32_t const file_off = u32(offsetof(p1, log_file_name_offset)), name_off = u32(offsetof(p1, logger_name_offset));
    row(offsetof(p1, log_file_name_offset), 4, "LogFileNameOffset " + hex(file_off, 4) + (file_off ? "" : " (no log file)"));
    row(offsetof(p1, logger_name_offset), 4, "LoggerNameOffset " + hex(name_off, 4));
    std::size_t end = sizeof(p1);
    if (v2) {
        row(offsetof(p2, v2_control), 4, "V2Control " + hex(u32(offsetof(p2, v2_control)), 8) + " (VersionNumber " +
                                             std::to_string(u32(offsetof(p2, v2_control)) & 0xFFU) + ")");
        row(offsetof(p2, filter_desc_count), 4, "FilterDescCount " + std::to_string(u32(offsetof(p2, filter_desc_count))));
        row(offsetof(p2, filter_desc), sizeof(void*), "FilterDesc");
        row(offsetof(p2, v2_options), 8, "V2Options " + hex(u64(offsetof(p2, v2_options)), 16));
        end = sizeof(p2);
    }
    // The names, in offset order, then the rest of the block.
    struct named {
        std::uint32_t offset;
        char const* what;
    } names[2] = {{name_off, "LoggerName"}, {file_off, "LogFileName"}};
    if (names[1].offset && (names[0].offset == 0 || names[1].offset < names[0].offset)) std::swap(names[0], names[1]);
    for (auto const& n : names) {
        if (n.offset == 0 || n.offset >= b.size()) continue;
        if (n.offset > end) a.rows.push_back({end, "", "... " + std::to_string(n.offset - end) + " bytes of room (zero)"});
        std::size_t units = 0;
        std::string const text = name_in_block(r, n.offset, &units);
        std::size_t const bytes = (units + 1) * 2 <= b.size() - n.offset ? (units + 1) * 2 : b.size() - n.offset;
        row(n.offset, bytes < 8 ? bytes : 8, std::string(n.what) + " \"" + text + "\" (UTF-16, " + std::to_string(units) + (units == 1 ? " character" : " characters") + " and the NUL)");
        end = n.offset + bytes;
    }
    if (end < b.size()) a.rows.push_back({end, "", "... " + std::to_string(b.size() - end) + " bytes of room (zero)"});
}

/// The session call's line and rows.
inline annotated_request annotate_session(request const& r) {
    annotated_request a;
    a.state = r.sent ? "sent" : "not sent (dry run)";
    if (r.sent) a.status = win32_status_text(r.status);
    auto const& s = r.session;
    std::string const name = s.name.empty() ? "NULL" : "\"" + s.name + "\"";
    switch (s.function) {
    case etwctl::session_function::start_trace_w:
        a.call = "StartTraceW(SessionName=" + name + ", Properties: " + std::to_string(r.bytes.size()) + " bytes)";
        annotate_properties(r, a);
        a.rows.push_back({0, "", "-> TraceHandle " + session_handle_text(s.handle)});
        break;
    case etwctl::session_function::control_trace_w:
        a.call = "ControlTraceW(TraceHandle=" + hex_min(s.handle, 1) + ", InstanceName=" + name + ", Properties: " +
                 std::to_string(r.bytes.size()) + " bytes, " + control_code_name(s.control) + ")";
        annotate_properties(r, a);
        break;
    case etwctl::session_function::query_all_traces_w:
        a.call = "QueryAllTracesW(PropertyArrayCount=" + std::to_string(s.control) + ")";
        if (r.sent) a.rows.push_back({0, "", "-> SessionCount " + std::to_string(s.sessions)});
        break;
    case etwctl::session_function::enable_trace_ex2: {
        a.call = "EnableTraceEx2(TraceHandle=" + session_handle_text(s.handle) + ", ProviderId=" + guid_text(s.provider) +
                 (s.provider_name.empty() ? "" : " " + s.provider_name) + ", " + enable_code_name(s.control) +
                 ", Level=" + std::to_string(s.level) + ", MatchAnyKeyword=" + hex_min(s.match_any, 1) +
                 ", MatchAllKeyword=" + hex_min(s.match_all, 1) + ", Timeout=" + std::to_string(s.timeout) + ")";
        if (s.has_parameters && r.bytes.size() >= sizeof(etwctl::enable_trace_parameters)) {
            using etp = etwctl::enable_trace_parameters;
            auto u32 = [&](std::size_t off) {
                std::uint32_t v = 0;
                std::memcpy(&v, r.bytes.data() + off, 4);
                return v;
            };
            auto row = [&](std::size_t off, std::size_t n, std::string note) {
                std::string h;
                for (std::size_t i = off; i < off + n; ++i) h += (i == off ? "" : " ") + hex_byte(std::to_integer<unsigned>(r.bytes[i]));
                a.rows.push_back({off, h, std::move(note)});
            };
            row(offsetof(etp, version), 4, "Version " + std::to_string(u32(offsetof(etp, version))));
            row(offsetof(etp, enable_property), 4,
                "EnableProperty " + hex(u32(offsetof(etp, enable_property)), 8) + " " + enable_property_text(u32(offsetof(etp, enable_property))));
            row(offsetof(etp, control_flags), 4, "ControlFlags " + std::to_string(u32(offsetof(etp, control_flags))));
            row(offsetof(etp, filter_desc_count), 4, "FilterDescCount " + std::to_string(u32(offsetof(etp, filter_desc_count))));
        }
        break;
    }
    default:
        a.call = std::string(etwctl::session_function_name(s.function));
        break;
    }
    return a;
}

/// The session call's JSON members beyond call / sent / status / bytes / fields.
inline void session_json(request const& r, json_object& o) {
    auto const& s = r.session;
    switch (s.function) {
    case etwctl::session_function::start_trace_w:
        o.str("session", session_of(r)).str("handle", hex(s.handle, 16));
        break;
    case etwctl::session_function::control_trace_w:
        o.str("session", session_of(r)).str("handle", hex(s.handle, 16)).num("control_code", s.control);
        break;
    case etwctl::session_function::query_all_traces_w:
        o.num("property_array_count", s.control);
        if (r.sent) o.num("session_count", s.sessions);
        break;
    case etwctl::session_function::enable_trace_ex2: {
        std::uint32_t property = 0;
        if (s.has_parameters && r.bytes.size() >= 8) std::memcpy(&property, r.bytes.data() + offsetof(etwctl::enable_trace_parameters, enable_property), 4);
        o.str("session", s.session).str("handle", hex(s.handle, 16)).num("control_code", s.control);
        char t[37];
        s.provider.format(t);
        o.str("provider", t).str("provider_name", s.provider_name).num("level", s.level);
        o.str("match_any", hex(s.match_any, 16)).str("match_all", hex(s.match_all, 16)).num("enable_property", property);
        break;
    }
    default:
        break;
    }
}

} // namespace etwctl_tool
