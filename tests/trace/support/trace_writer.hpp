// SPDX-License-Identifier: MIT
// trace_writer.hpp - a test-side WRITER of ETW trace files (.etl) in the byte layout Windows writes, so
// the reader can be tested on what the real files in tests/trace/data lack: 32-bit pointer sizes, every
// record header kind, every extended data item, lost buffers and sequence gaps, every clock type,
// compressed buffers, and large generated traces for the benchmarks.
//
// Test code: it allocates and throws (std::invalid_argument / std::length_error / std::logic_error when
// asked for something that cannot be written); built without exceptions (the noexcept preset's
// -fno-exceptions), it prints the refusal on stderr and aborts instead. It never reads the library's
// trace reader: its layouts come from the public sources below, so the reader is checked against them
// and not against itself.
//
// Sources (public):
//   - Geoff Chappell, geoffchappell.com: "WMI_BUFFER_HEADER" (+ its BufferFlag and BufferType pages),
//     "ETW_BUFFER_STATE", "Trace Headers", "SYSTEM_TRACE_HEADER", "PERFINFO_TRACE_HEADER",
//     "MESSAGE_TRACE_HEADER", "EVENT_HEADER", "TRACE_LOGFILE_HEADER", "ETW_KERNEL_HEADER_EXTENSION",
//     "WMI_CONTEXTSWAP".
//   - NTWMI.H of the Windows 10 WDK as reproduced in winsiderss/phnt ntwmi.h: TRACE_HEADER_TYPE_*, the
//     buffer flags and types, TRACE_HEADER_PMC_COUNTERS_MASK / TRACE_HEADER_PEBS_INDEX_FLAG, the kernel
//     payload structures (PERFINFO_SAMPLED_PROFILE_INFORMATION, WMI_EXTENDED_THREAD_INFORMATION,
//     WMI_PROCESS_INFORMATION, WMI_IMAGELOAD_INFORMATION, STACK_WALK_EVENT_DATA, ...).
//   - Windows SDK evntrace.h (EVENT_TRACE_HEADER, TRACE_LOGFILE_HEADER, TRACE_MESSAGE_* flags,
//     EVENT_TRACE_COMPRESSED_MODE), evntcons.h (EVENT_HEADER, EVENT_HEADER_EXTENDED_DATA_ITEM,
//     EVENT_HEADER_EXT_TYPE_*, EVENT_EXTENDED_ITEM_*), and the Microsoft Learn pages of those names and
//     of the kernel MOF classes (SampledProfile, CSwitch, ReadyThread, Thread_TypeGroup1,
//     Process_TypeGroup1, Image_Load, StackWalk_Event).
// Where a detail is not published but was read from the bytes of real files written by Windows (marked
// "observed"), the comment says so: the 0xFF fill, the zero padding between records, the extended
// items' 8-aligned size field, CurrentOffset, the header buffer's flags.
//
// Use:
//   etwctl_test::trace_writer w{{.pointer_size = 4}};       // a 32-bit session
//   w.system(0, {.hook = hook::thread_dc_start, .version = 3, .tid = 8, .pid = 4, .ts = 2000},
//            thread_payload(4, {.pid = 4, .tid = 8}), /*bits32=*/true);
//   w.perfinfo(1, hook::sampled_profile, 2, 2100, sampled_profile_payload(4, 0x80401000, 8), {}, {}, true);
//   std::vector<std::byte> file = w.finish();   // header buffer first, then the buffers in flush order
//   etwctl_test::trace_counts const& c = w.counts();
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "etwctl/guid.hpp"

#if __has_include("lz77_compress.hpp")
#include "lz77_compress.hpp"
#define ETWCTL_TEST_WRITER_HAS_LZ77 1
#else
#define ETWCTL_TEST_WRITER_HAS_LZ77 0
#endif

namespace etwctl_test {

using bytes = std::vector<std::byte>;
using byte_view = std::span<std::byte const>;

// ---------------------------------------------------------------------------------------------------
// Constants (names from NTWMI.H / the SDK, values K unless marked)
// ---------------------------------------------------------------------------------------------------

/// WMI_BUFFER_HEADER: 0x48 bytes before the first record of every buffer (GC WMI_BUFFER_HEADER).
inline constexpr std::uint32_t buffer_header_size = 0x48;

/// BufferFlag bits (NTWMI ETW_BUFFER_FLAG_*).
namespace buffer_flag {
inline constexpr std::uint16_t flush_marker = 0x0001;
inline constexpr std::uint16_t events_lost = 0x0002;
inline constexpr std::uint16_t buffer_lost = 0x0004;
inline constexpr std::uint16_t rtbackup_corrupt = 0x0008;
inline constexpr std::uint16_t rtbackup = 0x0010;
inline constexpr std::uint16_t proc_index = 0x0020;
inline constexpr std::uint16_t compressed = 0x0040;
} // namespace buffer_flag

/// BufferType values (NTWMI ETW_BUFFER_TYPE_*).
namespace buffer_type {
inline constexpr std::uint16_t generic = 0;
inline constexpr std::uint16_t header = 4;
} // namespace buffer_type

/// HeaderType byte (byte 2 of a trace header; NTWMI TRACE_HEADER_TYPE_*). MESSAGE records have no
/// header-type byte (byte 3 = 0x90 says what they are); they are counted under `message`.
namespace header_type {
inline constexpr std::uint8_t system32 = 0x01, system64 = 0x02, compact32 = 0x03, compact64 = 0x04;
inline constexpr std::uint8_t full_header32 = 0x0A, instance32 = 0x0B, message = 0x0F;
inline constexpr std::uint8_t perfinfo32 = 0x10, perfinfo64 = 0x11;
inline constexpr std::uint8_t event_header32 = 0x12, event_header64 = 0x13;
inline constexpr std::uint8_t full_header64 = 0x14, instance64 = 0x15;
} // namespace header_type

/// EVENT_HEADER_EXT_TYPE_* (SDK evntcons.h).
namespace ext_type {
inline constexpr std::uint16_t related_activityid = 0x0001, sid = 0x0002, ts_id = 0x0003;
inline constexpr std::uint16_t instance_info = 0x0004, stack_trace32 = 0x0005, stack_trace64 = 0x0006;
inline constexpr std::uint16_t pebs_index = 0x0007, pmc_counters = 0x0008, psm_key = 0x0009;
inline constexpr std::uint16_t event_key = 0x000A, event_schema_tl = 0x000B, prov_traits = 0x000C;
inline constexpr std::uint16_t process_start_key = 0x000D, control_guid = 0x000E, qpc_delta = 0x000F;
inline constexpr std::uint16_t container_id = 0x0010, stack_key32 = 0x0011, stack_key64 = 0x0012;
} // namespace ext_type

/// TRACE_MESSAGE_* option flags of a MESSAGE record (SDK evntrace.h).
namespace message_flag {
inline constexpr std::uint16_t sequence = 0x0001, guid = 0x0002, component_id = 0x0004;
inline constexpr std::uint16_t timestamp = 0x0008, performance_timestamp = 0x0010, system_info = 0x0020;
inline constexpr std::uint16_t pointer32 = 0x0040, pointer64 = 0x0080;
} // namespace message_flag

/// LogFileMode bits the writer itself sets (SDK evntrace.h).
inline constexpr std::uint32_t event_trace_compressed_mode = 0x04000000;

/// Kernel HookIds (Group << 8 | Type) the builders and the generator use (NTWMI, GC "Hook IDs").
namespace hook {
inline constexpr std::uint16_t header = 0x0000, header_extension = 0x0005, rundown_complete = 0x0008;
inline constexpr std::uint16_t process_start = 0x0301, process_end = 0x0302;
inline constexpr std::uint16_t process_dc_start = 0x0303, process_dc_end = 0x0304;
inline constexpr std::uint16_t image_load = 0x030A; // Process group, type 10 (EVENT_TRACE_TYPE_LOAD)
inline constexpr std::uint16_t thread_start = 0x0501, thread_end = 0x0502;
inline constexpr std::uint16_t thread_dc_start = 0x0503, thread_dc_end = 0x0504;
inline constexpr std::uint16_t cswitch = 0x0524, ready_thread = 0x0532;
inline constexpr std::uint16_t sampled_profile = 0x0F2E, pmc_counter_profile = 0x0F2F;
inline constexpr std::uint16_t pmc_counter_config = 0x0F30;
inline constexpr std::uint16_t sampled_profile_set_interval = 0x0F48;
inline constexpr std::uint16_t collection_start = 0x0F49, collection_end = 0x0F4A;
inline constexpr std::uint16_t image_unload = 0x1402, image_dc_start = 0x1403, image_dc_end = 0x1404;
inline constexpr std::uint16_t stack_walk = 0x1820, stack_key_delete = 0x1823, stack_key_rundown = 0x1824;
inline constexpr std::uint16_t stack_key_kernel = 0x1825, stack_key_user = 0x1826;
} // namespace hook

// ---------------------------------------------------------------------------------------------------
// Little-endian stores and appenders (the file format is little-endian whatever the host is)
// ---------------------------------------------------------------------------------------------------
namespace writer_detail {

/// Refuses what cannot be written: throws `Error` (what the writer's tests check), or, without
/// exceptions, says why on stderr and aborts (a test that asks for it is a broken test).
template <class Error>
[[noreturn]] inline void refuse(char const* why) {
#if defined(__cpp_exceptions)
    throw Error(why);
#else
    std::fprintf(stderr, "etwctl_test::trace_writer: %s\n", why);
    std::abort();
#endif
}

template <class T>
inline void store_le(std::byte* at, T value) noexcept {
    auto v = static_cast<std::uint64_t>(value);
    for (std::size_t i = 0; i < sizeof(T); ++i) at[i] = static_cast<std::byte>((v >> (8 * i)) & 0xFFU);
}
inline void store_guid(std::byte* at, etwctl::guid const& g) noexcept {
    store_le(at, g.data1);
    store_le(at + 4, g.data2);
    store_le(at + 6, g.data3);
    for (std::size_t i = 0; i < 8; ++i) at[8 + i] = static_cast<std::byte>(g.data4[i]);
}
constexpr std::size_t align8(std::size_t n) noexcept { return (n + 7) & ~std::size_t{7}; }

template <class T>
inline void put(bytes& out, T value) {
    auto const n = out.size();
    out.resize(n + sizeof(T));
    store_le(out.data() + n, value);
}
/// A pointer-size field (4 or 8 bytes): 32-bit values are the low half, as a 32-bit kernel stores them.
inline void put_ptr(bytes& out, std::uint8_t p, std::uint64_t value) {
    if (p == 8) put(out, value);
    else put(out, static_cast<std::uint32_t>(value));
}
inline void put_guid(bytes& out, etwctl::guid const& g) {
    auto const n = out.size();
    out.resize(n + 16);
    store_guid(out.data() + n, g);
}
/// NUL-terminated UTF-16LE.
inline void put_utf16z(bytes& out, std::u16string_view s) {
    for (char16_t c : s) put(out, static_cast<std::uint16_t>(c));
    put(out, std::uint16_t{0});
}
/// NUL-terminated 8-bit text (ImageFileName of the Process events is ANSI).
inline void put_ansiz(bytes& out, std::string_view s) {
    for (char c : s) out.push_back(static_cast<std::byte>(c));
    out.push_back(std::byte{0});
}
inline void put_bytes(bytes& out, byte_view b) { out.insert(out.end(), b.begin(), b.end()); }
inline void check_pointer_size(std::uint8_t p) {
    if (p != 4 && p != 8) writer_detail::refuse<std::invalid_argument>("pointer size must be 4 or 8");
}

} // namespace writer_detail

// ---------------------------------------------------------------------------------------------------
// Options and counts
// ---------------------------------------------------------------------------------------------------

struct trace_options {
    std::uint32_t buffer_size = 0x10000;        // every uncompressed buffer (and the file header's BufferSize)
    std::uint32_t header_buffer_size = 0;       // 0: buffer_size (live files); relogged files use 0x200/0x400
    std::uint8_t pointer_size = 8;              // 4: SYSTEM32 header event + 32-bit TRACE_LOGFILE_HEADER
    std::uint32_t processors = 2;               // NumberOfProcessors
    std::uint32_t clock_type = 1;               // ReservedFlags: 0 raw, 1 QPC, 2 system time, 3 CPU cycles
    std::uint64_t perf_freq = 10'000'000;       // PerfFreq
    std::uint32_t cpu_mhz = 3000;               // CpuSpeedInMHz
    std::uint64_t start_time = 132'000'000'000'000'000; // FILETIME of the session start (StartTime)
    std::uint64_t boot_time = 131'999'964'000'000'000;  // FILETIME (BootTime): one hour before start_time
    std::optional<std::uint64_t> end_time{};    // EndTime; nullopt: computed from the last timestamp; 0: not finalized
    std::int32_t time_zone_bias = -60;          // TIME_ZONE_INFORMATION.Bias (minutes); the rest stays zero
    std::uint64_t header_timestamp = 1'000'000; // raw clock value of the header event (the conversion anchor)
    std::uint32_t header_tid = 0x1234, header_pid = 0x0ABC; // the thread that wrote the header event
    std::uint32_t log_file_mode = 0x00000001;   // LogFileMode (EVENT_TRACE_FILE_MODE_SEQUENTIAL); compress adds 0x04000000
    std::uint32_t events_lost = 0, buffers_lost = 0;
    std::uint32_t provider_version = 19041;     // ProviderVersion = OS build number
    std::uint8_t os_major = 10, os_minor = 0;   // Version bytes 0 and 1
    std::uint16_t logger_id = 61;               // ClientContext.LoggerId of every buffer
    std::uint16_t buffer_flags = buffer_flag::proc_index; // BufferFlag of every buffer (live Win10 files: 0x20)
    bool compress = false;                      // store every non-header buffer as Plain LZ77
    bool system_logger = true;                  // HeaderExtension (0x0005) as the header buffer's second event
    bool header_extension_perfinfo = false;     // that event with a PERFINFO header instead of a SYSTEM one
    std::array<std::uint32_t, 8> group_masks{}; // HeaderExtension GroupMasks
    std::uint32_t kernel_event_version = 85;    // HeaderExtension KernelEventVersion (observed 85 on Win11)
    std::u16string logger_name = u"etwctl-test";
    std::u16string log_file_name = u"C:\\etwctl-test.etl";
};

/// What the writer wrote, for tests to compare with what the reader finds. Complete after finish().
struct trace_counts {
    std::map<std::uint8_t, std::uint64_t> by_header_type; // header_type:: value (MESSAGE under 0x0F)
    std::map<std::uint16_t, std::uint64_t> by_hook;       // SYSTEM, COMPACT and PERFINFO records by HookId
    std::map<std::uint16_t, std::uint64_t> by_cpu;        // records per processor (the header buffer's: 0)
    std::vector<std::uint32_t> records_per_buffer;        // in file order, header buffer first
    std::vector<std::size_t> buffer_offsets;              // file offset of each buffer, in file order
    std::uint64_t records = 0;                            // every record, the header buffer's and raw ones too
    std::uint64_t raw_records = 0;                        // written by raw() (not in by_header_type)
    std::uint64_t buffers = 0;                            // every buffer incl. the header buffer (BuffersWritten)

    std::uint64_t hook_count(std::uint16_t h) const {
        auto const it = by_hook.find(h);
        return it == by_hook.end() ? 0 : it->second;
    }
};

// ---------------------------------------------------------------------------------------------------
// Extended data items of EVENT_HEADER records (SDK evntcons.h EVENT_EXTENDED_ITEM_*)
// ---------------------------------------------------------------------------------------------------

struct ext_item {
    std::uint16_t type = 0;
    bytes data;
};

inline ext_item related_activity_id_item(etwctl::guid const& id) {
    ext_item item{ext_type::related_activityid, {}};
    writer_detail::put_guid(item.data, id);
    return item;
}
inline ext_item ts_id_item(std::uint32_t session_id) {
    ext_item item{ext_type::ts_id, {}};
    writer_detail::put(item.data, session_id);
    return item;
}
inline ext_item instance_info_item(std::uint32_t instance_id, std::uint32_t parent_instance_id, etwctl::guid const& parent) {
    ext_item item{ext_type::instance_info, {}};
    writer_detail::put(item.data, instance_id);
    writer_detail::put(item.data, parent_instance_id);
    writer_detail::put_guid(item.data, parent);
    return item;
}
/// STACK_TRACE32 (p = 4: u32 addresses) or STACK_TRACE64 (p = 8), after the u64 MatchId.
inline ext_item stack_trace_item(std::uint8_t p, std::uint64_t match_id, std::span<std::uint64_t const> frames) {
    writer_detail::check_pointer_size(p);
    ext_item item{p == 8 ? ext_type::stack_trace64 : ext_type::stack_trace32, {}};
    writer_detail::put(item.data, match_id);
    for (auto f : frames) writer_detail::put_ptr(item.data, p, f);
    return item;
}
/// STACK_KEY32 {u64 MatchId, u32 StackKey, u32 Padding} or STACK_KEY64 {u64 MatchId, u64 StackKey}.
inline ext_item stack_key_item(std::uint8_t p, std::uint64_t match_id, std::uint64_t key) {
    writer_detail::check_pointer_size(p);
    ext_item item{p == 8 ? ext_type::stack_key64 : ext_type::stack_key32, {}};
    writer_detail::put(item.data, match_id);
    if (p == 8) writer_detail::put(item.data, key);
    else {
        writer_detail::put(item.data, static_cast<std::uint32_t>(key));
        writer_detail::put(item.data, std::uint32_t{0});
    }
    return item;
}
inline ext_item pmc_counters_item(std::span<std::uint64_t const> counters) {
    ext_item item{ext_type::pmc_counters, {}};
    for (auto c : counters) writer_detail::put(item.data, c);
    return item;
}
/// A u64-valued item: PEBS_INDEX, EVENT_KEY, PROCESS_START_KEY.
inline ext_item u64_item(std::uint16_t type, std::uint64_t value) {
    ext_item item{type, {}};
    writer_detail::put(item.data, value);
    return item;
}
/// Any item as given (SID, PSM_KEY, EVENT_SCHEMA_TL, PROV_TRAITS, CONTAINER_ID, unknown types, ...).
inline ext_item blob_item(std::uint16_t type, byte_view data) { return {type, bytes(data.begin(), data.end())}; }

// ---------------------------------------------------------------------------------------------------
// The writer
// ---------------------------------------------------------------------------------------------------

class trace_writer {
public:
    /// Fields of a SYSTEM or COMPACT header (GC SYSTEM_TRACE_HEADER); COMPACT has no Kernel/UserTime.
    struct system_fields {
        std::uint16_t hook = 0;
        std::uint8_t version = 0;
        std::uint32_t tid = 0, pid = 0;
        std::uint64_t ts = 0;
        std::uint32_t kernel_time = 0, user_time = 0;
    };
    /// Fields of a FULL_HEADER / INSTANCE header (SDK EVENT_TRACE_HEADER): the class GUID, Class.Type
    /// (opcode), Class.Level, Class.Version.
    struct classic_fields {
        etwctl::guid event_guid{};
        std::uint8_t type = 0, level = 0;
        std::uint16_t version = 0;
        std::uint32_t tid = 0, pid = 0;
        std::uint64_t ts = 0;
        std::uint32_t kernel_time = 0, user_time = 0;
    };
    /// Fields of an EVENT_HEADER record (SDK evntcons.h). `flags` is OR-ed with EXTENDED_INFO (0x0001),
    /// which the writer sets itself when items are given.
    struct event_fields {
        etwctl::guid provider{};
        std::uint16_t id = 0;
        std::uint8_t version = 0, channel = 0, level = 0, opcode = 0;
        std::uint16_t task = 0;
        std::uint64_t keyword = 0;
        std::uint32_t tid = 0, pid = 0;
        std::uint64_t ts = 0;
        etwctl::guid activity{};
        std::uint16_t flags = 0;
        std::uint16_t event_property = 0;
        std::uint32_t kernel_time = 0, user_time = 0;
    };
    /// Fields of a MESSAGE (WPP) record; each optional field is written only when its flag is set
    /// (GC MESSAGE_TRACE_HEADER, SDK TRACE_MESSAGE_*): sequence (0x01), component id (0x04) or else
    /// the message GUID (0x02), timestamp (0x08), thread + process id (0x20).
    struct message_fields {
        std::uint16_t message_number = 0;
        std::uint16_t option_flags = 0;
        std::uint32_t sequence = 0;
        std::uint32_t component_id = 0;
        etwctl::guid message_guid{};
        std::uint64_t ts = 0;
        std::uint32_t tid = 0, pid = 0;
    };

    explicit trace_writer(trace_options options = {}) : opt_(std::move(options)) {
        writer_detail::check_pointer_size(opt_.pointer_size);
        if (opt_.header_buffer_size == 0) opt_.header_buffer_size = opt_.buffer_size;
        for (auto size : {opt_.buffer_size, opt_.header_buffer_size}) {
            if (size < 0x100 || size % 8 != 0 || size > 0x4000000)
                writer_detail::refuse<std::invalid_argument>("buffer sizes must be multiples of 8 in [0x100, 64 MB]");
        }
#if !ETWCTL_TEST_WRITER_HAS_LZ77
        if (opt_.compress) writer_detail::refuse<std::logic_error>("compress = true needs lz77_compress.hpp");
#endif
        // The header buffer goes first but is written last (BuffersWritten is known only then): keep
        // its place at the front of the file.
        file_.resize(opt_.header_buffer_size);
        hook_counts_.assign(0x10000, 0);
    }

    trace_options const& options() const noexcept { return opt_; }

    /// Reserves room for a file of about `n` bytes (the generator's 200 MB traces: one allocation).
    void reserve(std::size_t n) { file_.reserve(n); }

    /// SYSTEM32/SYSTEM64 record: 0x20-byte SYSTEM_TRACE_HEADER + payload. Returns the record's Size.
    std::size_t system(std::uint16_t cpu, system_fields const& f, byte_view payload, bool bits32 = false) {
        return system_like(cpu, f, payload, bits32 ? header_type::system32 : header_type::system64, 0x20);
    }
    /// COMPACT32/COMPACT64 record: the first 0x18 bytes of a SYSTEM_TRACE_HEADER + payload.
    std::size_t compact(std::uint16_t cpu, system_fields const& f, byte_view payload, bool bits32 = false) {
        return system_like(cpu, f, payload, bits32 ? header_type::compact32 : header_type::compact64, 0x18);
    }

    /// PERFINFO32/PERFINFO64 record: 0x10-byte PERFINFO_TRACE_HEADER, then the extensions (u64 each),
    /// then the payload. Byte 1 holds the PMC count (TRACE_HEADER_PMC_COUNTERS_MASK 0x0700 of the u16)
    /// and 0x80 when a PEBS index is present (TRACE_HEADER_PEBS_INDEX_FLAG 0x8000) (GC, NTWMI).
    /// Whether the PEBS index comes before or after the counters is not published: like the only
    /// public decoder that reads it (snail-server), the writer puts it first.
    std::size_t perfinfo(std::uint16_t cpu, std::uint16_t hook_id, std::uint8_t version, std::uint64_t ts,
                         byte_view payload, std::span<std::uint64_t const> pmc = {},
                         std::optional<std::uint64_t> pebs = {}, bool bits32 = false) {
        if (pmc.size() > 7) writer_detail::refuse<std::invalid_argument>("at most 7 PMC counters fit the header's count bits");
        std::size_t const ext = 8 * (pmc.size() + (pebs ? 1U : 0U));
        std::size_t const size = 0x10 + ext + payload.size();
        std::byte* r = begin_record(cpu, size);
        auto const marker = static_cast<std::uint8_t>(pmc.size() | (pebs ? 0x80U : 0U));
        r[0] = static_cast<std::byte>(version);
        r[1] = static_cast<std::byte>(marker);
        r[2] = static_cast<std::byte>(bits32 ? header_type::perfinfo32 : header_type::perfinfo64);
        r[3] = std::byte{0xC0};
        writer_detail::store_le(r + 4, static_cast<std::uint16_t>(size));
        writer_detail::store_le(r + 6, hook_id);
        writer_detail::store_le(r + 8, ts);
        std::size_t at = 0x10;
        if (pebs) {
            writer_detail::store_le(r + at, *pebs);
            at += 8;
        }
        for (auto v : pmc) {
            writer_detail::store_le(r + at, v);
            at += 8;
        }
        copy_payload(r + at, payload);
        end_record(cpu, bits32 ? header_type::perfinfo32 : header_type::perfinfo64, hook_id, ts, true);
        return size;
    }

    /// FULL_HEADER32/64 record: 0x30-byte EVENT_TRACE_HEADER + payload.
    std::size_t full(std::uint16_t cpu, classic_fields const& f, byte_view payload, bool bits32 = false) {
        std::size_t const size = 0x30 + payload.size();
        auto const type = bits32 ? header_type::full_header32 : header_type::full_header64;
        std::byte* r = begin_record(cpu, size);
        store_event_trace_header(r, size, type, f);
        copy_payload(r + 0x30, payload);
        end_record(cpu, type, 0, f.ts, true, false);
        return size;
    }
    /// INSTANCE32/64 record: EVENT_TRACE_HEADER fields, InstanceId @0x30, ParentInstanceId @0x34,
    /// ParentGuid @0x38, payload @0x48 (NTWMI EVENT_INSTANCE_GUID_HEADER).
    std::size_t instance(std::uint16_t cpu, classic_fields const& f, std::uint32_t instance_id,
                         std::uint32_t parent_instance_id, etwctl::guid const& parent_guid, byte_view payload,
                         bool bits32 = false) {
        std::size_t const size = 0x48 + payload.size();
        auto const type = bits32 ? header_type::instance32 : header_type::instance64;
        std::byte* r = begin_record(cpu, size);
        store_event_trace_header(r, size, type, f);
        writer_detail::store_le(r + 0x30, instance_id);
        writer_detail::store_le(r + 0x34, parent_instance_id);
        writer_detail::store_guid(r + 0x38, parent_guid);
        copy_payload(r + 0x48, payload);
        end_record(cpu, type, 0, f.ts, true, false);
        return size;
    }

    /// EVENT_HEADER32/64 record: the 0x50-byte EVENT_HEADER, the extended items, then the user data.
    /// Each item is {u16 item size, u16 ExtType, u16 linkage (bit 0: another item follows), u16
    /// DataSize, data}, starts 8-aligned and is zero-padded to 8 (GC EVENT_HEADER). The item-size
    /// field holds the padded size 8 + align8(DataSize): observed in every item of the real files
    /// (e.g. 24 for a 15-byte PROV_TRAITS, 64 for a 56-byte STACK_TRACE64).
    std::size_t event(std::uint16_t cpu, event_fields const& f, std::span<ext_item const> items, byte_view payload,
                      bool bits32 = false) {
        std::size_t items_size = 0;
        for (auto const& item : items) {
            if (item.data.size() > 0xFFF0) writer_detail::refuse<std::length_error>("extended item too large");
            items_size += 8 + writer_detail::align8(item.data.size());
        }
        std::size_t const size = 0x50 + items_size + payload.size();
        auto const type = bits32 ? header_type::event_header32 : header_type::event_header64;
        std::byte* r = begin_record(cpu, size);
        writer_detail::store_le(r + 0x00, static_cast<std::uint16_t>(size));
        writer_detail::store_le(r + 0x02, static_cast<std::uint16_t>(0xC000U | type));
        writer_detail::store_le(r + 0x04, static_cast<std::uint16_t>(f.flags | (items.empty() ? 0U : 1U)));
        writer_detail::store_le(r + 0x06, f.event_property);
        writer_detail::store_le(r + 0x08, f.tid);
        writer_detail::store_le(r + 0x0C, f.pid);
        writer_detail::store_le(r + 0x10, f.ts);
        writer_detail::store_guid(r + 0x18, f.provider);
        writer_detail::store_le(r + 0x28, f.id);
        r[0x2A] = static_cast<std::byte>(f.version);
        r[0x2B] = static_cast<std::byte>(f.channel);
        r[0x2C] = static_cast<std::byte>(f.level);
        r[0x2D] = static_cast<std::byte>(f.opcode);
        writer_detail::store_le(r + 0x2E, f.task);
        writer_detail::store_le(r + 0x30, f.keyword);
        writer_detail::store_le(r + 0x38, f.kernel_time);
        writer_detail::store_le(r + 0x3C, f.user_time);
        writer_detail::store_guid(r + 0x40, f.activity);
        std::size_t at = 0x50;
        for (std::size_t i = 0; i < items.size(); ++i) {
            auto const data_size = items[i].data.size();
            auto const item_size = 8 + writer_detail::align8(data_size);
            writer_detail::store_le(r + at, static_cast<std::uint16_t>(item_size));
            writer_detail::store_le(r + at + 2, items[i].type);
            writer_detail::store_le(r + at + 4, static_cast<std::uint16_t>(i + 1 < items.size() ? 1 : 0));
            writer_detail::store_le(r + at + 6, static_cast<std::uint16_t>(data_size));
            copy_payload(r + at + 8, items[i].data);
            at += item_size; // the padding is already zero (begin_record)
        }
        copy_payload(r + at, payload);
        end_record(cpu, type, 0, f.ts, true, false);
        return size;
    }

    /// MESSAGE (WPP / TraceMessage) record: 8-byte MESSAGE_TRACE_HEADER {Size, Reserved 0, 0x90,
    /// MessageNumber, OptionFlags}, the optional fields the flags select, then the argument bytes
    /// (GC MESSAGE_TRACE_HEADER, NTWMI). The timestamp may be unaligned (after a u32 sequence).
    std::size_t message(std::uint16_t cpu, message_fields const& f, byte_view args) {
        bool const has_seq = (f.option_flags & message_flag::sequence) != 0;
        bool const has_component = (f.option_flags & message_flag::component_id) != 0;
        bool const has_guid = !has_component && (f.option_flags & message_flag::guid) != 0;
        bool const has_ts = (f.option_flags & message_flag::timestamp) != 0;
        bool const has_sysinfo = (f.option_flags & message_flag::system_info) != 0;
        std::size_t const fields_size = (has_seq ? 4U : 0U) + (has_component ? 4U : 0U) + (has_guid ? 16U : 0U) +
                                        (has_ts ? 8U : 0U) + (has_sysinfo ? 8U : 0U);
        std::size_t const size = 8 + fields_size + args.size();
        std::byte* r = begin_record(cpu, size);
        writer_detail::store_le(r, static_cast<std::uint16_t>(size));
        r[2] = std::byte{0};    // Reserved (NTWMI: "unused and reserved")
        r[3] = std::byte{0x90}; // TRACE_HEADER_FLAG | TRACE_MESSAGE, TRACE_HEADER_EVENT_TRACE clear
        writer_detail::store_le(r + 4, f.message_number);
        writer_detail::store_le(r + 6, f.option_flags);
        std::size_t at = 8;
        if (has_seq) {
            writer_detail::store_le(r + at, f.sequence);
            at += 4;
        }
        if (has_component) {
            writer_detail::store_le(r + at, f.component_id);
            at += 4;
        } else if (has_guid) {
            writer_detail::store_guid(r + at, f.message_guid);
            at += 16;
        }
        if (has_ts) {
            writer_detail::store_le(r + at, f.ts);
            at += 8;
        }
        if (has_sysinfo) {
            writer_detail::store_le(r + at, f.tid);
            writer_detail::store_le(r + at + 4, f.pid);
            at += 8;
        }
        copy_payload(r + at, args);
        end_record(cpu, header_type::message, 0, f.ts, has_ts, false);
        return size;
    }

    /// Any bytes as one record (hostile tests): copied as given, padded with zeros to 8; the buffer's
    /// TimeStamp is not changed. The bytes may claim any size; the walk of the buffer is the test's.
    std::size_t raw(std::uint16_t cpu, byte_view record) {
        if (record.empty()) writer_detail::refuse<std::invalid_argument>("a raw record needs at least one byte");
        std::byte* r = begin_record(cpu, record.size());
        copy_payload(r, record);
        ++raw_records_;
        ++records_;
        ++cpu_slot(cpu).records;
        ++count_for_cpu(cpu);
        return record.size();
    }

    /// Closes processor `cpu`'s buffer now (even an empty one) and writes it to the file; the next
    /// record of that processor starts a new buffer. `extra_flags` are OR-ed into its BufferFlag
    /// (e.g. buffer_flag::events_lost or flush_marker).
    void flush(std::uint16_t cpu, std::uint16_t extra_flags = 0) {
        check_open();
        flush_slot(cpu, extra_flags);
    }

    /// The next buffer written gets a SequenceNumber one higher than it would have: a gap, as a
    /// buffer lost between two written ones leaves.
    void skip_sequence() noexcept { ++next_sequence_; }

    /// The size the file would have if finished now, or a little less: the buffers written, plus each
    /// open non-empty buffer at its full size (uncompressed) or at its 0x48-byte header (compressed).
    std::size_t size_so_far() const noexcept { return file_.size() + open_bytes_; }

    /// Writes the open buffers (processor order), then the header buffer at the front; returns the
    /// file. The writer is spent afterwards (counts() stays valid).
    std::vector<std::byte> finish() {
        check_open();
        for (std::size_t cpu = 0; cpu < cpus_.size(); ++cpu) {
            if (cpus_[cpu].records != 0) flush_slot(static_cast<std::uint16_t>(cpu), 0);
        }
        write_header_buffer();
        finished_ = true;
        return std::move(file_);
    }

    trace_counts const& counts() {
        counts_.by_header_type.clear();
        for (std::size_t t = 0; t < type_counts_.size(); ++t)
            if (type_counts_[t] != 0) counts_.by_header_type[static_cast<std::uint8_t>(t)] = type_counts_[t];
        counts_.by_hook.clear();
        for (std::size_t h = 0; h < hook_counts_.size(); ++h)
            if (hook_counts_[h] != 0) counts_.by_hook[static_cast<std::uint16_t>(h)] = hook_counts_[h];
        counts_.by_cpu.clear();
        for (std::size_t c = 0; c < cpu_counts_.size(); ++c)
            if (cpu_counts_[c] != 0) counts_.by_cpu[static_cast<std::uint16_t>(c)] = cpu_counts_[c];
        counts_.records = records_;
        counts_.raw_records = raw_records_;
        counts_.records_per_buffer.clear();
        counts_.buffer_offsets.clear();
        if (finished_) {
            counts_.records_per_buffer.push_back(header_records_);
            counts_.buffer_offsets.push_back(0);
        }
        counts_.records_per_buffer.insert(counts_.records_per_buffer.end(), buffer_records_.begin(),
                                          buffer_records_.end());
        counts_.buffer_offsets.insert(counts_.buffer_offsets.end(), buffer_offsets_.begin(), buffer_offsets_.end());
        counts_.buffers = counts_.records_per_buffer.size();
        return counts_;
    }

private:
    struct cpu_buffer {
        bytes data;               // buffer_size bytes once used; records from 0x48
        std::size_t used = buffer_header_size;
        std::uint32_t records = 0;
        std::uint64_t last_ts = 0;
        bool started = false;     // counted in open_bytes_
    };

    trace_options opt_;
    bytes file_;
    std::vector<cpu_buffer> cpus_;
    std::size_t open_bytes_ = 0;
    std::uint64_t next_sequence_ = 1; // the header buffer is 0 (observed)
    std::uint64_t max_ts_ = 0;
    bool any_ts_ = false;
    bool finished_ = false;
    // counts, kept as flat arrays so that counting costs nothing in the generator's hot loop
    std::array<std::uint64_t, 256> type_counts_{};
    std::vector<std::uint64_t> hook_counts_;
    std::vector<std::uint64_t> cpu_counts_;
    std::uint64_t records_ = 0, raw_records_ = 0;
    std::uint32_t header_records_ = 0;
    std::vector<std::uint32_t> buffer_records_;
    std::vector<std::size_t> buffer_offsets_;
    trace_counts counts_;

    void check_open() const {
        if (finished_) writer_detail::refuse<std::logic_error>("trace_writer: already finished");
    }
    cpu_buffer& cpu_slot(std::uint16_t cpu) {
        if (cpu >= cpus_.size()) cpus_.resize(std::size_t{cpu} + 1);
        return cpus_[cpu];
    }
    std::uint64_t& count_for_cpu(std::uint16_t cpu) {
        if (cpu >= cpu_counts_.size()) cpu_counts_.resize(std::size_t{cpu} + 1, 0);
        return cpu_counts_[cpu];
    }

    /// Room for one record of `size` bytes in `cpu`'s buffer (a new buffer when it does not fit), all
    /// zero: the alignment padding after the record and between extended items is zero (observed).
    std::byte* begin_record(std::uint16_t cpu, std::size_t size) {
        check_open();
        std::size_t const aligned = writer_detail::align8(size);
        if (size > 0xFFFF || aligned > opt_.buffer_size - buffer_header_size)
            writer_detail::refuse<std::length_error>("record does not fit a buffer (or its u16 size)");
        cpu_buffer* b = &cpu_slot(cpu);
        if (b->used + aligned > opt_.buffer_size) {
            flush_slot(cpu, 0);
            b = &cpus_[cpu];
        }
        if (b->data.size() != opt_.buffer_size) b->data.resize(opt_.buffer_size);
        if (!b->started) {
            b->started = true;
            open_bytes_ += opt_.compress ? buffer_header_size : opt_.buffer_size;
        }
        std::byte* r = b->data.data() + b->used;
        std::memset(r, 0, aligned);
        b->used += aligned;
        return r;
    }
    static void copy_payload(std::byte* at, byte_view payload) noexcept {
        if (!payload.empty()) std::memcpy(at, payload.data(), payload.size());
    }
    void end_record(std::uint16_t cpu, std::uint8_t type, std::uint16_t hook_id, std::uint64_t ts, bool has_ts,
                    bool has_hook = true) {
        cpu_buffer& b = cpus_[cpu];
        ++b.records;
        if (has_ts) {
            b.last_ts = ts;
            if (!any_ts_ || ts > max_ts_) max_ts_ = ts;
            any_ts_ = true;
        }
        ++type_counts_[type];
        if (has_hook) ++hook_counts_[hook_id];
        ++count_for_cpu(cpu);
        ++records_;
    }

    std::size_t system_like(std::uint16_t cpu, system_fields const& f, byte_view payload, std::uint8_t type,
                            std::size_t header_size) {
        std::size_t const size = header_size + payload.size();
        std::byte* r = begin_record(cpu, size);
        store_system_header(r, size, type, f, header_size == 0x20);
        copy_payload(r + header_size, payload);
        end_record(cpu, type, f.hook, f.ts, true);
        return size;
    }
    /// SYSTEM_TRACE_HEADER (GC): Version u16, HeaderType, Flags 0xC0, Packet {Size, HookId}, ThreadId,
    /// ProcessId, SystemTime, then KernelTime/UserTime (SYSTEM only, not COMPACT).
    static void store_system_header(std::byte* r, std::size_t size, std::uint8_t type, system_fields const& f,
                                    bool with_times) noexcept {
        writer_detail::store_le(r + 0x00, std::uint16_t{f.version});
        r[2] = static_cast<std::byte>(type);
        r[3] = std::byte{0xC0};
        writer_detail::store_le(r + 0x04, static_cast<std::uint16_t>(size));
        writer_detail::store_le(r + 0x06, f.hook);
        writer_detail::store_le(r + 0x08, f.tid);
        writer_detail::store_le(r + 0x0C, f.pid);
        writer_detail::store_le(r + 0x10, f.ts);
        if (with_times) {
            writer_detail::store_le(r + 0x18, f.kernel_time);
            writer_detail::store_le(r + 0x1C, f.user_time);
        }
    }
    /// EVENT_TRACE_HEADER (SDK evntrace.h, GC): Size, HeaderType, MarkerFlags 0xC0, Class {Type, Level,
    /// Version}, ThreadId, ProcessId, TimeStamp, Guid, KernelTime, UserTime.
    static void store_event_trace_header(std::byte* r, std::size_t size, std::uint8_t type,
                                         classic_fields const& f) noexcept {
        writer_detail::store_le(r + 0x00, static_cast<std::uint16_t>(size));
        r[2] = static_cast<std::byte>(type);
        r[3] = std::byte{0xC0};
        r[4] = static_cast<std::byte>(f.type);
        r[5] = static_cast<std::byte>(f.level);
        writer_detail::store_le(r + 0x06, f.version);
        writer_detail::store_le(r + 0x08, f.tid);
        writer_detail::store_le(r + 0x0C, f.pid);
        writer_detail::store_le(r + 0x10, f.ts);
        writer_detail::store_guid(r + 0x18, f.event_guid);
        writer_detail::store_le(r + 0x28, f.kernel_time);
        writer_detail::store_le(r + 0x2C, f.user_time);
    }

    /// WMI_BUFFER_HEADER (GC; NTWMI). Offsets: BufferSize 0, SavedOffset 4, CurrentOffset 8,
    /// ReferenceCount 0xC, TimeStamp 0x10, SequenceNumber 0x18, (clock/links) 0x20, ClientContext
    /// {ProcessorIndex 0x28, LoggerId 0x2A}, State 0x2C, Offset (FilledBytes) 0x30, BufferFlag 0x34,
    /// BufferType 0x36, (pointers) 0x38.
    void store_buffer_header(std::byte* h, std::uint32_t buffer_size, std::uint32_t end, std::uint32_t current,
                             std::uint64_t ts, std::uint64_t sequence, std::uint16_t cpu, std::uint16_t flags,
                             std::uint16_t type) const noexcept {
        std::memset(h, 0, buffer_header_size);
        // Without PROC_INDEX only the low byte (ProcessorNumber) means anything; processors above 255
        // need the full index, so the flag is set for them whatever the options say.
        if (cpu > 0xFF) flags = static_cast<std::uint16_t>(flags | buffer_flag::proc_index);
        writer_detail::store_le(h + 0x00, buffer_size);
        writer_detail::store_le(h + 0x04, end);     // SavedOffset
        writer_detail::store_le(h + 0x08, current); // CurrentOffset: the live cursor, ignored by readers
        writer_detail::store_le(h + 0x10, ts);
        writer_detail::store_le(h + 0x18, sequence);
        if ((flags & buffer_flag::proc_index) != 0) writer_detail::store_le(h + 0x28, cpu);
        else h[0x28] = static_cast<std::byte>(cpu & 0xFF); // ProcessorNumber; Alignment (0x29) stays 0
        writer_detail::store_le(h + 0x2A, opt_.logger_id);
        writer_detail::store_le(h + 0x2C, std::uint32_t{3}); // State: EtwBufferStateFlush (GC; observed in all files)
        writer_detail::store_le(h + 0x30, end);              // Offset = FilledBytes (SDK ETW_BUFFER_HEADER)
        writer_detail::store_le(h + 0x34, flags);
        writer_detail::store_le(h + 0x36, type);
    }

    void flush_slot(std::uint16_t cpu, std::uint16_t extra_flags) {
        cpu_buffer& b = cpu_slot(cpu);
        if (b.data.size() != opt_.buffer_size) b.data.resize(opt_.buffer_size);
        auto const end = static_cast<std::uint32_t>(b.used);
        auto flags = static_cast<std::uint16_t>(opt_.buffer_flags | extra_flags);
        std::byte* h = b.data.data();
        std::uint64_t const sequence = next_sequence_++;
        buffer_offsets_.push_back(file_.size());
        buffer_records_.push_back(b.records);
        if (!opt_.compress) {
            // Observed in live files: CurrentOffset = BufferSize + SavedOffset; the unused tail is 0xFF.
            store_buffer_header(h, opt_.buffer_size, end, opt_.buffer_size + end, b.last_ts, sequence, cpu, flags,
                                buffer_type::generic);
            std::memset(h + end, 0xFF, opt_.buffer_size - end);
            store_stale_pointers(h, cpu);
            file_.insert(file_.end(), b.data.begin(), b.data.end());
        } else {
#if ETWCTL_TEST_WRITER_HAS_LZ77
            // [0x48, BufferSize) is one Plain LZ77 stream of the [0x48, SavedOffset) records; BufferSize
            // = 0x48 + stream length, SavedOffset = Offset = 0x48 + uncompressed bytes (observed).
            auto const stream = lz77_compress(byte_view{h + buffer_header_size, end - buffer_header_size});
            auto const stored = static_cast<std::uint32_t>(buffer_header_size + stream.size());
            flags = static_cast<std::uint16_t>(flags | buffer_flag::compressed);
            store_buffer_header(h, stored, end, opt_.buffer_size + end, b.last_ts, sequence, cpu, flags,
                                buffer_type::generic);
            store_stale_pointers(h, cpu);
            file_.insert(file_.end(), h, h + buffer_header_size);
            file_.insert(file_.end(), stream.begin(), stream.end());
#endif
        }
        if (b.started) open_bytes_ -= opt_.compress ? buffer_header_size : opt_.buffer_size;
        b.used = buffer_header_size;
        b.records = 0;
        b.last_ts = 0;
        b.started = false;
    }
    /// 0x38..0x47 hold kernel pointers (list links, ETW_REF_CLOCK) in memory: stale, non-zero values in
    /// the data buffers of live files (observed), zero in the header buffer. Readers must ignore them.
    static void store_stale_pointers(std::byte* h, std::uint16_t cpu) noexcept {
        writer_detail::store_le(h + 0x38, 0xFFFFE30188BEC038ULL + std::uint64_t{cpu} * 0x1000);
        writer_detail::store_le(h + 0x40, 0xFFFFE301AFBE4660ULL + std::uint64_t{cpu} * 0x1000);
    }

    /// EndTime from the last timestamp, converted as TraceEvent and dissect.etl convert timestamps:
    /// StartTime + (ts - header timestamp) * scale, scale = 10^7 / PerfFreq (clock 1; also used for
    /// 0), 1 (clock 2, already 100 ns), 10 / CpuSpeedInMHz (clock 3). Exact integer arithmetic.
    std::uint64_t computed_end_time() const noexcept {
        if (!any_ts_ || max_ts_ <= opt_.header_timestamp) return opt_.start_time;
        std::uint64_t const delta = max_ts_ - opt_.header_timestamp;
        auto const scale = [delta](std::uint64_t num, std::uint64_t den) {
            if (den == 0) den = 1;
            return (delta / den) * num + (delta % den) * num / den;
        };
        if (opt_.clock_type == 2) return opt_.start_time + delta;
        if (opt_.clock_type == 3) return opt_.start_time + scale(10, opt_.cpu_mhz);
        return opt_.start_time + scale(10'000'000, opt_.perf_freq);
    }

    void write_header_buffer();
};

// ---------------------------------------------------------------------------------------------------
// The header event's payload: TRACE_LOGFILE_HEADER + logger name + log file name (GC TRACE_LOGFILE_HEADER,
// SDK evntrace.h field list), and the HeaderExtension's (GC ETW_KERNEL_HEADER_EXTENSION)
// ---------------------------------------------------------------------------------------------------

struct logfile_header_fields {
    std::uint32_t buffers_written = 0;
    std::uint64_t end_time = 0;
};

/// TRACE_LOGFILE_HEADER in the 32-bit (p = 4) or 64-bit (p = 8) form: the two forms differ only from
/// LoggerName on (two pointer slots, so TimeZone sits at 0x40 / 0x48 and everything after it 8 bytes
/// later in the 64-bit form). The pointer slots are written as 0 (relogged files; live files reuse
/// them for timer-source values).
inline bytes logfile_header_payload(trace_options const& o, logfile_header_fields const& f) {
    using namespace writer_detail;
    check_pointer_size(o.pointer_size);
    std::uint8_t const p = o.pointer_size;
    // Log-file layout version in SubVersion.SubMinorVersion (GC TRACE_LOGFILE_HEADER): 1.5 since 6.1;
    // 2.0 since 6.2 when compressed, with buffers above 1 MB, or with more than 256 processors.
    bool const layout2 = o.compress || o.buffer_size > 0x100000 || o.processors > 256;
    bytes out;
    out.reserve(0x118 + 2 * (o.logger_name.size() + o.log_file_name.size() + 2));
    put(out, o.buffer_size);                                              // 0x00 BufferSize
    out.push_back(std::byte{o.os_major});                                 // 0x04 MajorVersion
    out.push_back(std::byte{o.os_minor});                                 // 0x05 MinorVersion
    out.push_back(std::byte{static_cast<std::uint8_t>(layout2 ? 2 : 1)}); // 0x06 SubVersion
    out.push_back(std::byte{static_cast<std::uint8_t>(layout2 ? 0 : 5)}); // 0x07 SubMinorVersion
    put(out, o.provider_version);                                         // 0x08 ProviderVersion
    put(out, o.processors);                                               // 0x0C NumberOfProcessors
    put(out, f.end_time);                                                 // 0x10 EndTime
    put(out, std::uint32_t{156250});                                      // 0x18 TimerResolution (15.625 ms)
    put(out, std::uint32_t{0});                                           // 0x1C MaximumFileSize
    put(out, o.log_file_mode | (o.compress ? event_trace_compressed_mode : 0U)); // 0x20 LogFileMode
    put(out, f.buffers_written);                                          // 0x24 BuffersWritten
    put(out, std::uint32_t{1});                                           // 0x28 StartBuffers (observed 1)
    put(out, std::uint32_t{p});                                           // 0x2C PointerSize
    put(out, o.events_lost);                                              // 0x30 EventsLost
    put(out, o.cpu_mhz);                                                  // 0x34 CpuSpeedInMHz
    put_ptr(out, p, 0);                                                   // 0x38 LoggerName slot
    put_ptr(out, p, 0);                                                   // 0x3C / 0x40 LogFileName slot
    auto const tz = out.size();                                           // 0x40 / 0x48 TimeZone (0xAC)
    out.resize(tz + 0xAC + 4, std::byte{0});                              //   + 4 bytes padding to 8
    store_le(out.data() + tz, o.time_zone_bias);                          //   Bias; names and dates zero
    put(out, o.boot_time);                                                // 0xF0 / 0xF8 BootTime
    put(out, o.perf_freq);                                                // 0xF8 / 0x100 PerfFreq
    put(out, o.start_time);                                               // 0x100 / 0x108 StartTime
    put(out, o.clock_type);                                               // 0x108 / 0x110 ReservedFlags
    put(out, o.buffers_lost);                                             // 0x10C / 0x114 BuffersLost
    put_utf16z(out, o.logger_name);                                       // 0x110 / 0x118
    put_utf16z(out, o.log_file_name);
    return out;
}

/// ETW_KERNEL_HEADER_EXTENSION: GroupMasks u32[8], KernelEventVersion u32 (0x24 bytes; GC).
inline bytes header_extension_payload(std::array<std::uint32_t, 8> const& group_masks,
                                      std::uint32_t kernel_event_version) {
    bytes out;
    for (auto m : group_masks) writer_detail::put(out, m);
    writer_detail::put(out, kernel_event_version);
    return out;
}

inline void trace_writer::write_header_buffer() {
    // Built in a buffer of its own, then copied over the placeholder at the front of the file.
    std::uint32_t const size = opt_.header_buffer_size;
    bool const bits32 = opt_.pointer_size == 4;
    std::uint64_t const end_time = opt_.end_time ? *opt_.end_time : computed_end_time();
    // BuffersWritten counts the header buffer too (observed in all six public files).
    auto const buffers_written = static_cast<std::uint32_t>(buffer_records_.size() + 1);
    bytes const header = logfile_header_payload(opt_, {buffers_written, end_time});
    bytes const extension = header_extension_payload(opt_.group_masks, opt_.kernel_event_version);

    bytes buffer(size, std::byte{0xFF});
    std::size_t at = buffer_header_size;
    auto place = [&](std::size_t record_size) {
        std::size_t const aligned = writer_detail::align8(record_size);
        if (record_size > 0xFFFF || at + aligned > size) writer_detail::refuse<std::length_error>("header buffer too small");
        std::byte* r = buffer.data() + at;
        std::memset(r, 0, aligned);
        at += aligned;
        return r;
    };
    // The header event: SYSTEM header, Version 2 (since 6.0), HookId 0 (GC TRACE_LOGFILE_HEADER).
    system_fields const hf{hook::header, 2, opt_.header_tid, opt_.header_pid, opt_.header_timestamp, 0, 0};
    std::uint8_t const sys_type = bits32 ? header_type::system32 : header_type::system64;
    {
        std::byte* r = place(0x20 + header.size());
        store_system_header(r, 0x20 + header.size(), sys_type, hf, true);
        std::memcpy(r + 0x20, header.data(), header.size());
    }
    header_records_ = 1;
    ++type_counts_[sys_type];
    ++hook_counts_[hook::header];
    // A system logger's second event is the HeaderExtension (GC ETW_KERNEL_HEADER_EXTENSION).
    if (opt_.system_logger) {
        if (opt_.header_extension_perfinfo) {
            std::uint8_t const type = bits32 ? header_type::perfinfo32 : header_type::perfinfo64;
            std::byte* r = place(0x10 + extension.size());
            r[0] = std::byte{2};
            r[2] = static_cast<std::byte>(type);
            r[3] = std::byte{0xC0};
            writer_detail::store_le(r + 4, static_cast<std::uint16_t>(0x10 + extension.size()));
            writer_detail::store_le(r + 6, hook::header_extension);
            writer_detail::store_le(r + 8, opt_.header_timestamp);
            std::memcpy(r + 0x10, extension.data(), extension.size());
            ++type_counts_[type];
        } else {
            system_fields ef = hf;
            ef.hook = hook::header_extension;
            std::byte* r = place(0x20 + extension.size());
            store_system_header(r, 0x20 + extension.size(), sys_type, ef, true);
            std::memcpy(r + 0x20, extension.data(), extension.size());
            ++type_counts_[sys_type];
        }
        ++header_records_;
        ++hook_counts_[hook::header_extension];
    }
    records_ += header_records_;
    count_for_cpu(0) += header_records_;
    auto const end = static_cast<std::uint32_t>(at);
    // Observed in live files: header buffer TimeStamp 0, SequenceNumber 0, processor 0, CurrentOffset
    // = SavedOffset, BufferFlag with FLUSH_MARKER (0x21 live, 0x01 relogged), BufferType HEADER.
    store_buffer_header(buffer.data(), size, end, end, 0, 0, 0,
                        static_cast<std::uint16_t>(opt_.buffer_flags | buffer_flag::flush_marker), buffer_type::header);
    std::memcpy(file_.data(), buffer.data(), size);
}

// ---------------------------------------------------------------------------------------------------
// Kernel payload builders (layouts: see each; p = pointer size 4 or 8). Each appends to `out` (no
// allocation once `out` has grown: the generator's hot loop reuses one vector) and has a form that
// returns a new vector.
// ---------------------------------------------------------------------------------------------------

/// SampledProfile (0x0F2E v2; NTWMI PERFINFO_SAMPLED_PROFILE_INFORMATION): InstructionPointer p,
/// ThreadId u32, Count u16, Flags u8 (ExecutingDpc, ExecutingIsr, Priority << 3), Rank u8.
inline void append_sampled_profile(bytes& out, std::uint8_t p, std::uint64_t ip, std::uint32_t tid,
                                   std::uint16_t count = 1, std::uint8_t flags = 0, std::uint8_t rank = 0) {
    writer_detail::put_ptr(out, p, ip);
    writer_detail::put(out, tid);
    writer_detail::put(out, count);
    writer_detail::put(out, flags);
    writer_detail::put(out, rank);
}
inline bytes sampled_profile_payload(std::uint8_t p, std::uint64_t ip, std::uint32_t tid, std::uint16_t count = 1,
                                     std::uint8_t flags = 0, std::uint8_t rank = 0) {
    bytes out;
    append_sampled_profile(out, p, ip, tid, count, flags, rank);
    return out;
}

/// PmcCounterProfile (0x0F2F v2; NTWMI PERFINFO_PMC_SAMPLE_INFORMATION): InstructionPointer p,
/// ThreadId u32, ProfileSource u16, Reserved u16.
inline bytes pmc_counter_profile_payload(std::uint8_t p, std::uint64_t ip, std::uint32_t tid,
                                         std::uint16_t profile_source) {
    bytes out;
    writer_detail::put_ptr(out, p, ip);
    writer_detail::put(out, tid);
    writer_detail::put(out, profile_source);
    writer_detail::put(out, std::uint16_t{0});
    return out;
}

/// PmcCounterConfig (0x0F30 v2; observed layout): CounterCount u32, then that many UTF-16 names.
inline bytes pmc_counter_config_payload(std::span<std::u16string const> names) {
    bytes out;
    writer_detail::put(out, static_cast<std::uint32_t>(names.size()));
    for (auto const& n : names) writer_detail::put_utf16z(out, n);
    return out;
}

/// SampledProfile interval events (0x0F48 SetInterval, 0x0F49 CollectionStart, 0x0F4A CollectionEnd;
/// NTWMI PERFINFO_SAMPLED_PROFILE_CONFIG): Source u32, NewInterval u32, OldInterval u32 (100 ns units),
/// and from version 3 the SourceName (UTF-16). Pass version 2 to leave the name out.
inline bytes sampled_profile_interval_payload(std::uint8_t version, std::uint32_t source, std::uint32_t new_interval,
                                              std::uint32_t old_interval, std::u16string_view source_name = u"Timer") {
    bytes out;
    writer_detail::put(out, source);
    writer_detail::put(out, new_interval);
    writer_detail::put(out, old_interval);
    if (version >= 3) writer_detail::put_utf16z(out, source_name);
    return out;
}

/// CSwitch (0x0524, 0x18 bytes since 6.0; GC WMI_CONTEXTSWAP, MSL CSwitch).
struct cswitch_fields {
    std::uint32_t new_thread_id = 0, old_thread_id = 0;
    std::int8_t new_thread_priority = 8, old_thread_priority = 8;
    std::uint8_t previous_c_state = 0;
    std::uint8_t old_thread_wait_reason = 0; // KWAIT_REASON
    std::uint8_t old_thread_wait_mode = 0;   // bit 0 wait mode; 1709+: QoS bits
    std::uint8_t old_thread_state = 5;       // 5 = Waiting
    std::uint8_t old_thread_wait_ideal_processor = 0;
    std::uint32_t new_thread_wait_time = 0;
    std::int32_t old_thread_remaining_quantum = 0;
};
inline void append_cswitch(bytes& out, cswitch_fields const& f) {
    using writer_detail::put;
    put(out, f.new_thread_id);
    put(out, f.old_thread_id);
    put(out, static_cast<std::uint8_t>(f.new_thread_priority));
    put(out, static_cast<std::uint8_t>(f.old_thread_priority));
    put(out, f.previous_c_state);
    put(out, std::uint8_t{0}); // SpareByte
    put(out, f.old_thread_wait_reason);
    put(out, f.old_thread_wait_mode);
    put(out, f.old_thread_state);
    put(out, f.old_thread_wait_ideal_processor);
    put(out, f.new_thread_wait_time);
    put(out, static_cast<std::uint32_t>(f.old_thread_remaining_quantum));
}
inline bytes cswitch_payload(cswitch_fields const& f) {
    bytes out;
    append_cswitch(out, f);
    return out;
}

/// ReadyThread (0x0532; MSL ReadyThread, NTWMI ETW_READY_THREAD_EVENT): TThreadId u32, AdjustReason
/// i8, AdjustIncrement i8, Flags u8, Reserved u8.
inline void append_ready_thread(bytes& out, std::uint32_t tid, std::int8_t adjust_reason = 1,
                                std::int8_t adjust_increment = 0, std::uint8_t flags = 0) {
    writer_detail::put(out, tid);
    writer_detail::put(out, static_cast<std::uint8_t>(adjust_reason));
    writer_detail::put(out, static_cast<std::uint8_t>(adjust_increment));
    writer_detail::put(out, flags);
    writer_detail::put(out, std::uint8_t{0});
}
inline bytes ready_thread_payload(std::uint32_t tid, std::int8_t adjust_reason = 1, std::int8_t adjust_increment = 0,
                                  std::uint8_t flags = 0) {
    bytes out;
    append_ready_thread(out, tid, adjust_reason, adjust_increment, flags);
    return out;
}

/// Thread_TypeGroup1 v3 (0x0501..0x0504; NTWMI WMI_EXTENDED_THREAD_INFORMATION, MSL field list):
/// ProcessId, ThreadId, 7 pointers, SubProcessTag, BasePriority, PagePriority, IoPriority,
/// ThreadFlags, then the ThreadName (UTF-16) only when `name` is given. 0x48 bytes (x64) / 0x2C (x86).
struct thread_fields {
    std::uint32_t pid = 0, tid = 0;
    std::uint64_t stack_base = 0, stack_limit = 0, user_stack_base = 0, user_stack_limit = 0;
    std::uint64_t affinity = 0, win32_start_addr = 0, teb_base = 0;
    std::uint32_t sub_process_tag = 0;
    std::int8_t base_priority = 8;
    std::uint8_t page_priority = 5, io_priority = 2, thread_flags = 0;
    std::optional<std::u16string> name;
};
inline bytes thread_payload(std::uint8_t p, thread_fields const& f) {
    using namespace writer_detail;
    check_pointer_size(p);
    bytes out;
    put(out, f.pid);
    put(out, f.tid);
    for (auto v : {f.stack_base, f.stack_limit, f.user_stack_base, f.user_stack_limit, f.affinity,
                   f.win32_start_addr, f.teb_base})
        put_ptr(out, p, v);
    put(out, f.sub_process_tag);
    put(out, static_cast<std::uint8_t>(f.base_priority));
    put(out, f.page_priority);
    put(out, f.io_priority);
    put(out, f.thread_flags);
    if (f.name) put_utf16z(out, *f.name);
    return out;
}

/// Process_TypeGroup1 (0x0301..0x0304; NTWMI WMI_PROCESS_INFORMATION): UniqueProcessKey p, ProcessId,
/// ParentId, SessionId, ExitStatus, DirectoryTableBase p, Flags u32 (v4+), UserSID, ImageFileName
/// (ANSI), CommandLine (UTF-16), and from v4 PackageFullName and ApplicationId (UTF-16).
/// UserSID: empty `sid` writes the 4-byte 0 "no SID"; otherwise a TOKEN_USER of 2p bytes (non-zero
/// Sid pointer, Attributes 0) then the SID bytes as given (MSL Event Tracing MOF Qualifiers "Sid").
struct process_fields {
    std::uint64_t unique_process_key = 0;
    std::uint32_t pid = 0, parent_id = 0, session_id = 0;
    std::int32_t exit_status = 259; // STILL_ACTIVE on Start / DCStart
    std::uint64_t directory_table_base = 0;
    std::uint32_t flags = 0;
    bytes sid; // e.g. sid_bytes(5, {18}) for S-1-5-18
    std::string image_file_name;
    std::u16string command_line, package_full_name, application_id;
};
/// A SID: Revision 1, SubAuthorityCount, IdentifierAuthority (6 bytes, big-endian), SubAuthority u32[].
inline bytes sid_bytes(std::uint8_t authority, std::span<std::uint32_t const> sub_authorities) {
    bytes out;
    out.push_back(std::byte{1});
    out.push_back(static_cast<std::byte>(sub_authorities.size()));
    for (int i = 0; i < 5; ++i) out.push_back(std::byte{0});
    out.push_back(static_cast<std::byte>(authority));
    for (auto s : sub_authorities) writer_detail::put(out, s);
    return out;
}
inline bytes process_payload(std::uint8_t p, std::uint8_t version, process_fields const& f) {
    using namespace writer_detail;
    check_pointer_size(p);
    bytes out;
    put_ptr(out, p, f.unique_process_key);
    put(out, f.pid);
    put(out, f.parent_id);
    put(out, f.session_id);
    put(out, static_cast<std::uint32_t>(f.exit_status));
    put_ptr(out, p, f.directory_table_base);
    if (version >= 4) put(out, f.flags);
    if (f.sid.empty()) {
        put(out, std::uint32_t{0});
    } else {
        put_ptr(out, p, 0xFFFFC0010000A000ULL); // TOKEN_USER.User.Sid: a pointer, never 0
        put(out, std::uint32_t{0});              // TOKEN_USER.User.Attributes
        if (p == 8) put(out, std::uint32_t{0});  // padding of TOKEN_USER to 2p
        put_bytes(out, f.sid);
    }
    put_ansiz(out, f.image_file_name);
    put_utf16z(out, f.command_line);
    if (version >= 4) {
        put_utf16z(out, f.package_full_name);
        put_utf16z(out, f.application_id);
    }
    return out;
}

/// Image_Load (0x030A Load, 0x1402..0x1404; NTWMI WMI_IMAGELOAD_INFORMATION): ImageBase p, ImageSize p,
/// ProcessId, ImageChecksum, TimeDateStamp, SignatureLevel u8, SignatureType u8, Reserved0 u16,
/// DefaultBase p, Reserved1..4 u32, FileName (UTF-16) at 3p + 0x20 (0x38 on x64, 0x2C on x86).
struct image_fields {
    std::uint64_t image_base = 0, image_size = 0;
    std::uint32_t pid = 0, image_checksum = 0, time_date_stamp = 0;
    std::uint8_t signature_level = 0, signature_type = 0;
    std::uint64_t default_base = 0;
    std::u16string file_name;
};
inline bytes image_payload(std::uint8_t p, image_fields const& f) {
    using namespace writer_detail;
    check_pointer_size(p);
    bytes out;
    put_ptr(out, p, f.image_base);
    put_ptr(out, p, f.image_size);
    put(out, f.pid);
    put(out, f.image_checksum);
    put(out, f.time_date_stamp);
    put(out, f.signature_level);
    put(out, f.signature_type);
    put(out, std::uint16_t{0});
    put_ptr(out, p, f.default_base);
    for (int i = 0; i < 4; ++i) put(out, std::uint32_t{0});
    put_utf16z(out, f.file_name);
    return out;
}

/// Stack (0x1820; MSL StackWalk_Event, NTWMI STACK_WALK_EVENT_DATA): EventTimeStamp u64, StackProcess
/// u32, StackThread u32, then the frames (p bytes each; frame 0 = the deepest, the IP).
inline void append_stack_walk(bytes& out, std::uint8_t p, std::uint64_t event_ts, std::uint32_t pid,
                              std::uint32_t tid, std::span<std::uint64_t const> frames) {
    writer_detail::put(out, event_ts);
    writer_detail::put(out, pid);
    writer_detail::put(out, tid);
    for (auto f : frames) writer_detail::put_ptr(out, p, f);
}
inline bytes stack_walk_payload(std::uint8_t p, std::uint64_t event_ts, std::uint32_t pid, std::uint32_t tid,
                                std::span<std::uint64_t const> frames) {
    bytes out;
    append_stack_walk(out, p, event_ts, pid, tid, frames);
    return out;
}

/// StackKeyKernel / StackKeyUser references (0x1825 / 0x1826; NTWMI, observed 24 bytes on x64):
/// EventTimeStamp u64, ProcessId u32, ThreadId u32, StackKey p.
inline void append_stack_key_reference(bytes& out, std::uint8_t p, std::uint64_t event_ts, std::uint32_t pid,
                                       std::uint32_t tid, std::uint64_t key) {
    writer_detail::put(out, event_ts);
    writer_detail::put(out, pid);
    writer_detail::put(out, tid);
    writer_detail::put_ptr(out, p, key);
}
inline bytes stack_key_reference_payload(std::uint8_t p, std::uint64_t event_ts, std::uint32_t pid,
                                         std::uint32_t tid, std::uint64_t key) {
    bytes out;
    append_stack_key_reference(out, p, event_ts, pid, tid, key);
    return out;
}

/// StackKey definitions (0x1823 Delete on eviction, 0x1824 Rundown at the end, 0x1822 Create; NTWMI):
/// StackKey p, then the frames (p each).
inline void append_stack_key_definition(bytes& out, std::uint8_t p, std::uint64_t key,
                                        std::span<std::uint64_t const> frames) {
    writer_detail::put_ptr(out, p, key);
    for (auto f : frames) writer_detail::put_ptr(out, p, f);
}
inline bytes stack_key_definition_payload(std::uint8_t p, std::uint64_t key, std::span<std::uint64_t const> frames) {
    bytes out;
    append_stack_key_definition(out, p, key, frames);
    return out;
}

// ---------------------------------------------------------------------------------------------------
// A generated profiler trace (benchmarks, and tests that need volume)
// ---------------------------------------------------------------------------------------------------

/// The shape of generate_profile_trace's trace.
struct profile_shape {
    std::uint32_t user_processes = 6;    // besides Idle (0) and System (4)
    std::uint32_t pmc_counters = 2;      // PMC values on every CSwitch (0: none); named by a PmcCounterConfig
    std::uint32_t switch_percent = 35;   // ticks of a processor with a context switch before the sample
    std::uint32_t stack_key_slots = 96;  // entries of the simulated stack cache per kind (kernel, user)
};

/// What generate_profile_trace wrote.
struct generated_trace {
    std::vector<std::byte> file;
    trace_counts counts;
};

namespace writer_detail {

/// xorshift64* (Marsaglia / Vigna): deterministic for a seed on every platform.
struct rng64 {
    std::uint64_t state;
    explicit rng64(std::uint64_t seed) noexcept : state(seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL) {
        if (state == 0) state = 1;
    }
    std::uint64_t next() noexcept {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 0x2545F4914F6CDD1DULL;
    }
    /// Uniform in [0, n) (n > 0; the tiny modulo bias does not matter here).
    std::uint32_t below(std::uint32_t n) noexcept { return static_cast<std::uint32_t>((next() >> 32) % n); }
    bool percent(std::uint32_t pc) noexcept { return below(100) < pc; }
};

struct gen_image {
    std::uint64_t base, size;
    std::uint32_t pid; // 0: kernel module
    std::u16string name;
};
struct gen_process {
    std::uint32_t pid, parent;
    std::string exe;
    std::vector<std::size_t> images; // indexes into the user images of this process
    std::vector<std::size_t> threads;
};
struct gen_thread {
    std::uint32_t pid, tid;
    std::size_t process; // index; kernel threads belong to System
    bool user;
};
struct gen_stack_slot {
    std::uint64_t key = 0;
    bool live = false;
    std::uint32_t depth = 0;
    std::array<std::uint64_t, 40> frames{};
};

} // namespace writer_detail

/// A deterministic, realistic profiler trace of at least `target_bytes` (the file's size): rundown
/// (CollectionStart interval, PmcCounterConfig, Process / Thread / Image DCStart), then per 1 ms tick
/// and processor: sometimes ReadyThread + CSwitch (PMC values) + StackKeyKernel/User references,
/// always SampledProfile + Stack (5-40 frames inside the loaded images, kernel frames first); stack
/// cache evictions as StackKeyDelete definitions; at the end StackKeyRundown for the live keys,
/// CollectionEnd and the DCEnd rundown. Pointer size, clock and compression come from `options`.
/// The hot loop allocates nothing (one scratch payload vector, the file reserved up front).
inline generated_trace generate_profile_trace(std::size_t target_bytes, trace_options options, std::uint64_t seed,
                                              profile_shape const& shape = {}) {
    using namespace writer_detail;
    check_pointer_size(options.pointer_size);
    std::uint8_t const p = options.pointer_size;
    bool const b32 = p == 4;
    rng64 rng(seed);
    trace_writer w(options);
    w.reserve(target_bytes + std::size_t{options.buffer_size} * (options.processors + 2));

    // Raw clock ticks per millisecond (the sampling interval) for the session's clock type.
    std::uint64_t const tick = options.clock_type == 2   ? 10'000
                               : options.clock_type == 3 ? std::uint64_t{options.cpu_mhz} * 1000
                                                         : std::max<std::uint64_t>(options.perf_freq / 1000, 16);
    std::uint64_t now = options.header_timestamp + tick;

    // --- the world: kernel modules, processes with their images and threads
    std::uint64_t const kernel_base = b32 ? 0x80400000ULL : 0xFFFFF80000000000ULL;
    std::uint64_t const user_base = b32 ? 0x00400000ULL : 0x00007FF600000000ULL;
    std::vector<gen_image> kernel_images;
    char16_t const* const kernel_names[] = {u"\\SystemRoot\\system32\\ntoskrnl.exe", u"\\SystemRoot\\system32\\hal.dll",
                                            u"\\SystemRoot\\system32\\drivers\\ntfs.sys",
                                            u"\\SystemRoot\\system32\\drivers\\tcpip.sys",
                                            u"\\SystemRoot\\system32\\win32kbase.sys",
                                            u"\\SystemRoot\\system32\\drivers\\storport.sys"};
    std::uint64_t next_kernel = kernel_base;
    for (auto const* name : kernel_names) {
        std::uint64_t const size = 0x100000ULL + (rng.next() % 0x800000ULL & ~0xFFFULL);
        kernel_images.push_back({next_kernel, size, 0, name});
        next_kernel += (size + 0x10FFFFULL) & ~0xFFFFULL;
    }
    std::vector<gen_image> user_images;
    std::vector<gen_process> processes;
    std::vector<gen_thread> threads;
    processes.push_back({0, 0, "Idle", {}, {}});
    processes.push_back({4, 0, "System", {}, {}});
    for (std::uint32_t cpu = 0; cpu < options.processors; ++cpu) { // the idle threads: TID 0 on every processor
        processes[0].threads.push_back(threads.size());
        threads.push_back({0, 0, 0, false});
    }
    std::uint32_t next_tid = 8;
    for (int i = 0; i < 4; ++i) {
        processes[1].threads.push_back(threads.size());
        threads.push_back({4, next_tid, 1, false});
        next_tid += 4;
    }
    char16_t const* const dll_names[] = {u"ntdll.dll", u"kernel32.dll", u"KernelBase.dll", u"ucrtbase.dll",
                                         u"user32.dll", u"combase.dll"};
    for (std::uint32_t i = 0; i < shape.user_processes; ++i) {
        gen_process proc{1000 + 4 * i * 7, 4, "app" + std::to_string(i) + ".exe", {}, {}};
        std::uint64_t at = user_base + std::uint64_t{i} * (b32 ? 0x01000000ULL : 0x100000000ULL);
        auto add_image = [&](std::u16string name, std::uint64_t size) {
            proc.images.push_back(user_images.size());
            user_images.push_back({at, size, proc.pid, std::move(name)});
            at += (size + 0x1FFFFULL) & ~0xFFFFULL;
        };
        add_image(u"\\Device\\HarddiskVolume2\\apps\\app" + std::u16string(1, char16_t(u'0' + i % 10)) + u".exe",
                  0x40000ULL + (rng.next() % 0x200000ULL & ~0xFFFULL));
        for (auto const* dll : dll_names)
            add_image(std::u16string(u"\\Device\\HarddiskVolume2\\Windows\\System32\\") + dll,
                      0x30000ULL + (rng.next() % 0x180000ULL & ~0xFFFULL));
        std::uint32_t const nthreads = 2 + rng.below(6);
        for (std::uint32_t t = 0; t < nthreads; ++t) {
            proc.threads.push_back(threads.size());
            threads.push_back({proc.pid, next_tid, processes.size(), true});
            next_tid += 4;
        }
        processes.push_back(std::move(proc));
    }

    bytes scratch;
    scratch.reserve(1024);
    std::array<std::uint64_t, 40> frames{};
    auto in_image = [&](gen_image const& im) { return im.base + 0x1000 + rng.next() % (im.size - 0x1000); };
    auto kernel_address = [&] { return in_image(kernel_images[rng.below(static_cast<std::uint32_t>(kernel_images.size()))]); };
    auto user_address = [&](gen_process const& proc) {
        return in_image(user_images[proc.images[rng.below(static_cast<std::uint32_t>(proc.images.size()))]]);
    };
    std::uint16_t const rundown_cpu = 0;
    auto system_event = [&](std::uint16_t h, std::uint8_t version, bytes const& payload) {
        w.system(rundown_cpu, {h, version, options.header_tid, options.header_pid, now, 0, 0}, payload, b32);
        now += 1;
    };

    // --- rundown at the start (cpu 0)
    std::uint32_t const interval = 10000; // 1 ms in 100 ns units
    w.perfinfo(rundown_cpu, hook::collection_start, 3, now++,
               sampled_profile_interval_payload(3, 0, interval, interval, u"Timer"), {}, {}, b32);
    if (shape.pmc_counters != 0) {
        std::vector<std::u16string> names;
        char16_t const* const known[] = {u"TotalCycles", u"InstructionRetired", u"BranchInstructions",
                                         u"BranchMispredictions", u"LLCReference", u"LLCMisses", u"CacheMisses"};
        for (std::uint32_t i = 0; i < std::min<std::uint32_t>(shape.pmc_counters, 7); ++i) names.emplace_back(known[i]);
        w.perfinfo(rundown_cpu, hook::pmc_counter_config, 2, now++, pmc_counter_config_payload(names), {}, {}, b32);
    }
    std::uint32_t const sid_system[] = {18};
    std::uint32_t const sid_user[] = {21, 1004336348, 1177238915, 682003330, 1001};
    auto process_event = [&](std::uint16_t h, gen_process const& proc) {
        process_fields pf;
        pf.unique_process_key = (b32 ? 0x84000000ULL : 0xFFFFA00000000000ULL) + std::uint64_t{proc.pid} * 0x80;
        pf.pid = proc.pid;
        pf.parent_id = proc.parent;
        pf.session_id = proc.pid <= 4 ? 0xFFFFFFFF : 1;
        pf.directory_table_base = 0x1AA000ULL + std::uint64_t{proc.pid} * 0x1000;
        if (proc.pid != 0) pf.sid = proc.pid == 4 ? sid_bytes(5, sid_system) : sid_bytes(5, sid_user);
        pf.image_file_name = proc.exe;
        if (proc.pid > 4) pf.command_line = u"\"C:\\apps\\" + std::u16string(proc.exe.begin(), proc.exe.end()) + u"\" --run";
        system_event(h, 4, process_payload(p, 4, pf));
    };
    auto thread_event = [&](std::uint16_t h, gen_thread const& t, std::size_t index) {
        thread_fields tf;
        tf.pid = t.pid;
        tf.tid = t.tid;
        std::uint64_t const stack = (b32 ? 0x8F000000ULL : 0xFFFFF68000000000ULL) + index * 0x8000;
        tf.stack_base = stack;
        tf.stack_limit = stack - 0x6000;
        if (t.user) {
            tf.user_stack_base = (b32 ? 0x00200000ULL : 0x000000C000000000ULL) + index * 0x100000;
            tf.user_stack_limit = tf.user_stack_base - 0x10000;
            tf.teb_base = (b32 ? 0x7FFD0000ULL : 0x000000A000000000ULL) + index * 0x2000;
            tf.win32_start_addr = user_address(processes[t.process]);
        } else {
            tf.win32_start_addr = kernel_address();
        }
        tf.affinity = (1ULL << std::min<std::uint32_t>(options.processors, 32)) - 1;
        system_event(h, 3, thread_payload(p, tf));
    };
    auto image_event = [&](std::uint16_t h, gen_image const& im) {
        image_fields f{im.base, im.size, im.pid, 0x12345, 0x5F000000, 0x0C, 1, im.base, im.name};
        w.perfinfo(rundown_cpu, h, 3, now++, image_payload(p, f), {}, {}, b32);
    };
    for (auto const& proc : processes) process_event(hook::process_dc_start, proc);
    for (std::size_t i = 0; i < threads.size(); ++i) thread_event(hook::thread_dc_start, threads[i], i);
    for (auto const& im : kernel_images) image_event(hook::image_dc_start, im);
    for (auto const& im : user_images) image_event(hook::image_dc_start, im);

    // --- the sampled part
    std::vector<std::size_t> running(options.processors);
    for (std::uint32_t cpu = 0; cpu < options.processors; ++cpu) running[cpu] = processes[0].threads[cpu];
    std::vector<std::size_t> runnable; // every non-idle thread
    for (std::size_t i = 0; i < threads.size(); ++i)
        if (threads[i].tid != 0) runnable.push_back(i);
    std::uint32_t const slots = std::max<std::uint32_t>(shape.stack_key_slots, 1);
    std::vector<gen_stack_slot> kernel_slots(slots), user_slots(slots);
    std::uint32_t next_kernel_slot = 0, next_user_slot = 0;
    // Key values repeat between the two tables and after an eviction, as the kernel's do.
    std::uint64_t const key_base = b32 ? 0x86000000ULL : 0xFFFFC08000000000ULL;
    std::array<std::uint64_t, 7> pmc{};
    std::uint32_t const pmc_count = std::min<std::uint32_t>(shape.pmc_counters, 7);

    auto fill_kernel_frames = [&](gen_stack_slot& s) {
        s.depth = 3 + rng.below(10);
        for (std::uint32_t i = 0; i < s.depth; ++i) s.frames[i] = kernel_address();
    };
    auto fill_user_frames = [&](gen_stack_slot& s, gen_process const& proc) {
        s.depth = 4 + rng.below(20);
        for (std::uint32_t i = 0; i < s.depth; ++i) s.frames[i] = user_address(proc);
    };
    auto define = [&](std::uint16_t h, gen_stack_slot const& s, std::uint64_t ts) {
        scratch.clear();
        append_stack_key_definition(scratch, p, s.key, std::span<std::uint64_t const>(s.frames.data(), s.depth));
        w.perfinfo(rundown_cpu, h, 2, ts, scratch, {}, {}, b32);
    };
    // A key for a new or a cached stack; an evicted entry's definition (StackKeyDelete) is logged on
    // the processor that evicts it, before the reference that reuses the entry.
    auto reference = [&](std::uint16_t cpu, bool user, gen_thread const& t, std::uint64_t ts) {
        auto& table = user ? user_slots : kernel_slots;
        auto& next = user ? next_user_slot : next_kernel_slot;
        std::uint32_t live_guess = rng.below(slots);
        gen_stack_slot* slot = &table[live_guess];
        if (!slot->live || rng.percent(30)) {
            slot = &table[next];
            if (slot->live) {
                scratch.clear();
                append_stack_key_definition(scratch, p, slot->key,
                                            std::span<std::uint64_t const>(slot->frames.data(), slot->depth));
                w.perfinfo(cpu, hook::stack_key_delete, 2, ts, scratch, {}, {}, b32);
            }
            slot->key = key_base + std::uint64_t{next} * 0x40;
            slot->live = true;
            if (user) fill_user_frames(*slot, processes[t.process]);
            else fill_kernel_frames(*slot);
            next = (next + 1) % slots;
        }
        scratch.clear();
        append_stack_key_reference(scratch, p, ts, t.pid, t.tid, slot->key);
        w.perfinfo(cpu, user ? hook::stack_key_user : hook::stack_key_kernel, 2, ts, scratch, {}, {}, b32);
    };

    while (w.size_so_far() < target_bytes) {
        for (std::uint32_t cpu32 = 0; cpu32 < options.processors; ++cpu32) {
            auto const cpu = static_cast<std::uint16_t>(cpu32);
            std::uint64_t ts = now + rng.below(static_cast<std::uint32_t>(tick / 4 + 1));
            if (rng.percent(shape.switch_percent)) {
                std::size_t const old_index = running[cpu];
                std::size_t const new_index = rng.percent(15) ? processes[0].threads[cpu]
                                                              : runnable[rng.below(static_cast<std::uint32_t>(runnable.size()))];
                gen_thread const& old_thread = threads[old_index];
                gen_thread const& new_thread = threads[new_index];
                scratch.clear();
                append_ready_thread(scratch, new_thread.tid);
                w.perfinfo(cpu, hook::ready_thread, 2, ts, scratch, {}, {}, b32);
                ts += 3;
                for (std::uint32_t i = 0; i < pmc_count; ++i) pmc[i] += 20'000 + rng.below(200'000);
                cswitch_fields cs;
                cs.new_thread_id = new_thread.tid;
                cs.old_thread_id = old_thread.tid;
                cs.old_thread_wait_reason = static_cast<std::uint8_t>(rng.below(38));
                cs.old_thread_state = old_thread.tid == 0 ? 2 : 5; // Running idle / Waiting
                cs.old_thread_wait_ideal_processor = static_cast<std::uint8_t>(cpu & 0xFF);
                cs.new_thread_wait_time = rng.below(50);
                scratch.clear();
                append_cswitch(scratch, cs);
                w.perfinfo(cpu, hook::cswitch, 4, ts, scratch, std::span<std::uint64_t const>(pmc.data(), pmc_count), {},
                           b32);
                if (old_thread.tid != 0) {
                    reference(cpu, false, old_thread, ts);
                    if (old_thread.user && rng.percent(70)) reference(cpu, true, old_thread, ts);
                }
                running[cpu] = new_index;
                ts += 5;
            }
            gen_thread const& t = threads[running[cpu]];
            // Sample: a third in the kernel; the idle thread always in the kernel.
            bool const in_kernel = !t.user || rng.percent(33);
            std::uint32_t const depth = 5 + rng.below(36);
            std::uint32_t kernel_depth = in_kernel ? (t.user ? 1 + rng.below(std::min<std::uint32_t>(depth - 1, 12)) : depth)
                                                   : 0;
            for (std::uint32_t i = 0; i < depth; ++i)
                frames[i] = i < kernel_depth ? kernel_address() : user_address(processes[t.process]);
            scratch.clear();
            append_sampled_profile(scratch, p, frames[0], t.tid, 1, static_cast<std::uint8_t>(8 << 3));
            w.perfinfo(cpu, hook::sampled_profile, 2, ts, scratch, {}, {}, b32);
            scratch.clear();
            append_stack_walk(scratch, p, ts, t.pid, t.tid, std::span<std::uint64_t const>(frames.data(), depth));
            w.perfinfo(cpu, hook::stack_walk, 2, ts + 1, scratch, {}, {}, b32);
        }
        now += tick;
    }

    // --- rundown at the end (cpu 0)
    for (auto const* table : {&kernel_slots, &user_slots})
        for (auto const& s : *table)
            if (s.live) define(hook::stack_key_rundown, s, now++);
    w.perfinfo(rundown_cpu, hook::collection_end, 3, now++,
               sampled_profile_interval_payload(3, 0, interval, interval, u"Timer"), {}, {}, b32);
    for (auto const& im : user_images) image_event(hook::image_dc_end, im);
    for (auto const& im : kernel_images) image_event(hook::image_dc_end, im);
    for (std::size_t i = 0; i < threads.size(); ++i) thread_event(hook::thread_dc_end, threads[i], i);
    for (auto const& proc : processes) process_event(hook::process_dc_end, proc);

    generated_trace out;
    out.file = w.finish();
    out.counts = w.counts();
    return out;
}

} // namespace etwctl_test
