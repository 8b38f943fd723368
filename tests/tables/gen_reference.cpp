// Prints docs/reference.md from etwctl's tables: every named kernel event, kernel flag, WPR keyword,
// PERF_* flag, EVENT_TRACE_FLAG_* bit and profile source, and the names published without a value. The document is generated, never edited by hand; the
// test etwctl_reference_doc_in_sync fails when it no longer matches the tables.
//   usage: etwctl_gen_reference <output.md>
#include <cstddef>
#include <cstdio>
#include <string_view>

#include "etwctl/names/events.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/names/sources.hpp"
#include "etwctl/names/wpr.hpp"

namespace {
using namespace etwctl;

std::FILE* out = nullptr;

void put(std::string_view s) { std::fwrite(s.data(), 1, s.size(), out); }
void hex(std::uint32_t v, int digits) { std::fprintf(out, "0x%0*X", digits, v); }
void dec(std::size_t v) { std::fprintf(out, "%zu", v); }

void flag_cell(perf_flag f) {
    if (f.bits() == 0) return put("–");
    put("`");
    hex(f.value, 8);
    put("`");
    if (auto const name = perf_flag_name(f); !name.empty()) {
        put(" ");
        put(name);
    } else {
        for (auto const& ef : event_trace_flag_table)
            if (ef.value == f.value) {
                put(" EVENT_TRACE_FLAG_");
                put(ef.name);
            }
    }
}

void mask_cell(group_mask const& m) {
    bool first = true;
    for (std::size_t i = 0; i < limits::max_group_masks; ++i) {
        if (!m.masks[i]) continue;
        if (!first) put(", ");
        first = false;
        put("Masks[");
        dec(i);
        put("] `");
        hex(m.masks[i], 8);
        put("`");
    }
}

template <std::size_t N>
void without_value_table(std::string_view column, known_name_without_value const (&rows)[N]) {
    put("| ");
    put(column);
    put(" | Published in |\n|---|---|\n");
    for (auto const& w : rows) {
        put("| ");
        put(w.name);
        put(" | ");
        put(w.seen_in);
        put(" |\n");
    }
}

void events() {
    put("## Kernel events (stack-walk names)\n\n");
    put("Source: `include/etwctl/names/events.hpp`. Hook id = (group << 8) | type. Names are matched "
        "case-insensitively; `stack_walk<\"...\">` and `parse_stack_walk` also accept a hook id as `0x` + 1..4 hex "
        "digits. *alias*: a second name for the hook of the row above it; *inferred name*: no source gives this "
        "name, etwctl chose one in xperf's style; *inferred flag*: the enabling flag is etwctl's reading of a "
        "range the facts give together; *WPR Stack name*: a `<Stack Value=\"...\"/>` name of Windows Performance "
        "Recorder's profile schema (WPR spells some of xperf's names out: an alias row). The enabling flag is "
        "indicative (no formal group-to-flag table is known); – = not determined.\n\n");
    put("| Name | Hook id | Group (GUID name) | Type | Enabling flag | Notes |\n");
    put("|---|---|---|---|---|---|\n");
    for (auto const& e : kernel_event_table<>) {
        put("| ");
        put(e.name);
        put(" | `");
        hex(e.hook().value, 4);
        put("` | ");
        put(kernel_group_table[e.group].name);
        put(" (");
        put(kernel_group_table[e.group].guid_name);
        put(") | ");
        dec(e.type);
        put(" | ");
        flag_cell(e.enabled_by);
        put(" | ");
        bool sep = false;
        auto note = [&](std::string_view n) {
            if (sep) put("; ");
            put(n);
            sep = true;
        };
        if (e.alias) note("alias");
        if (e.inferred) note("inferred name");
        if (e.inferred_flag) note("inferred flag");
        if (!e.xperf_name) note("not an xperf name");
        if (!wpr_stack_name(e.name).empty()) note("WPR Stack name");
        if (e.name == "ImageLoad") note("kernel logs loads as {ProcessGuid, 10}; {ImageLoadGuid, 10} would be 0x140A");
        put(" |\n");
    }
    put("\n**Image load.** The kernel logs image loads as hook 0x030A (PROCESS group, type 10) and the decoder "
        "re-labels them ImageLoadGuid/opcode 10; PerfView requests image-load stacks as {ProcessGuid, 10}. A "
        "CLASSIC_EVENT_ID {ImageLoadGuid, 10} translates to 0x140A, which the kernel does not emit for loads. "
        "etwctl follows the kernel: `ImageLoad` = 0x030A.\n\n");
    put("**Names without a public hook id.** xperf or WPR publishes these names, but no public source gives their "
        "hook id; the parsers refuse them by name (`parse_name_without_value`) and never guess one:\n\n");
    without_value_table("Name", kernel_event_without_hook);
    put("\n");
}

void xperf_flags() {
    put("## Kernel flags (xperf names)\n\n");
    put("Source: `include/etwctl/names/flags.hpp`. `kernel_flags<\"...\">` and `parse_kernel_flags` combine "
        "names as a set union over the 8 masks. They also accept PERF_* names, a PERF value as `0x` + 1..8 hex "
        "digits and raw mask bits as `mask<i>:0x<hex>`; `format_kernel_flags` writes these names (first row "
        "first) and any other bits as PERF values. *inferred*: value matched to the name by name only.\n\n");
    put("| Name | Group mask | Notes |\n|---|---|---|\n");
    for (auto const& f : xperf_kernel_flag_table<>) {
        put("| ");
        put(f.name);
        put(" | ");
        mask_cell(f.mask);
        put(" | ");
        if (f.inferred) put("inferred");
        put(" |\n");
    }
    put("\nNo public value is known for these flag names; they are refused by name (`parse_name_without_value`):\n\n");
    without_value_table("Name", xperf_kernel_flag_without_value);
    put("\n## Kernel groups (xperf names)\n\nSource: `include/etwctl/names/flags.hpp`. A group is the union of "
        "its members; the etwctl tool accepts group names wherever it takes kernel flags. *inferred*: membership "
        "from an older xperf's `-providers KG` output only.\n\n| Group | Members | Notes |\n|---|---|---|\n");
    for (auto const& g : xperf_kernel_group_table<>) {
        put("| ");
        put(g.name);
        put(" | ");
        put(g.members);
        put(" | ");
        if (g.inferred) put("inferred");
        put(" |\n");
    }
    put("\n");
}

void wpr_keywords_section() {
    put("## WPR SystemProvider keywords\n\n");
    put("Source: `include/etwctl/names/wpr.hpp`: the `<Keyword Value=\"...\"/>` names of Windows Performance "
        "Recorder's profile schema (WPRControlProfiles.xsd) and the group-mask value each stands for. "
        "`wpr_keywords<\"...\">` and `parse_wpr_keywords` combine them as a set union over the 8 masks, and also "
        "take a value as `0x` + 1..8 hex digits (WPR's CustomKeyword) or `mask<i>:0x<hex>`. Every value is "
        "inferred: *decoded table*: a third-party table (InstantTraceViewer's Wprp.cs) decoded with TraceEvent's "
        "keyword values; *name match*: the keyword matches a PERF_* constant by name. *Learn*: also in the keyword "
        "table on learn.microsoft.com. WPR's plain CSwitch, DPC, Drivers, Interrupt, ReadyThread, SampledProfile, "
        "SystemCall and VirtualAllocation are the Masks[0] alias bits.\n\n");
    put("| Keyword | Group mask | PERF / EVENT_TRACE_FLAG name | Value from | Learn |\n|---|---|---|---|---|\n");
    for (auto const& k : wpr_keyword_table) {
        put("| ");
        put(k.name);
        put(" | ");
        mask_cell(group_mask(k.value));
        put(" | ");
        flag_cell(k.value);
        put(k.source == wpr_value_source::name_match ? " | name match | " : " | decoded table | ");
        put(k.on_learn ? "yes" : "");
        put(" |\n");
    }
    put("\nNo public value is known for these WPR keywords; they are refused by name (`parse_name_without_value`):\n\n");
    without_value_table("Keyword", wpr_keyword_without_value);
    put("\n");
}

void perf_names() {
    put("## PERF_* flags\n\nA PERF value is a mask index (bits 29-31) and bits (0-28) of that mask.\n\n");
    put("| Name | Value | Mask | Bits |\n|---|---|---|---|\n");
    for (auto const& f : perf_flag_table<>) {
        put("| ");
        put(f.name);
        put(" | `");
        hex(f.flag.value, 8);
        put("` | ");
        dec(f.flag.index());
        put(" | `");
        hex(f.flag.bits(), 8);
        put("` |\n");
    }
    put("\n");
}

void enable_flags() {
    put("## EVENT_TRACE_FLAG_* (Masks[0])\n\nAlias bits stand for an extended PERF flag; the kernel translates "
        "them (group_mask::normalized).\n\n");
    put("| Name | Value | PERF equivalent |\n|---|---|---|\n");
    for (auto const& f : event_trace_flag_table) {
        put("| EVENT_TRACE_FLAG_");
        put(f.name);
        put(" | `");
        hex(f.value, 8);
        put("` | ");
        perf_flag const p = perf_equivalent(f.value);
        if (p.index() != 0 || !perf_flag_name(p).empty()) {
            put("`");
            hex(p.value, 8);
            put("` ");
            put(perf_flag_name(p));
        } else {
            put("–");
        }
        put(" |\n");
    }
    put("\n");
}

void sources() {
    put("## Profile sources (KPROFILE_SOURCE)\n\nSource: `include/etwctl/names/sources.hpp`. "
        "`profile_source_by_name` accepts both names (case-insensitive); `name_of` returns the short one. "
        "Sources above ProfileMaximum are processor-specific: the names are one Intel machine's and the HAL "
        "decides; query the machine's list to be sure.\n\n");
    put("| Value | Name | KPROFILE_SOURCE | Notes |\n|---|---|---|---|\n");
    for (auto const& s : profile_source_table) {
        put("| ");
        dec(static_cast<std::size_t>(s.source));
        put(" | ");
        put(s.name);
        put(" | ");
        put(s.kprofile_name.empty() ? std::string_view("–") : std::string_view(s.kprofile_name));
        put(" | ");
        if (s.hal_dependent) put("HAL/CPU dependent");
        if (s.source == profile_source::maximum) put("end of the enumeration, not a counter");
        put(" |\n");
    }
    put("\nTimer (ProfileTime) interval, 100 ns units: min ");
    dec(timer::min_interval);
    put(", max ");
    dec(timer::max_interval);
    put(", default ");
    dec(timer::default_interval);
    put(". `timer_interval<V>` does not compile outside these bounds.\n");
}
} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <output.md>\n", argv[0]);
        return 2;
    }
    out = std::fopen(argv[1], "wb"); // binary: the same bytes on every platform
    if (!out) {
        std::perror(argv[1]);
        return 1;
    }
    put("# etwctl naming reference\n\n");
    put("Generated from etwctl's tables by `tests/tables/gen_reference.cpp`; do not edit. Regenerate with "
        "`cmake --build <build dir> --target etwctl_update_reference`.\n\n");
    events();
    xperf_flags();
    wpr_keywords_section();
    perf_names();
    enable_flags();
    sources();
    return std::fclose(out) == 0 ? 0 : 1;
}
