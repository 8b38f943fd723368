// --dry-run output: each recorded kernel request as hex rows with the meaning of each field, the way
// the kernel reads the buffer (EVENT_TRACE_* layouts of phnt ntwmi.h; see etwctl/request/layouts.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "etwctl/group_mask.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/request/decode.hpp"
#include "etwctl/request/logger_query.hpp"

#include "annotate_custom.hpp"
#include "annotate_sessions.hpp"
#include "annotate_words.hpp"
#include "recording_kernel.hpp"
#include "text.hpp"

namespace etwctl_tool {

inline annotated_request annotate(request const& r, source_namer const& source_name) {
    if (r.is_session) return annotate_session(r);
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
    if (!query && annotate_profile_source_change(r, a, row, source_name)) return a;
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
            row(f.offset, 4, "Enabled " + std::to_string(v) + ", 3 bytes padding");
            break;
        case etwctl::field_kind::cache_size:
            row(f.offset, 4, "CacheSize " + std::to_string(v) + " (" + byte_size_text(v) + ")");
            break;
        case etwctl::field_kind::bucket_count:
            row(f.offset, 4, "BucketCount " + std::to_string(v));
            break;
        case etwctl::field_kind::options:
            row(f.offset, 4, "Options " + hex(v, 8) + " " + lbr_options_text(v));
            break;
        case etwctl::field_kind::register_types:
            row(f.offset, 4, "RegisterTypes " + std::to_string(v) + (v == 3 ? " (control + integer)" : ""));
            break;
        case etwctl::field_kind::spare:
            if (f.offset >= 16 && f.size == 4) row(f.offset, 4, "reserved");
            break;
        case etwctl::field_kind::unknown:
            for (std::size_t off = f.offset; off < f.offset + f.size; off += 8) row(off, 8, "");
            break;
        default:
            break;
        }
    });
    if (d.kind == request_kind::group_mask) {
        a.rows.push_back({16, "", "= " + kernel_flags_text(m)});
    }
    bool const hook_ids = d.kind == request_kind::hook_list ||
                          cls == static_cast<std::uint32_t>(etwctl::event_trace_information_class::last_branch_event_list);
    if (hook_ids && r.bytes.size() == 16) a.rows.push_back({16, "", "(empty list)"});
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
    if (r.is_session) session_json(r, o);
    o.str("bytes", bytes).raw("fields", json_array(rows));
    return o.text();
}

} // namespace etwctl_tool
