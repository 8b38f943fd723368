// Tests of etwctl/trace/kernel_events.hpp: the typed views of the NT Kernel Logger's classic payloads.
// Payloads are built here field by field, in the order and sizes of the documented layouts, for both
// pointer sizes and every version a view accepts; each accessor must return what was written, and every
// view must refuse what fits no layout (truncations, pointer size 2, unknown versions, missing NULs).
#include "etwctl_test.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "etwctl/trace/kernel_events.hpp"

namespace kernel_events_test {

namespace et = etwctl::trace;
namespace tr = etwctl::trace::layout;
using et::layout_fault;
using et::payload_ref;

/// Appends little-endian fields to a payload; `p` is the pointer size the pointer fields take.
struct builder {
    std::vector<std::byte> bytes;
    std::uint8_t p = 8;

    explicit builder(std::uint8_t pointer_size) : p(pointer_size) {}

    builder& u8(std::uint8_t v) {
        bytes.push_back(std::byte{v});
        return *this;
    }
    builder& u16(std::uint16_t v) { return u8(static_cast<std::uint8_t>(v)).u8(static_cast<std::uint8_t>(v >> 8)); }
    builder& u32(std::uint32_t v) {
        return u16(static_cast<std::uint16_t>(v)).u16(static_cast<std::uint16_t>(v >> 16));
    }
    builder& u64(std::uint64_t v) { return u32(static_cast<std::uint32_t>(v)).u32(static_cast<std::uint32_t>(v >> 32)); }
    builder& i8(std::int8_t v) { return u8(static_cast<std::uint8_t>(v)); }
    builder& i32(std::int32_t v) { return u32(static_cast<std::uint32_t>(v)); }
    builder& pointer(std::uint64_t v) { return p == 4 ? u32(static_cast<std::uint32_t>(v)) : u64(v); }
    builder& zeros(std::size_t n) {
        bytes.insert(bytes.end(), n, std::byte{0});
        return *this;
    }
    /// UTF-16LE code units, no NUL.
    builder& utf16(std::u16string_view s) {
        for (char16_t c : s) u16(static_cast<std::uint16_t>(c));
        return *this;
    }
    builder& utf16z(std::u16string_view s) { return utf16(s).u16(0); }
    builder& ansiz(std::string_view s) {
        for (char c : s) u8(static_cast<std::uint8_t>(c));
        return u8(0);
    }
    /// A WCHAR[32] field: the text, then NULs to 64 bytes.
    builder& wchar32(std::u16string_view s) {
        utf16(s);
        return zeros(64 - 2 * s.size());
    }
    payload_ref ref(std::uint8_t version) const { return {bytes, version, p}; }
    std::size_t size() const { return bytes.size(); }
};

/// A pointer value that fits the pointer size, distinct per `k` (upper bits set on 64-bit so a read of
/// the wrong width shows).
std::uint64_t addr(std::uint8_t p, std::uint32_t k) {
    return p == 4 ? 0x8000'0000ULL + 0x1111ULL * k : 0xFFFF'F800'0000'0000ULL + 0x1'0000'1111ULL * k;
}

std::u16string text(et::utf16_text t) {
    std::u16string s;
    for (std::size_t i = 0; i < t.size(); ++i) s.push_back(t[i]);
    return s;
}

constexpr std::array<std::uint8_t, 2> pointer_sizes{4, 8};
using u8list = std::initializer_list<std::uint8_t>;

/// Every accessor of a view, read (under ASan a read outside the payload fails the test).
std::uint64_t sink = 0;
void touch(tr::logfile_header const& v) {
    sink += v.buffer_size() + v.major_version() + v.minor_version() + v.sub_version() + v.sub_minor_version() +
            v.provider_version() + v.number_of_processors() + v.end_time() + v.timer_resolution() +
            v.maximum_file_size() + v.log_file_mode() + v.buffers_written() + v.start_buffers() + v.pointer_size() +
            v.events_lost() + v.cpu_speed_mhz() + static_cast<std::uint32_t>(v.time_zone_bias()) +
            v.time_zone_standard_name().size() + v.time_zone_standard_date().month +
            static_cast<std::uint32_t>(v.time_zone_standard_bias()) + v.time_zone_daylight_name().size() +
            v.time_zone_daylight_date().day + static_cast<std::uint32_t>(v.time_zone_daylight_bias()) +
            v.boot_time() + v.perf_freq() + v.start_time() + v.reserved_flags() + v.buffers_lost() +
            v.logger_name().size() + v.log_file_name().size();
}
void touch(tr::header_extension const& v) {
    for (std::size_t i = 0; i < tr::header_extension::group_mask_count; ++i) sink += v.group_mask(i);
    sink += v.kernel_event_version();
}
void touch(tr::rundown_complete const& v) { sink += v.payload().bytes.size(); }
void touch(tr::sampled_profile const& v) {
    sink += v.instruction_pointer() + v.thread_id() + v.count() + v.flags() + v.priority() + v.rank() +
            (v.executing_dpc() ? 1U : 0U) + (v.executing_isr() ? 1U : 0U);
}
void touch(tr::pmc_counter_profile const& v) { sink += v.instruction_pointer() + v.thread_id() + v.profile_source(); }
void touch(tr::pmc_counter_config const& v) {
    for (std::size_t i = 0; i < v.counter_count(); ++i) sink += v.name(i).size();
}
void touch(tr::sampled_profile_interval const& v) {
    sink += v.source() + v.new_interval() + v.old_interval() + v.source_name().size();
}
void touch(tr::thread_event const& v) {
    sink += v.process_id() + v.thread_id() + v.stack_base() + v.stack_limit() + v.user_stack_base() +
            v.user_stack_limit() + v.affinity() + v.win32_start_addr() + v.teb_base() + v.sub_process_tag() +
            static_cast<std::uint8_t>(v.base_priority()) + v.page_priority() + v.io_priority() + v.thread_flags() +
            v.thread_name().size();
}
void touch(tr::cswitch const& v) {
    sink += v.new_thread_id() + v.old_thread_id() + static_cast<std::uint8_t>(v.new_thread_priority()) +
            static_cast<std::uint8_t>(v.old_thread_priority()) + v.previous_c_state() + v.old_thread_wait_reason() +
            v.old_thread_wait_mode() + v.old_thread_state() + v.old_thread_wait_ideal_processor() +
            v.new_thread_wait_time() + static_cast<std::uint32_t>(v.old_thread_remaining_quantum()) +
            v.old_thread_qos_level() + v.new_thread_qos_level();
}
void touch(tr::ready_thread const& v) {
    sink += v.thread_id() + static_cast<std::uint8_t>(v.adjust_reason()) +
            static_cast<std::uint8_t>(v.adjust_increment()) + v.flag();
}
void touch(tr::process_event const& v) {
    sink += v.unique_process_key() + v.process_id() + v.parent_id() + v.session_id() +
            static_cast<std::uint32_t>(v.exit_status()) + v.directory_table_base() + v.flags() + v.user_sid().size() +
            v.image_file_name().size() + v.command_line().size() + v.package_full_name().size() +
            v.application_id().size() + v.trailing_bytes().size();
    for (std::byte b : v.user_sid()) sink += std::to_integer<unsigned>(b);
    for (char c : v.image_file_name()) sink += static_cast<unsigned char>(c);
}
void touch(tr::image_event const& v) {
    sink += v.image_base() + v.image_size() + v.process_id() + v.image_checksum() + v.time_date_stamp() +
            v.signature_level() + v.signature_type() + v.default_base() + v.file_name().size();
}
void touch(tr::stack_walk_event const& v) {
    sink += v.event_time_stamp() + v.stack_process() + v.stack_thread();
    for (std::size_t i = 0; i < v.frame_count(); ++i) sink += v.frame(i);
    for (std::uint64_t f : v.frames()) sink += f;
}
void touch(tr::stack_key_reference const& v) {
    sink += v.event_time_stamp() + v.process_id() + v.thread_id() + v.stack_key();
}
void touch(tr::stack_key_definition const& v) {
    sink += v.stack_key();
    for (std::size_t i = 0; i < v.frame_count(); ++i) sink += v.frame(i);
}

/// Builds the view when check() accepts the payload, and reads every accessor; returns the fault.
template <class View>
layout_fault check_and_touch(payload_ref p) {
    layout_fault const f = View::check(p);
    if (f == layout_fault::none) touch(View(p));
    return f;
}

/// Every truncation of a valid payload is refused, except the sizes listed in `still_valid` (a shorter
/// valid layout: an older form, fewer frames), where the view must stay inside the shorter span.
template <class View>
void check_truncations(builder const& b, std::uint8_t version, std::vector<std::size_t> const& still_valid = {}) {
    REQUIRE(View::check(b.ref(version)) == layout_fault::none);
    for (std::size_t n = 0; n < b.size(); ++n) {
        // A copy of exactly n bytes, so ASan sees any read past the truncated end.
        std::vector<std::byte> const cut(b.bytes.begin(), b.bytes.begin() + static_cast<std::ptrdiff_t>(n));
        payload_ref const r{cut, version, b.p};
        bool const valid = std::find(still_valid.begin(), still_valid.end(), n) != still_valid.end();
        CAPTURE(n);
        if (valid) CHECK(check_and_touch<View>(r) == layout_fault::none);
        else CHECK(View::check(r) != layout_fault::none);
    }
}

/// The refusals every view shares: pointer sizes other than 4 and 8, and the versions listed.
template <class View>
void check_common_refusals(builder const& b, std::uint8_t version, std::vector<std::uint8_t> const& bad_versions) {
    REQUIRE(View::check(b.ref(version)) == layout_fault::none);
    for (std::uint8_t const ps : u8list{0, 1, 2, 3, 5, 16}) {
        CAPTURE(int{ps});
        CHECK(View::check(payload_ref{b.bytes, version, ps}) == layout_fault::bad_pointer_size);
    }
    for (std::uint8_t const v : bad_versions) {
        CAPTURE(int{v});
        CHECK(View::check(b.ref(v)) == layout_fault::unknown_version);
    }
}

/// True when check() accepts `b` with one more trailing byte than written (newer builds append fields).
template <class View>
bool accepts_longer(builder b, std::uint8_t version) {
    b.zeros(9);
    return check_and_touch<View>(b.ref(version)) == layout_fault::none;
}

// ---- payload builders, one per layout ----------------------------------------------------------------

builder logfile_header_payload(std::uint8_t p, std::u16string_view logger, std::u16string_view file) {
    builder b(p);
    b.u32(0x10000)                                         // BufferSize
        .u8(10).u8(0).u8(5).u8(1)                          // Major, Minor, SubVersion, SubMinorVersion
        .u32(22621)                                        // ProviderVersion
        .u32(12)                                           // NumberOfProcessors
        .u64(0x01D9'0000'1111'2222)                        // EndTime
        .u32(156250)                                       // TimerResolution
        .u32(500)                                          // MaximumFileSize
        .u32(0x0401'0001)                                  // LogFileMode
        .u32(276)                                          // BuffersWritten
        .u32(1)                                            // StartBuffers
        .u32(p)                                            // PointerSize
        .u32(7)                                            // EventsLost
        .u32(2808)                                         // CpuSpeedInMHz
        .pointer(0xA)                                      // LoggerName (not a pointer)
        .pointer(0x7);                                     // LogFileName (likewise)
    b.i32(-60)                                             // TimeZone.Bias
        .wchar32(u"@tzres.dll,-322")                       // StandardName
        .u16(0).u16(10).u16(0).u16(5).u16(3).u16(0).u16(0).u16(0) // StandardDate
        .i32(0)                                            // StandardBias
        .wchar32(u"@tzres.dll,-321")                       // DaylightName
        .u16(0).u16(3).u16(0).u16(5).u16(2).u16(0).u16(0).u16(0)  // DaylightDate
        .i32(-60)                                          // DaylightBias
        .zeros(4);                                         // padding to the 8-byte BootTime
    b.u64(0x01D9'0000'0000'0001)                           // BootTime
        .u64(10'000'000)                                   // PerfFreq
        .u64(0x01D9'0000'0000'0002)                        // StartTime
        .u32(1)                                            // ReservedFlags
        .u32(3)                                            // BuffersLost
        .utf16z(logger)
        .utf16z(file);
    return b;
}

builder header_extension_payload(std::uint8_t p, bool with_kernel_event_version) {
    builder b(p);
    for (std::uint32_t i = 0; i < 8; ++i) b.u32(0x1000'0001U * (i + 1));
    if (with_kernel_event_version) b.u32(85);
    return b;
}

builder sampled_profile_payload(std::uint8_t p) {
    builder b(p);
    // Flags: ExecutingIsr, Priority 13 (bits 3-7).
    b.pointer(addr(p, 1)).u32(4242).u16(1).u8(static_cast<std::uint8_t>(0x02 | (13 << 3))).u8(9);
    return b;
}

builder pmc_counter_profile_payload(std::uint8_t p) {
    builder b(p);
    b.pointer(addr(p, 2)).u32(77).u16(0x1A).u16(0);
    return b;
}

builder pmc_counter_config_payload(std::uint8_t p, std::uint32_t count, std::vector<std::u16string> const& names) {
    builder b(p);
    b.u32(count);
    for (auto const& n : names) b.utf16z(n);
    return b;
}

builder interval_payload(std::uint8_t p, std::uint8_t version) {
    builder b(p);
    b.u32(0).u32(10000).u32(5000);
    if (version >= 3) b.utf16z(u"Timer");
    return b;
}

struct thread_values {
    std::uint8_t p;
    std::uint32_t process_id = 4, thread_id = 0x1234;
    std::uint32_t sub_process_tag = 0xABCD;
    std::int8_t base_priority = -2;
    std::uint8_t page_priority = 5, io_priority = 2, thread_flags = 0x80;
};

builder thread_payload(std::uint8_t p, std::uint8_t version, bool with_name, std::u16string_view name = u"worker") {
    thread_values const t{p};
    builder b(p);
    b.u32(t.process_id).u32(t.thread_id);
    for (std::uint32_t k = 10; k < 17; ++k) b.pointer(addr(p, k)); // StackBase .. TebBase
    b.u32(t.sub_process_tag);
    if (version >= 3) b.i8(t.base_priority).u8(t.page_priority).u8(t.io_priority).u8(t.thread_flags);
    if (with_name) b.utf16z(name);
    return b;
}

builder cswitch_payload(std::uint8_t p, std::uint8_t wait_mode_byte) {
    builder b(p);
    b.u32(0x1111).u32(0x2222) // NewThreadId, OldThreadId
        .i8(15).i8(-1)        // NewThreadPriority, OldThreadPriority
        .u8(3).u8(0)          // PreviousCState, SpareByte
        .u8(6)                // OldThreadWaitReason (WrQueue... any value)
        .u8(wait_mode_byte)   // OldThreadWaitMode (+ QoS bits in v4)
        .u8(5)                // OldThreadState (Waiting)
        .u8(7)                // OldThreadWaitIdealProcessor
        .u32(1234)            // NewThreadWaitTime
        .i32(-33);            // OldThreadRemainingQuantum
    return b;
}

builder ready_thread_payload(std::uint8_t p) {
    builder b(p);
    b.u32(0x5678).i8(1).i8(-3).u8(0x0A).u8(0); // Flag: KernelStackNotResident | DirectSwitchAttempt
    return b;
}

/// A SID S-1-5-21-a-b-c-1001: Revision 1, 4 + 1 sub-authorities... (count `count`).
void append_sid(builder& b, std::uint8_t count) {
    b.u8(1).u8(count).u8(0).u8(0).u8(0).u8(0).u8(0).u8(5);
    for (std::uint32_t i = 0; i < count; ++i) b.u32(21 + i);
}

builder process_payload(std::uint8_t p, std::uint8_t version, bool with_sid, std::uint8_t sid_count = 5) {
    builder b(p);
    b.pointer(addr(p, 3)).u32(1000).u32(900).u32(1).i32(259).pointer(addr(p, 4));
    if (version >= 4) b.u32(0x20); // Flags
    if (with_sid) {
        b.pointer(addr(p, 5)).u32(0); // TOKEN_USER: Sid pointer, Attributes ...
        if (p == 8) b.zeros(4);       // ... padded to 2p bytes
        append_sid(b, sid_count);
    } else {
        b.u32(0);
    }
    b.ansiz("Test.x64.exe").utf16z(u"\"C:\\t\\Test.x64.exe\" -v");
    if (version >= 4) b.utf16z(u"Pkg_1.0_x64__abc").utf16z(u"App");
    if (version >= 5) b.u64(0x01D9'0000'0000'0042);
    return b;
}

builder image_payload(std::uint8_t p) {
    builder b(p);
    b.pointer(addr(p, 6)).pointer(0x0010'0000) // ImageBase, ImageSize
        .u32(1000).u32(0xC0FFEE).u32(0x5F00'0000) // ProcessId, ImageChecksum, TimeDateStamp
        .u8(0x0C).u8(0x01).u16(0)                 // SignatureLevel, SignatureType, Reserved0
        .pointer(addr(p, 7))                      // DefaultBase
        .u32(0).u32(0).u32(0).u32(0)              // Reserved1..4
        .utf16z(u"\\Device\\HarddiskVolume2\\Windows\\System32\\ntdll.dll");
    return b;
}

builder stack_walk_payload(std::uint8_t p, std::uint32_t frames) {
    builder b(p);
    b.u64(1942908431).u32(1000).u32(0x1234);
    for (std::uint32_t i = 0; i < frames; ++i) b.pointer(addr(p, 20 + i));
    return b;
}

builder stack_key_reference_payload(std::uint8_t p) {
    builder b(p);
    b.u64(1942908431).u32(1000).u32(0x1234).pointer(addr(p, 30));
    return b;
}

builder stack_key_definition_payload(std::uint8_t p, std::uint32_t frames) {
    builder b(p);
    b.pointer(addr(p, 31));
    for (std::uint32_t i = 0; i < frames; ++i) b.pointer(addr(p, 40 + i));
    return b;
}

// ---- hook table ----------------------------------------------------------------------------------

template <class View, std::size_t... I>
constexpr bool hooks_map_back(std::index_sequence<I...>) {
    return (std::is_same_v<typename tr::view_for_hook<View::hooks[I].value>::type, View> && ...);
}
template <class View>
constexpr bool hooks_map_back() {
    return hooks_map_back<View>(std::make_index_sequence<std::size(View::hooks)>{});
}
template <class View>
std::vector<std::uint16_t> hook_values() {
    std::vector<std::uint16_t> v;
    for (etwctl::hook_id h : View::hooks) v.push_back(h.value);
    return v;
}


TEST_CASE("kernel events: layout faults have distinct names") {
    std::vector<std::string_view> names;
    for (auto f : {layout_fault::none, layout_fault::too_short, layout_fault::unknown_version,
                   layout_fault::bad_pointer_size, layout_fault::bad_string}) {
        CHECK_FALSE(et::to_string(f).empty());
        for (auto n : names) CHECK(n != et::to_string(f));
        names.push_back(et::to_string(f));
    }
    CHECK(et::to_string(layout_fault::too_short) == "payload shorter than the layout");
}

/// A view listing a hook sampled_profile lists too (for the one-layout-per-hook check).
struct second_sampled_profile {
    static constexpr etwctl::hook_id hooks[] = {etwctl::hook_id{0x0F2E}};
};

TEST_CASE("kernel events: every view's hooks map back to it") {
    static_assert(hooks_map_back<tr::logfile_header>());
    static_assert(hooks_map_back<tr::header_extension>());
    static_assert(hooks_map_back<tr::rundown_complete>());
    static_assert(hooks_map_back<tr::sampled_profile>());
    static_assert(hooks_map_back<tr::pmc_counter_profile>());
    static_assert(hooks_map_back<tr::pmc_counter_config>());
    static_assert(hooks_map_back<tr::sampled_profile_interval>());
    static_assert(hooks_map_back<tr::thread_event>());
    static_assert(hooks_map_back<tr::cswitch>());
    static_assert(hooks_map_back<tr::ready_thread>());
    static_assert(hooks_map_back<tr::process_event>());
    static_assert(hooks_map_back<tr::image_event>());
    static_assert(hooks_map_back<tr::stack_walk_event>());
    static_assert(hooks_map_back<tr::stack_key_reference>());
    static_assert(hooks_map_back<tr::stack_key_definition>());
    // Hooks without a view, or whose layout the sources disagree on.
    static_assert(std::is_void_v<tr::view_for_hook<0x0F31>::type>); // PmcCounterCorruption
    static_assert(std::is_void_v<tr::view_for_hook<0x030B>::type>); // Process Terminate (ProcessId only in its MOF)
    static_assert(std::is_void_v<tr::view_for_hook<0x0548>::type>); // ThreadSetName
    // kernel_views' check that a hook has one layout: a second view listing 0x0F2E is refused
    static_assert(!tr::detail::hooks_listed_once(tr::view_list<tr::sampled_profile, second_sampled_profile>{}));
    static_assert(tr::detail::hooks_listed_once(tr::view_list<tr::sampled_profile, tr::cswitch>{}));
    static_assert(tr::detail::hooks_listed_once(tr::kernel_views{}));

    using v = std::vector<std::uint16_t>;
    CHECK(hook_values<tr::logfile_header>() == v{0x0000});
    CHECK(hook_values<tr::header_extension>() == v{0x0005, 0x0020});
    CHECK(hook_values<tr::rundown_complete>() == v{0x0008});
    CHECK(hook_values<tr::sampled_profile>() == v{0x0F2E});
    CHECK(hook_values<tr::pmc_counter_profile>() == v{0x0F2F});
    CHECK(hook_values<tr::pmc_counter_config>() == v{0x0F30});
    CHECK(hook_values<tr::sampled_profile_interval>() == v{0x0F48, 0x0F49, 0x0F4A});
    CHECK(hook_values<tr::thread_event>() == v{0x0501, 0x0502, 0x0503, 0x0504});
    CHECK(hook_values<tr::cswitch>() == v{0x0524});
    CHECK(hook_values<tr::ready_thread>() == v{0x0532});
    CHECK(hook_values<tr::process_event>() == v{0x0301, 0x0302, 0x0303, 0x0304, 0x0327});
    CHECK(hook_values<tr::image_event>() == v{0x030A, 0x1402, 0x1403, 0x1404});
    CHECK(hook_values<tr::stack_walk_event>() == v{0x1820});
    CHECK(hook_values<tr::stack_key_reference>() == v{0x1825, 0x1826});
    CHECK(hook_values<tr::stack_key_definition>() == v{0x1822, 0x1823, 0x1824});
    CHECK(tr::thread_event::hooks[2] == etwctl::hook_id(std::uint8_t{0x05}, std::uint8_t{0x03}));
}

TEST_CASE("kernel events: logfile header in its 32- and 64-bit forms") {
    for (std::uint8_t const p : pointer_sizes) {
        CAPTURE(int{p});
        builder const b = logfile_header_payload(p, u"Relogger", u"[multiple files]");
        // The SDK struct is 0x110 bytes on x86 and 0x118 on x64; the strings follow it.
        CHECK(b.size() == (p == 4 ? 0x110U : 0x118U) + 18 + 34);
        CHECK(tr::logfile_header::struct_size(p) == (p == 4 ? 0x110U : 0x118U));
        for (std::uint8_t const version : u8list{1, 2}) {
            REQUIRE(tr::logfile_header::check(b.ref(version)) == layout_fault::none);
            tr::logfile_header const h(b.ref(version));
            CHECK(h.buffer_size() == 0x10000);
            CHECK(h.major_version() == 10);
            CHECK(h.minor_version() == 0);
            CHECK(h.sub_version() == 5);
            CHECK(h.sub_minor_version() == 1);
            CHECK(h.provider_version() == 22621);
            CHECK(h.number_of_processors() == 12);
            CHECK(h.end_time() == 0x01D9'0000'1111'2222ULL);
            CHECK(h.timer_resolution() == 156250);
            CHECK(h.maximum_file_size() == 500);
            CHECK(h.log_file_mode() == 0x0401'0001U);
            CHECK(h.buffers_written() == 276);
            CHECK(h.start_buffers() == 1);
            CHECK(h.pointer_size() == p);
            CHECK(h.events_lost() == 7);
            CHECK(h.cpu_speed_mhz() == 2808);
            CHECK(h.time_zone_bias() == -60);
            CHECK(text(h.time_zone_standard_name()) == u"@tzres.dll,-322");
            CHECK(h.time_zone_standard_date() == tr::system_time{0, 10, 0, 5, 3, 0, 0, 0});
            CHECK(h.time_zone_standard_bias() == 0);
            CHECK(text(h.time_zone_daylight_name()) == u"@tzres.dll,-321");
            CHECK(h.time_zone_daylight_date() == tr::system_time{0, 3, 0, 5, 2, 0, 0, 0});
            CHECK(h.time_zone_daylight_bias() == -60);
            CHECK(h.boot_time() == 0x01D9'0000'0000'0001ULL);
            CHECK(h.perf_freq() == 10'000'000);
            CHECK(h.start_time() == 0x01D9'0000'0000'0002ULL);
            CHECK(h.reserved_flags() == 1);
            CHECK(h.clock_type() == et::clock_type::qpc);
            CHECK(h.buffers_lost() == 3);
            CHECK(text(h.logger_name()) == u"Relogger");
            CHECK(text(h.log_file_name()) == u"[multiple files]");
        }
        check_common_refusals<tr::logfile_header>(b, 2, {0, 3, 0xFF});
        check_truncations<tr::logfile_header>(b, 2);
        CHECK(accepts_longer<tr::logfile_header>(b, 2));

        // A 32-character time zone name fills its WCHAR[32] without a NUL: all 32 are the name.
        builder full = logfile_header_payload(p, u"L", u"F");
        std::size_t const name_at = 0x38 + 2U * p + 4;
        for (std::size_t i = 0; i < 64; i += 2) full.bytes[name_at + i] = std::byte{'A'};
        tr::logfile_header const h(full.ref(2));
        CHECK(text(h.time_zone_standard_name()) == std::u16string(32, u'A'));

        // The log file name without its NUL.
        builder cut = logfile_header_payload(p, u"Relogger", u"x");
        cut.bytes.resize(cut.size() - 2);
        CHECK(tr::logfile_header::check(cut.ref(2)) == layout_fault::bad_string);
        // Both strings missing: shorter than the layout.
        builder bare = logfile_header_payload(p, u"", u"");
        bare.bytes.resize(tr::logfile_header::struct_size(p));
        CHECK(tr::logfile_header::check(bare.ref(2)) == layout_fault::too_short);
    }
    // Clock types by value.
    builder b = logfile_header_payload(8, u"a", u"b");
    for (std::uint32_t const c : {0U, 2U, 3U}) {
        std::memcpy(b.bytes.data() + 0x110, &c, 4);
        CHECK(tr::logfile_header(b.ref(2)).clock_type() == static_cast<et::clock_type>(c));
    }
    CHECK(tr::logfile_header(b.ref(2)).clock_type() == et::clock_type::cpu_cycle);
}

TEST_CASE("kernel events: logfile header of a real trace") {
    // net.4.5.2.x86.etl (PerfView test data): the header buffer is never compressed; its first record is
    // the header event. Expected values read from the file's bytes by hand (a 64-bit session on Windows 8).
    std::ifstream in(ETWCTL_TRACE_DATA "/net.4.5.2.x86.etl", std::ios::binary);
    REQUIRE(in);
    std::vector<char> raw(0x200);
    in.read(raw.data(), static_cast<std::streamsize>(raw.size()));
    REQUIRE(in.gcount() == 0x200);
    std::vector<std::byte> file(raw.size());
    std::memcpy(file.data(), raw.data(), raw.size());

    std::size_t const record = 0x48; // after WMI_BUFFER_HEADER
    REQUIRE(file[record + 2] == std::byte{0x02});  // SYSTEM64
    REQUIRE(file[record + 3] == std::byte{0xC0});
    std::size_t const size = std::to_integer<std::size_t>(file[record + 4]) | (std::to_integer<std::size_t>(file[record + 5]) << 8);
    REQUIRE(size == 0x16C);
    REQUIRE(file[record + 6] == std::byte{0}); // hook 0x0000
    REQUIRE(file[record + 7] == std::byte{0});
    payload_ref const p{std::span<std::byte const>(file).subspan(record + 0x20, size - 0x20),
                        std::to_integer<std::uint8_t>(file[record]), 8};
    REQUIRE(tr::logfile_header::check(p) == layout_fault::none);
    tr::logfile_header const h(p);
    CHECK(h.buffer_size() == 65536);
    CHECK(h.major_version() == 6);
    CHECK(h.minor_version() == 2);
    CHECK(h.sub_version() == 2);
    CHECK(h.sub_minor_version() == 0);
    CHECK(h.provider_version() == 9200);
    CHECK(h.number_of_processors() == 8);
    CHECK(h.end_time() == 0x01D6'653C'1CDF'6AE1ULL);
    CHECK(h.timer_resolution() == 156250);
    CHECK(h.maximum_file_size() == 500);
    CHECK(h.log_file_mode() == 0x0401'0001U);
    CHECK(h.buffers_written() == 276);
    CHECK(h.start_buffers() == 1);
    CHECK(h.pointer_size() == 8);
    CHECK(h.events_lost() == 0);
    CHECK(h.cpu_speed_mhz() == 3592);
    CHECK(h.time_zone_bias() == 480);
    CHECK(text(h.time_zone_standard_name()) == u"@tzres.dll,-212");
    CHECK(h.time_zone_standard_date() == tr::system_time{0, 11, 0, 1, 2, 0, 0, 0});
    CHECK(h.time_zone_standard_bias() == 0);
    CHECK(text(h.time_zone_daylight_name()) == u"@tzres.dll,-211");
    CHECK(h.time_zone_daylight_date() == tr::system_time{0, 3, 0, 2, 2, 0, 0, 0});
    CHECK(h.time_zone_daylight_bias() == -60);
    CHECK(h.boot_time() == 0x01D6'653B'BAC3'B7EBULL);
    CHECK(h.perf_freq() == 10'000'000);
    CHECK(h.start_time() == 0x01D6'653C'1625'23E6ULL);
    CHECK(h.clock_type() == et::clock_type::qpc);
    CHECK(h.buffers_lost() == 0);
    CHECK(text(h.logger_name()) == u"Relogger");
    CHECK(text(h.log_file_name()) == u"[multiple files]");
    // The strings end exactly at the record's end.
    CHECK(h.log_file_name().bytes().data() + h.log_file_name().bytes().size() + 2 == p.bytes.data() + p.bytes.size());
}

TEST_CASE("kernel events: header extension and rundown marker") {
    for (std::uint8_t const p : pointer_sizes) {
        CAPTURE(int{p});
        builder const v2 = header_extension_payload(p, true);
        REQUIRE(v2.size() == 0x24);
        tr::header_extension const e(v2.ref(2));
        for (std::size_t i = 0; i < 8; ++i) CHECK(e.group_mask(i) == 0x1000'0001U * (i + 1));
        CHECK(e.has_kernel_event_version());
        CHECK(e.kernel_event_version() == 85);
        check_common_refusals<tr::header_extension>(v2, 2, {0, 3});
        check_truncations<tr::header_extension>(v2, 2);
        CHECK(accepts_longer<tr::header_extension>(v2, 2));

        // Before Windows 6.0: version 1, masks only.
        builder const v1 = header_extension_payload(p, false);
        REQUIRE(tr::header_extension::check(v1.ref(1)) == layout_fault::none);
        tr::header_extension const old(v1.ref(1));
        CHECK(old.group_mask(7) == 0x1000'0001U * 8);
        CHECK_FALSE(old.has_kernel_event_version());
        CHECK(old.kernel_event_version() == 0);
        check_truncations<tr::header_extension>(v1, 1);
        CHECK(tr::header_extension::check(v1.ref(2)) == layout_fault::too_short);

        // RundownComplete: empty, any size accepted, pointer size still checked.
        builder empty(p);
        CHECK(check_and_touch<tr::rundown_complete>(empty.ref(2)) == layout_fault::none);
        CHECK(accepts_longer<tr::rundown_complete>(empty, 2));
        check_common_refusals<tr::rundown_complete>(empty, 2, {});
    }
}

TEST_CASE("kernel events: sampled profile and PMC samples") {
    for (std::uint8_t const p : pointer_sizes) {
        CAPTURE(int{p});
        builder const b = sampled_profile_payload(p);
        CHECK(b.size() == (p == 4 ? 0x0CU : 0x10U));
        tr::sampled_profile const s(b.ref(2));
        CHECK(s.instruction_pointer() == addr(p, 1));
        CHECK(s.thread_id() == 4242);
        CHECK(s.count() == 1);
        CHECK(s.flags() == (0x02 | (13 << 3)));
        CHECK_FALSE(s.executing_dpc());
        CHECK(s.executing_isr());
        CHECK(s.priority() == 13);
        CHECK(s.rank() == 9);
        check_common_refusals<tr::sampled_profile>(b, 2, {0, 1, 3});
        check_truncations<tr::sampled_profile>(b, 2);
        CHECK(accepts_longer<tr::sampled_profile>(b, 2));

        builder dpc = sampled_profile_payload(p);
        dpc.bytes[std::size_t{p} + 6] = std::byte{0x01};
        CHECK(tr::sampled_profile(dpc.ref(2)).executing_dpc());
        CHECK_FALSE(tr::sampled_profile(dpc.ref(2)).executing_isr());
        CHECK(tr::sampled_profile(dpc.ref(2)).priority() == 0);

        builder const c = pmc_counter_profile_payload(p);
        tr::pmc_counter_profile const pc(c.ref(2));
        CHECK(pc.instruction_pointer() == addr(p, 2));
        CHECK(pc.thread_id() == 77);
        CHECK(pc.profile_source() == 0x1A);
        check_common_refusals<tr::pmc_counter_profile>(c, 2, {0, 3});
        check_truncations<tr::pmc_counter_profile>(c, 2);
        CHECK(accepts_longer<tr::pmc_counter_profile>(c, 2));
    }
}

TEST_CASE("kernel events: PMC counter config names") {
    for (std::uint8_t const p : pointer_sizes) {
        CAPTURE(int{p});
        builder const b = pmc_counter_config_payload(p, 2, {u"BranchInstructions", u"LLCReference"});
        tr::pmc_counter_config const c(b.ref(2));
        REQUIRE(c.counter_count() == 2);
        CHECK(text(c.name(0)) == u"BranchInstructions");
        CHECK(text(c.name(1)) == u"LLCReference");
        check_common_refusals<tr::pmc_counter_config>(b, 2, {0, 3});
        // Cut at the end of the first name: the second is missing.
        check_truncations<tr::pmc_counter_config>(b, 2);
        CHECK(accepts_longer<tr::pmc_counter_config>(b, 2));

        // More counters than names; a name without its NUL; no counters at all.
        CHECK(tr::pmc_counter_config::check(pmc_counter_config_payload(p, 3, {u"A", u"B"}).ref(2)) ==
              layout_fault::too_short);
        CHECK(tr::pmc_counter_config::check(pmc_counter_config_payload(p, 0xFFFF'FFFF, {u"A"}).ref(2)) ==
              layout_fault::too_short);
        builder open = pmc_counter_config_payload(p, 1, {});
        open.utf16(u"Cycles");
        CHECK(tr::pmc_counter_config::check(open.ref(2)) == layout_fault::bad_string);
        builder const none = pmc_counter_config_payload(p, 0, {});
        CHECK(check_and_touch<tr::pmc_counter_config>(none.ref(2)) == layout_fault::none);
        // An empty name is a name.
        builder const blank = pmc_counter_config_payload(p, 2, {u"", u"X"});
        CHECK(text(tr::pmc_counter_config(blank.ref(2)).name(0)).empty());
        CHECK(text(tr::pmc_counter_config(blank.ref(2)).name(1)) == u"X");
    }
}

TEST_CASE("kernel events: sampled profile interval versions 2 and 3") {
    for (std::uint8_t const p : pointer_sizes) {
        CAPTURE(int{p});
        builder const v3 = interval_payload(p, 3);
        tr::sampled_profile_interval const i3(v3.ref(3));
        CHECK(i3.source() == 0);
        CHECK(i3.new_interval() == 10000);
        CHECK(i3.old_interval() == 5000);
        CHECK(text(i3.source_name()) == u"Timer");
        check_common_refusals<tr::sampled_profile_interval>(v3, 3, {0, 1, 4});
        check_truncations<tr::sampled_profile_interval>(v3, 3);
        CHECK(accepts_longer<tr::sampled_profile_interval>(v3, 3));

        builder const v2 = interval_payload(p, 2);
        tr::sampled_profile_interval const i2(v2.ref(2));
        CHECK(i2.new_interval() == 10000);
        CHECK(i2.source_name().empty());
        check_truncations<tr::sampled_profile_interval>(v2, 2);
        // Version 3 needs the name.
        CHECK(tr::sampled_profile_interval::check(v2.ref(3)) == layout_fault::too_short);
        builder open = interval_payload(p, 2);
        open.utf16(u"Timer");
        CHECK(tr::sampled_profile_interval::check(open.ref(3)) == layout_fault::bad_string);
    }
}

TEST_CASE("kernel events: thread events, versions 2 to 4") {
    for (std::uint8_t const p : pointer_sizes) {
        CAPTURE(int{p});
        thread_values const t{p};
        std::size_t const v2_size = 0x0C + 7U * p, v3_size = 0x10 + 7U * p;
        for (std::uint8_t const version : u8list{2, 3, 4}) {
            CAPTURE(int{version});
            builder const b = thread_payload(p, version, version == 4);
            REQUIRE(tr::thread_event::check(b.ref(version)) == layout_fault::none);
            tr::thread_event const e(b.ref(version));
            CHECK(e.process_id() == t.process_id);
            CHECK(e.thread_id() == t.thread_id);
            CHECK(e.stack_base() == addr(p, 10));
            CHECK(e.stack_limit() == addr(p, 11));
            CHECK(e.user_stack_base() == addr(p, 12));
            CHECK(e.user_stack_limit() == addr(p, 13));
            CHECK(e.affinity() == addr(p, 14));
            CHECK(e.start_addr() == addr(p, 14));
            CHECK(e.win32_start_addr() == addr(p, 15));
            CHECK(e.teb_base() == addr(p, 16));
            CHECK(e.sub_process_tag() == t.sub_process_tag);
            if (version >= 3) {
                CHECK(e.has_priorities());
                CHECK(e.base_priority() == t.base_priority);
                CHECK(e.page_priority() == t.page_priority);
                CHECK(e.io_priority() == t.io_priority);
                CHECK(e.thread_flags() == t.thread_flags);
            } else {
                CHECK_FALSE(e.has_priorities());
                CHECK(e.base_priority() == 0);
                CHECK(e.thread_flags() == 0);
            }
            CHECK(e.has_thread_name() == (version == 4));
            CHECK(text(e.thread_name()) == (version == 4 ? u"worker" : u""));
            check_common_refusals<tr::thread_event>(b, version, {0, 1, 5});
            CHECK(accepts_longer<tr::thread_event>(b, version));
        }
        CHECK(v3_size == (p == 8 ? 0x48U : 0x2CU)); // the sizes seen on real traces
        check_truncations<tr::thread_event>(thread_payload(p, 2, false), 2);
        check_truncations<tr::thread_event>(thread_payload(p, 3, false), 3);
        // v3 with a name: cut right before the name is v3 without one.
        check_truncations<tr::thread_event>(thread_payload(p, 3, true), 3, {v3_size});
        check_truncations<tr::thread_event>(thread_payload(p, 4, true), 4);

        builder const named = thread_payload(p, 3, true, u"ui");
        tr::thread_event const n(named.ref(3));
        CHECK(n.has_thread_name());
        CHECK(text(n.thread_name()) == u"ui");
        // v4 requires the name; present without its NUL is refused.
        CHECK(tr::thread_event::check(thread_payload(p, 4, false).ref(4)) == layout_fault::too_short);
        builder open = thread_payload(p, 4, false);
        open.utf16(u"worker");
        CHECK(tr::thread_event::check(open.ref(4)) == layout_fault::bad_string);
        CHECK(tr::thread_event::check(open.ref(3)) == layout_fault::bad_string);
        // A v2-sized payload labelled v3 lacks the priorities.
        CHECK(tr::thread_event::check(thread_payload(p, 2, false).ref(3)) == layout_fault::too_short);
        CHECK(thread_payload(p, 2, false).size() == v2_size);
    }
}

TEST_CASE("kernel events: CSwitch versions 2 to 4") {
    for (std::uint8_t const p : pointer_sizes) {
        CAPTURE(int{p});
        // v4: wait mode UserMode (bit 0), old QoS 3 (bits 1-3), new QoS 5 (bits 4-6).
        std::uint8_t const byte = static_cast<std::uint8_t>(1 | (3 << 1) | (5 << 4));
        for (std::uint8_t const version : u8list{2, 3, 4}) {
            CAPTURE(int{version});
            builder const b = cswitch_payload(p, version == 4 ? byte : std::uint8_t{1});
            REQUIRE(b.size() == 0x18);
            tr::cswitch const c(b.ref(version));
            CHECK(c.new_thread_id() == 0x1111);
            CHECK(c.old_thread_id() == 0x2222);
            CHECK(c.new_thread_priority() == 15);
            CHECK(c.old_thread_priority() == -1);
            CHECK(c.previous_c_state() == 3);
            CHECK(c.old_thread_wait_reason() == 6);
            CHECK(c.old_thread_wait_mode() == 1);
            CHECK(c.old_thread_qos_level() == (version == 4 ? 3 : 0));
            CHECK(c.new_thread_qos_level() == (version == 4 ? 5 : 0));
            CHECK(c.old_thread_state() == 5);
            CHECK(c.old_thread_wait_ideal_processor() == 7);
            CHECK(c.new_thread_wait_time() == 1234);
            CHECK(c.old_thread_remaining_quantum() == -33);
            check_common_refusals<tr::cswitch>(b, version, {0, 1, 5});
            check_truncations<tr::cswitch>(b, version);
            CHECK(accepts_longer<tr::cswitch>(b, version));
        }
    }
}

TEST_CASE("kernel events: CSwitch v4 cut from a PERFINFO record with 2 PMC counters") {
    // The record of the fact sheet's real example: 04 02 11 C0 38 00 24 05 <ts 8> <u64 0xF38> <u64 0x24B8>
    // <24-byte CSwitch v4>: version 4, 2 PMC counters, PERFINFO64, size 0x38, hook 0x0524.
    builder r(8);
    r.u8(0x04).u8(0x02).u8(0x11).u8(0xC0).u16(0x38).u16(0x0524).u64(0x0000'0001'2345'6789).u64(0xF38).u64(0x24B8);
    builder const payload = cswitch_payload(8, 0);
    r.bytes.insert(r.bytes.end(), payload.bytes.begin(), payload.bytes.end());
    std::size_t const size = std::to_integer<std::size_t>(r.bytes[4]) | (std::to_integer<std::size_t>(r.bytes[5]) << 8);
    REQUIRE(size == r.size());
    std::size_t const counters = std::to_integer<std::size_t>(r.bytes[1]) & 0x07U;
    std::size_t const payload_at = 0x10 + 8 * counters;
    REQUIRE(size - payload_at == 24); // the payload is the last 24 bytes
    payload_ref const p{std::span<std::byte const>(r.bytes).subspan(payload_at), std::to_integer<std::uint8_t>(r.bytes[0]), 8};
    REQUIRE(tr::cswitch::check(p) == layout_fault::none);
    tr::cswitch const c(p);
    CHECK(c.new_thread_id() == 0x1111);
    CHECK(c.old_thread_id() == 0x2222);
    CHECK(c.old_thread_remaining_quantum() == -33);
    CHECK(c.old_thread_wait_mode() == 0);
    // Reading the payload from the wrong place (no PMC skip) would misread the counters as thread ids.
    payload_ref const wrong{std::span<std::byte const>(r.bytes).subspan(0x10), 4, 8};
    CHECK(tr::cswitch(wrong).new_thread_id() == 0xF38);
}

TEST_CASE("kernel events: ReadyThread") {
    for (std::uint8_t const p : pointer_sizes) {
        CAPTURE(int{p});
        builder const b = ready_thread_payload(p);
        tr::ready_thread const r(b.ref(2));
        CHECK(r.thread_id() == 0x5678);
        CHECK(r.adjust_reason() == 1);
        CHECK(r.adjust_increment() == -3);
        CHECK(r.flag() == 0x0A);
        CHECK_FALSE(r.executing_dpc());
        CHECK(r.kernel_stack_not_resident());
        CHECK_FALSE(r.process_out_of_memory());
        CHECK(r.direct_switch_attempt());
        check_common_refusals<tr::ready_thread>(b, 2, {0, 1, 3});
        check_truncations<tr::ready_thread>(b, 2);
        CHECK(accepts_longer<tr::ready_thread>(b, 2));
        builder other = ready_thread_payload(p);
        other.bytes[6] = std::byte{0x05};
        CHECK(tr::ready_thread(other.ref(2)).executing_dpc());
        CHECK(tr::ready_thread(other.ref(2)).process_out_of_memory());
        CHECK_FALSE(tr::ready_thread(other.ref(2)).kernel_stack_not_resident());
    }
}

TEST_CASE("kernel events: process events, versions 3 to 5, with and without a SID") {
    for (std::uint8_t const p : pointer_sizes) {
        CAPTURE(int{p});
        for (std::uint8_t const version : u8list{3, 4, 5}) {
            for (bool const with_sid : {true, false}) {
                CAPTURE(int{version});
                CAPTURE(with_sid);
                builder const b = process_payload(p, version, with_sid);
                REQUIRE(tr::process_event::check(b.ref(version)) == layout_fault::none);
                tr::process_event const e(b.ref(version));
                CHECK(e.version() == version);
                CHECK(e.unique_process_key() == addr(p, 3));
                CHECK(e.process_id() == 1000);
                CHECK(e.parent_id() == 900);
                CHECK(e.session_id() == 1);
                CHECK(e.exit_status() == 259);
                CHECK(e.directory_table_base() == addr(p, 4));
                CHECK(e.flags() == (version >= 4 ? 0x20U : 0U));
                if (with_sid) {
                    REQUIRE(e.user_sid().size() == 8 + 4 * 5);
                    CHECK(e.user_sid()[0] == std::byte{1});  // Revision
                    CHECK(e.user_sid()[1] == std::byte{5});  // SubAuthorityCount
                    CHECK(e.user_sid()[7] == std::byte{5});  // SECURITY_NT_AUTHORITY
                    CHECK(e.user_sid()[8] == std::byte{21}); // first sub-authority
                } else {
                    CHECK(e.user_sid().empty());
                }
                CHECK(e.image_file_name() == "Test.x64.exe");
                CHECK(text(e.command_line()) == u"\"C:\\t\\Test.x64.exe\" -v");
                CHECK(text(e.package_full_name()) == (version >= 4 ? u"Pkg_1.0_x64__abc" : u""));
                CHECK(text(e.application_id()) == (version >= 4 ? u"App" : u""));
                CHECK(e.trailing_bytes().size() == (version == 5 ? 8U : 0U));
                check_common_refusals<tr::process_event>(b, version, {0, 1, 2, 6});
                check_truncations<tr::process_event>(b, version,
                                                      version == 5 ? std::vector<std::size_t>{b.size() - 8, b.size() - 7,
                                                                                              b.size() - 6, b.size() - 5,
                                                                                              b.size() - 4, b.size() - 3,
                                                                                              b.size() - 2, b.size() - 1}
                                                                   : std::vector<std::size_t>{});
                CHECK(accepts_longer<tr::process_event>(b, version));
            }
        }
        // The SID's sub-authority count runs past the end.
        builder past(p);
        past.pointer(addr(p, 3)).u32(1000).u32(900).u32(1).i32(259).pointer(addr(p, 4)).u32(0);
        past.pointer(addr(p, 5)).u32(0);
        if (p == 8) past.zeros(4);
        append_sid(past, 2);
        past.bytes[past.size() - 8 - 8 + 1] = std::byte{15}; // claims 15 sub-authorities, 2 present
        past.ansiz("x").utf16z(u"y").utf16z(u"").utf16z(u"");
        CHECK(tr::process_event::check(past.ref(4)) == layout_fault::too_short);
        // No ImageFileName NUL.
        builder open(p);
        open.pointer(1).u32(1).u32(2).u32(3).i32(0).pointer(2).u32(0);
        for (char ch : std::string_view("NoTerminator.exe")) open.u8(static_cast<std::uint8_t>(ch));
        CHECK(tr::process_event::check(open.ref(3)) == layout_fault::bad_string);
        // v4 fields missing from a v3-shaped payload.
        CHECK(tr::process_event::check(process_payload(p, 3, false).ref(4)) != layout_fault::none);
    }
}

TEST_CASE("kernel events: image events, versions 2 and 3") {
    for (std::uint8_t const p : pointer_sizes) {
        CAPTURE(int{p});
        for (std::uint8_t const version : u8list{2, 3}) {
            builder const b = image_payload(p);
            tr::image_event const i(b.ref(version));
            CHECK(i.image_base() == addr(p, 6));
            CHECK(i.image_size() == 0x0010'0000);
            CHECK(i.process_id() == 1000);
            CHECK(i.image_checksum() == 0xC0FFEE);
            CHECK(i.time_date_stamp() == 0x5F00'0000U);
            CHECK(i.signature_level() == 0x0C);
            CHECK(i.signature_type() == 0x01);
            CHECK(i.default_base() == addr(p, 7));
            CHECK(text(i.file_name()) == u"\\Device\\HarddiskVolume2\\Windows\\System32\\ntdll.dll");
            // FileName at 0x38 on x64, 0x2C on x86.
            CHECK(i.file_name().bytes().data() - b.bytes.data() == (p == 8 ? 0x38 : 0x2C));
            check_common_refusals<tr::image_event>(b, version, {0, 1, 4});
            check_truncations<tr::image_event>(b, version);
            CHECK(accepts_longer<tr::image_event>(b, version));
        }
    }
}

TEST_CASE("kernel events: stack walk, stack key references and definitions") {
    for (std::uint8_t const p : pointer_sizes) {
        CAPTURE(int{p});
        builder const b = stack_walk_payload(p, 5);
        tr::stack_walk_event const s(b.ref(2));
        CHECK(s.event_time_stamp() == 1942908431);
        CHECK(s.stack_process() == 1000);
        CHECK(s.stack_thread() == 0x1234);
        REQUIRE(s.frame_count() == 5);
        std::vector<std::uint64_t> seen;
        for (std::uint64_t f : s.frames()) seen.push_back(f);
        for (std::uint32_t i = 0; i < 5; ++i) {
            CHECK(s.frame(i) == addr(p, 20 + i));
            CHECK(seen[i] == addr(p, 20 + i));
        }
        check_common_refusals<tr::stack_walk_event>(b, 2, {0, 1, 3});
        // Shorter by whole frames is a shorter stack; anything else is refused.
        std::vector<std::size_t> whole;
        for (std::size_t n = 0x10; n < b.size(); n += p) whole.push_back(n);
        check_truncations<tr::stack_walk_event>(b, 2, whole);
        builder partial = stack_walk_payload(p, 2);
        partial.zeros(p / 2U);
        CHECK(tr::stack_walk_event::check(partial.ref(2)) == layout_fault::too_short);

        builder const ref = stack_key_reference_payload(p);
        CHECK(ref.size() == 0x10U + p);
        tr::stack_key_reference const k(ref.ref(2));
        CHECK(k.event_time_stamp() == 1942908431);
        CHECK(k.process_id() == 1000);
        CHECK(k.thread_id() == 0x1234);
        CHECK(k.stack_key() == addr(p, 30));
        check_common_refusals<tr::stack_key_reference>(ref, 2, {0, 1, 3});
        check_truncations<tr::stack_key_reference>(ref, 2);
        CHECK(accepts_longer<tr::stack_key_reference>(ref, 2));

        builder const def = stack_key_definition_payload(p, 4);
        tr::stack_key_definition const d(def.ref(2));
        CHECK(d.stack_key() == addr(p, 31));
        REQUIRE(d.frame_count() == 4);
        for (std::uint32_t i = 0; i < 4; ++i) CHECK(d.frame(i) == addr(p, 40 + i));
        check_common_refusals<tr::stack_key_definition>(def, 2, {0, 1, 3});
        std::vector<std::size_t> keyed;
        for (std::size_t n = p; n < def.size(); n += p) keyed.push_back(n);
        check_truncations<tr::stack_key_definition>(def, 2, keyed);
        builder odd = stack_key_definition_payload(p, 1);
        odd.zeros(3);
        CHECK(tr::stack_key_definition::check(odd.ref(2)) == layout_fault::too_short);
    }
    // A 32-bit frame is zero-extended, never sign-extended.
    builder b(4);
    b.u64(1).u32(2).u32(3).u32(0xFFFF'FFF0U);
    CHECK(tr::stack_walk_event(b.ref(2)).frame(0) == 0xFFFF'FFF0ULL);
}

TEST_CASE("kernel events: random payloads never read outside their bytes") {
    // Deterministic noise, for every view, both pointer sizes and the versions around the known ones: a
    // view is built only when check() accepts, and then every accessor is read (ASan watches the reads).
    std::uint64_t state = 0x9E37'79B9'7F4A'7C15ULL;
    auto next = [&state] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    std::size_t accepted = 0;
    for (int round = 0; round < 3000; ++round) {
        std::size_t const size = static_cast<std::size_t>(next() % 200);
        std::vector<std::byte> bytes(size);
        bool const sparse = (round % 2) == 0; // many zero bytes: more NULs, small counts
        for (auto& b : bytes) b = std::byte{static_cast<std::uint8_t>(sparse && next() % 3 != 0 ? 0 : next())};
        for (std::uint8_t const p : pointer_sizes) {
            for (std::uint8_t version = 0; version <= 6; ++version) {
                payload_ref const r{bytes, version, p};
                std::size_t ok = 0;
                ok += check_and_touch<tr::logfile_header>(r) == layout_fault::none;
                ok += check_and_touch<tr::header_extension>(r) == layout_fault::none;
                ok += check_and_touch<tr::rundown_complete>(r) == layout_fault::none;
                ok += check_and_touch<tr::sampled_profile>(r) == layout_fault::none;
                ok += check_and_touch<tr::pmc_counter_profile>(r) == layout_fault::none;
                ok += check_and_touch<tr::pmc_counter_config>(r) == layout_fault::none;
                ok += check_and_touch<tr::sampled_profile_interval>(r) == layout_fault::none;
                ok += check_and_touch<tr::thread_event>(r) == layout_fault::none;
                ok += check_and_touch<tr::cswitch>(r) == layout_fault::none;
                ok += check_and_touch<tr::ready_thread>(r) == layout_fault::none;
                ok += check_and_touch<tr::process_event>(r) == layout_fault::none;
                ok += check_and_touch<tr::image_event>(r) == layout_fault::none;
                ok += check_and_touch<tr::stack_walk_event>(r) == layout_fault::none;
                ok += check_and_touch<tr::stack_key_reference>(r) == layout_fault::none;
                ok += check_and_touch<tr::stack_key_definition>(r) == layout_fault::none;
                accepted += ok;
            }
        }
    }
    CHECK(accepted > 0); // the noise does reach the accessors
}

} // namespace kernel_events_test
