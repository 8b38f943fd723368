// The typed configuration (session/config.hpp): the properties block it builds byte for byte, the rules
// it checks (the same functions as the drop-in StartTrace: session/checks.hpp), at compile time and at run
// time, and the messages describe() gives.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "etwctl/sessions.hpp"
#include "etwctl_test.hpp"

using namespace etwctl;
using namespace std::chrono_literals;

namespace {
std::u16string as_u16(wide_string_view v) { return {v.begin(), v.end()}; }

template <class T>
T field_at(session_properties const& p, std::size_t offset) {
    T v{};
    std::memcpy(&v, reinterpret_cast<unsigned char const*>(&p) + offset, sizeof v);
    return v;
}
} // namespace

// A constant configuration is checked by the compiler: these compile because they break no rule.
constexpr auto real_time_config = session_config::user("etwctl-test").real_time().buffer(buffer_size::kilobytes(64));
static_assert(real_time_config.problem().broken == rule::ok);
static_assert(real_time_config.complete().broken == rule::ok);
constexpr auto kernel_config = session_config::system_logger(u"etwctl-kernel")
                                   .file_circular(u"C:\\traces\\kernel.etl", file_size::megabytes(256))
                                   .enable_flags(0x00000001 | 0x00000002)
                                   .clock(clock_type::qpc);
static_assert(kernel_config.complete().broken == rule::ok);
static_assert((kernel_config.log_file_mode_bits() & log_file_mode::system_logger) != 0);
// The destination may come last: a configuration without one is complete() only once it has one.
constexpr auto no_destination_yet = session_config::user("etwctl-test").buffer(buffer_size::megabytes(1));
static_assert(no_destination_yet.problem().broken == rule::ok);
static_assert(no_destination_yet.complete().broken == rule::session_no_destination);

TEST_CASE("typed config: the block StartTrace receives") {
    auto const config = session_config::user("etwctl-test")
                            .file_sequential(u"trace.etl", file_size::megabytes(100))
                            .real_time()
                            .buffer(buffer_size::kilobytes(256))
                            .buffers(minimum_buffers{8}, maximum_buffers{32})
                            .flush_timer(2s)
                            .clock(clock_type::system_time)
                            .session_guid(guid::from_string("01234567-89ab-cdef-0123-456789abcdef"))
                            .no_per_processor_buffering();
    session_properties p;
    REQUIRE(config.build(p) == rule::ok);
    // Wnode: the whole block's size, TRACED_GUID | VERSIONED_PROPERTIES, the clock, the GUID.
    CHECK(field_at<std::uint32_t>(p, 0x00) == sizeof(session_properties));
    CHECK(field_at<std::uint32_t>(p, 0x2C) == (wnode_flag::traced_guid | wnode_flag::versioned_properties));
    CHECK(field_at<std::uint32_t>(p, 0x28) == 2); // system time
    CHECK(p.properties.wnode.guid == guid::from_string("01234567-89ab-cdef-0123-456789abcdef"));
    // The numeric fields at the SDK's offsets.
    CHECK(field_at<std::uint32_t>(p, 0x30) == 256);
    CHECK(field_at<std::uint32_t>(p, 0x34) == 8);
    CHECK(field_at<std::uint32_t>(p, 0x38) == 32);
    CHECK(field_at<std::uint32_t>(p, 0x3C) == 100); // MB: whole MB need no KB unit
    CHECK(field_at<std::uint32_t>(p, 0x40) ==
          (log_file_mode::sequential | log_file_mode::real_time | log_file_mode::no_per_processor_buffering));
    CHECK(field_at<std::uint32_t>(p, 0x44) == 2);
    // V2: VersionNumber 2, no filters; the names right after the V2 structure, as UTF-16.
    CHECK(p.properties.v2_control == 2);
    CHECK(p.properties.filter_desc_count == 0);
    CHECK(p.properties.logger_name_offset == sizeof(event_trace_properties_v2));
    CHECK(p.properties.log_file_name_offset == sizeof(event_trace_properties_v2) + 2 * 1025);
    CHECK(as_u16(p.name()) == u"etwctl-test");
    CHECK(as_u16(p.log_file()) == u"trace.etl");
    CHECK(field_at<char16_t>(p, p.properties.logger_name_offset + 2 * 11) == u'\0');
}

TEST_CASE("typed config: sizes pick their unit; UTF-8 names become UTF-16") {
    session_properties p;
    // 1536 KB is not whole MB: MaximumFileSize in KB with EVENT_TRACE_USE_KBYTES_FOR_SIZE.
    REQUIRE(session_config::user("a").file_circular("c.etl", file_size::kilobytes(1536)).build(p) == rule::ok);
    CHECK(p.properties.maximum_file_size == 1536);
    CHECK((p.properties.log_file_mode & log_file_mode::use_kbytes_for_size) != 0);
    REQUIRE(session_config::user("a").file_circular("c.etl", file_size::megabytes(2)).build(p) == rule::ok);
    CHECK(p.properties.maximum_file_size == 2);
    CHECK((p.properties.log_file_mode & log_file_mode::use_kbytes_for_size) == 0);
    CHECK(buffer_size::megabytes(1).in_kilobytes() == 1024); // the KB field gets KB, whatever the caller counted in
    // é (U+00E9) and 😀 (U+1F600, a surrogate pair) from UTF-8.
    REQUIRE(session_config::user("caf\xC3\xA9-\xF0\x9F\x98\x80").real_time().build(p) == rule::ok);
    CHECK(as_u16(p.name()) == u"caf\u00E9-\U0001F600");
    // The NT Kernel Logger: its name and SystemTraceControlGuid.
    REQUIRE(session_config::nt_kernel_logger().real_time().build(p) == rule::ok);
    CHECK(as_u16(p.name()) == u"NT Kernel Logger");
    CHECK(p.properties.wnode.guid == session_guids::system_trace_control);
    CHECK((p.properties.log_file_mode & log_file_mode::system_logger) == 0);
}

TEST_CASE("typed config: broken rules at run time, with the rule, the values and the fix") {
    // The same rules as the drop-in StartTrace, reached through the same functions.
    struct bad_case {
        session_config config;
        rule expected;
        char const* message;
    };
    std::string const long_name(1025, 'n');
    std::string const long_path(1025, 'p');
    bad_case const cases[] = {
        {session_config::user("x").file_append("a.etl").real_time(), rule::session_log_file_mode_conflict,
         "session configuration: LogFileMode 0x104 combines EVENT_TRACE_FILE_MODE_APPEND with a mode it excludes "
         "(choose one: real time with a sequential or circular file, buffering without a file, append without real time)"},
        {session_config::user("x").file_circular("a.etl", file_size{}), rule::session_mode_needs_maximum_file_size,
         "session configuration: LogFileMode 0x2: EVENT_TRACE_FILE_MODE_CIRCULAR needs a maximum file size (give "
         "file_size::megabytes(n) with the file)"},
        {session_config::user("x").buffering().file_sequential("a.etl"), rule::session_log_file_mode_conflict,
         "session configuration: LogFileMode 0x401 combines EVENT_TRACE_BUFFERING_MODE with a mode it excludes "
         "(choose one: real time with a sequential or circular file, buffering without a file, append without real time)"},
        {session_config::user("x").real_time().enable_flags(0x10), rule::session_enable_flags_need_system_logger,
         "session configuration: enable flags 0x10 on a user session, where Windows ignores them (start a system "
         "logger: session_config::system_logger(name), or enable providers instead)"},
        {session_config::user(long_name).real_time(), rule::session_name_invalid,
         "session configuration: the session name has 1025 characters; Windows takes 1 to 1024 (give a shorter name)"},
        {session_config::user("").real_time(), rule::session_name_invalid,
         "session configuration: the session name has 0 characters; Windows takes 1 to 1024 (give a shorter name)"},
        {session_config::user("x").file_sequential(long_path), rule::session_log_file_name_too_long,
         "session configuration: the log-file path has 1025 characters; Windows takes at most 1024 (give a shorter path)"},
        {session_config::user("x").real_time().buffer(buffer_size::megabytes(32)), rule::session_buffer_size_out_of_range,
         "session configuration: buffer size 32768 KB; Windows takes 4 to 16384 KB per buffer (buffer_size::kilobytes(n) "
         "or ::megabytes(n) within that range)"},
        {session_config::user("x").real_time().buffer(buffer_size::kilobytes(2)), rule::session_buffer_size_out_of_range,
         "session configuration: buffer size 2 KB; Windows takes 4 to 16384 KB per buffer (buffer_size::kilobytes(n) "
         "or ::megabytes(n) within that range)"},
        {session_config::system_logger("x").file_newfile("a_%d.etl", file_size::megabytes(8)), rule::session_mode_system_logger,
         "session configuration: LogFileMode 0x2000008: a system logger does not take EVENT_TRACE_FILE_MODE_NEWFILE (use a "
         "sequential or circular file, non-paged buffers)"},
        {session_config::user("x").file_newfile("a.etl", file_size::megabytes(8)), rule::session_newfile_needs_percent_d,
         "session configuration: a NEWFILE path must contain exactly one \"%d\" (the file's number), e.g. \"trace_%d.etl\""},
        {session_config::user("x\xC3"), rule::session_text_not_utf8,
         "session configuration: a name or path given as char text is not valid UTF-8 (give it as UTF-8, or as UTF-16: "
         "u\"...\" / L\"...\")"},
        {session_config::user("x").session_guid(session_guids::system_trace_control).real_time(), rule::session_kernel_logger_guid,
         "session configuration: SystemTraceControlGuid belongs to the NT Kernel Logger (use "
         "session_config::nt_kernel_logger(), or another GUID)"},
        {session_config::user("x").buffer(buffer_size::kilobytes(64)), rule::session_no_destination,
         "session configuration: no destination (add real_time(), buffering() or a file_...(path))"},
        {session_config::user("x").file_sequential("a.etl").preallocate(), rule::session_mode_needs_maximum_file_size,
         "session configuration: LogFileMode 0x21: EVENT_TRACE_FILE_MODE_PREALLOCATE needs a maximum file size (give "
         "file_size::megabytes(n) with the file)"},
    };
    for (auto const& c : cases) {
        std::string const expected_message = c.message;
        CAPTURE(expected_message);
        auto const problem = c.config.complete();
        CHECK(info(problem.broken).name == info(c.expected).name);
        std::error_code const ec = config_error(problem);
        CHECK(ec == c.expected);
        CHECK(ec == win32_condition(win32_error_of(c.expected)));
        CHECK(describe(ec) == c.message);
        session_properties p;
        CHECK(c.config.build(p) == c.expected);
    }
    // The first rule broken is kept: a later valid setting does not hide it.
    auto const still_broken = session_config::user("x").file_append("a.etl").real_time().buffer(buffer_size::kilobytes(64));
    CHECK(still_broken.problem().broken == rule::session_log_file_mode_conflict);
}

// A name in a temporary string would dangle: it does not bind (a named string, a literal or a view does).
static_assert(!std::is_constructible_v<session_text, std::string&&>);
static_assert(!std::is_constructible_v<session_text, std::u16string&&>);
static_assert(std::is_constructible_v<session_text, std::string const&>);
static_assert(std::is_constructible_v<session_text, std::string_view>);
static_assert(std::is_constructible_v<session_text, char const (&)[4]>);

TEST_CASE("utf8_from_utf16: names as Windows reports them, sized first, nothing written past the buffer") {
    using etwctl::utf8_from_utf16;
    etwctl::wide_char const text[] = {u'A', 0x00E9, 0x20AC, 0xD83D, 0xDE00, 0xD800, u'z'}; // A é € 😀 (pair), lone high, z
    etwctl::wide_string_view const w(text, 7);
    std::size_t const need = utf8_from_utf16(w, nullptr, 0);
    CHECK(need == 1 + 2 + 3 + 4 + 3 + 1);
    std::string out(need, '\0');
    CHECK(utf8_from_utf16(w, out.data(), out.size()) == need);
    CHECK(out == std::string("A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xED\xA0\x80z"));
    char part[4] = {'#', '#', '#', '#'};
    CHECK(utf8_from_utf16(w, part, 3) == need); // "A" and "é" fit; the euro sign's first byte is the third
    CHECK(part[0] == 'A');
    CHECK(part[3] == '#');
    static constexpr etwctl::wide_char ok[] = {u'o', u'k'};
    static_assert(utf8_from_utf16(etwctl::wide_string_view(ok, 2), nullptr, 0) == 2);
}
