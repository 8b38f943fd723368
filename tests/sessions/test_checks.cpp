// session/checks.hpp: each documented check, at compile time (the typed configuration's use) and at
// run time, with the order etwctl chose where one input breaks several rules.
#include <cstdint>
#include <string_view>

#include "etwctl/session/checks.hpp"
#include "etwctl_test.hpp"

using namespace etwctl;
namespace lfm = etwctl::log_file_mode;

namespace {

// ---- compile time: the typed configuration calls these on constants --------------------------------
static_assert(check_log_file_mode(lfm::real_time, 0, false, false) == rule::ok);
static_assert(check_log_file_mode(lfm::sequential, 0, true, false) == rule::ok);
static_assert(check_log_file_mode(lfm::circular, 100, true, false) == rule::ok);
static_assert(check_log_file_mode(lfm::circular, 0, true, false) == rule::session_mode_needs_maximum_file_size);
static_assert(check_log_file_mode(lfm::sequential | lfm::circular, 100, true, false) == rule::session_log_file_mode_conflict);
static_assert(check_log_file_mode(lfm::append | lfm::real_time, 0, true, false) == rule::session_log_file_mode_conflict);
static_assert(check_log_file_mode(lfm::buffering, 0, true, false) == rule::session_mode_excludes_log_file);
static_assert(check_log_file_mode(lfm::buffering, 0, false, false) == rule::ok);
static_assert(check_log_file_mode(lfm::none, 0, false, false) == rule::session_no_destination);
static_assert(check_log_file_mode(lfm::none, 0, true, false) == rule::ok); // mode 0 + a file: sequential
static_assert(check_log_file_mode(lfm::newfile, 10, true, true) == rule::session_mode_system_logger);
static_assert(check_log_file_mode(lfm::newfile, 10, true, false) == rule::ok);
static_assert(check_log_file_mode(lfm::real_time | lfm::use_paged_memory, 0, false, true) == rule::session_mode_system_logger);
static_assert(check_log_file_mode(lfm::real_time | lfm::use_paged_memory, 0, false, false) == rule::ok);
static_assert(check_log_file_mode(lfm::real_time | lfm::system_logger, 0, false, true) == rule::ok);
static_assert(check_log_file_mode(lfm::relog | lfm::private_logger, 0, true, false) == rule::ok);
static_assert(check_log_file_mode(lfm::relog | lfm::real_time, 0, false, false) == rule::session_mode_needs_private);
static_assert(check_log_file_mode(lfm::compressed | lfm::buffering, 0, false, false) == rule::ok);
static_assert(check_newfile_name(lfm::newfile, std::u16string_view(u"trace_%d.etl")) == rule::ok);
static_assert(check_newfile_name(lfm::newfile, std::string_view("trace_%d.etl")) == rule::ok);
static_assert(check_newfile_name(lfm::newfile, std::u16string_view(u"a%d_%d.etl")) == rule::session_newfile_needs_percent_d);
static_assert(check_newfile_name(lfm::newfile, std::u16string_view(u"a%s.etl")) == rule::session_newfile_needs_percent_d);
static_assert(check_newfile_name(lfm::sequential, std::u16string_view(u"a.etl")) == rule::ok);
static_assert(check_kernel_logger_guid(session_guids::system_trace_control, std::u16string_view(u"nt kernel LOGGER")) == rule::ok);
static_assert(check_kernel_logger_guid(guid{}, std::string_view("anything")) == rule::ok);
static_assert(reserved_session_of_name(std::u16string_view(u"circular kernel context logger")) ==
              reserved_session::circular_kernel_context_logger);
static_assert(reserved_session_of_guid(session_guids::global_logger) == reserved_session::global_logger);
static_assert(session_names_equal(std::u16string_view(u"My Session"), std::string_view("my session")));
static_assert(!session_names_equal(std::u16string_view(u"My Session"), std::string_view("my session ")));

TEST_CASE("every LogFileMode exclusion is refused in either order and names both bits") {
    for (auto const& x : log_file_mode_exclusions) {
        CAPTURE(log_file_mode_name(x.first));
        CAPTURE(log_file_mode_name(x.second));
        CHECK(!log_file_mode_name(x.first).empty());
        CHECK(!log_file_mode_name(x.second).empty());
        // a maximum size and the right destination so that only the pair itself is wrong
        std::uint32_t const mode = x.first | x.second;
        bool const file = (mode & lfm::buffering) == 0;
        auto const f = diagnose_log_file_mode({mode | (file ? 0 : 0U), 100, file, false});
        bool const private_needed = (mode & lfm::relog) != 0;
        if (private_needed) {
            // RELOG is checked for PRIVATE_LOGGER_MODE first; with it, the pair decides
            auto const g = diagnose_log_file_mode({mode | lfm::private_logger, 100, file, false});
            CHECK(g.broken == rule::session_log_file_mode_conflict);
            continue;
        }
        CHECK(f.broken == rule::session_log_file_mode_conflict);
        CHECK(((f.bit == x.first && f.other == x.second) || (f.bit == x.second && f.other == x.first)));
    }
}

TEST_CASE("each mode that needs MaximumFileSize or a file says which bit") {
    for (std::uint32_t bit : {lfm::circular, lfm::newfile, lfm::preallocate, lfm::use_kbytes_for_size}) {
        CAPTURE(log_file_mode_name(bit));
        auto const f = diagnose_log_file_mode({bit, 0, true, false});
        CHECK(f.broken == rule::session_mode_needs_maximum_file_size);
        CHECK(f.bit == bit);
    }
    for (std::uint32_t bit : {lfm::newfile, lfm::preallocate, lfm::use_kbytes_for_size}) {
        CAPTURE(log_file_mode_name(bit));
        auto const f = diagnose_log_file_mode({bit | lfm::real_time, 10, false, false});
        CHECK(f.broken == rule::session_mode_needs_log_file);
        CHECK(f.bit == bit);
    }
}

TEST_CASE("block checks: size, V2 size, offsets, room, flags, V2 filters") {
    CHECK(check_properties_size(0, 0) == rule::session_properties_too_small);
    CHECK(check_properties_size(0x78, wnode_flag::traced_guid) == rule::ok);
    CHECK(check_properties_size(sizeof(event_trace_properties_v2) - 1, wnode_flag::versioned_properties) ==
          rule::session_v2_too_small);
    CHECK(check_properties_size(sizeof(event_trace_properties_v2), wnode_flag::versioned_properties) == rule::ok);
    CHECK(check_name_offsets(0x100, 0, 0) == rule::ok);
    CHECK(check_name_offsets(0x100, 0x78, 0xFF) == rule::ok);
    CHECK(check_name_offsets(0x100, 0x77, 0) == rule::session_name_offset);
    CHECK(check_name_offsets(0x100, 0, 0x100) == rule::session_name_offset);
    CHECK(check_name_offsets(0x100, 0, 1) == rule::session_name_offset);
    // 4 characters + NUL at 0x78: 10 bytes, so 0x82 is exactly enough
    CHECK(check_name_room(0x82, 2, 0x78, 4, 0, true, 0) == rule::ok);
    CHECK(check_name_room(0x81, 2, 0x78, 4, 0, true, 0) == rule::session_name_no_room);
    CHECK(check_name_room(0x7D, 1, 0x78, 4, 0, true, 0) == rule::ok); // CHAR names: 5 bytes
    CHECK(check_name_room(0x100, 2, 0, 1000, 0, true, 0) == rule::ok);  // offset 0: nothing copied
    CHECK(check_name_room(0x100, 2, 0, 4, 0x80, false, 0) == rule::session_name_no_room);
    // the copy of the name would run into the log-file name
    CHECK(check_name_room(0x100, 2, 0x78, 8, 0x80, true, 4) == rule::session_name_no_room);
    CHECK(check_name_room(0x100, 2, 0x78, 3, 0x80, true, 4) == rule::ok);
    CHECK(check_wnode_flags(wnode_flag::traced_guid | wnode_flag::versioned_properties) == rule::ok);
    CHECK(check_wnode_flags(wnode_flag::versioned_properties) == rule::session_wnode_flags);
    CHECK(check_v2_filters(0, 1, false) == rule::ok); // V1: the fields do not exist
    CHECK(check_v2_filters(wnode_flag::versioned_properties, 0, true) == rule::session_v2_filters_mismatch);
    CHECK(check_v2_filters(wnode_flag::versioned_properties, 2, true) == rule::ok);
    CHECK(check_enable_flags_extension(0x00000001U, 0x78) == rule::ok);
    CHECK(check_enable_flags_extension(0x80020078U, 0x80) == rule::ok);  // 2 ULONGs at 0x78
    CHECK(check_enable_flags_extension(0x80020078U, 0x7F) == rule::session_enable_flags_extension);
    CHECK(check_enable_flags_extension(0x80020010U, 0x100) == rule::session_enable_flags_extension);
    CHECK(check_enable_flags_extension(0x80FF0078U, 0x100, 0) == rule::session_enable_flags_extension);
    CHECK(check_enable_flags_extension(0x80FF0078U, 0x100, 4) == rule::ok);
}

start_facts valid_start() {
    start_facts f;
    f.buffer_size = 0x78 + 2 * 11;
    f.wnode_flags = wnode_flag::traced_guid;
    f.log_file_mode = lfm::real_time;
    f.logger_name_offset = 0x78;
    f.name_present = true;
    f.name_length = 10;
    return f;
}

TEST_CASE("check_start: each step, and the documented codes of Wine's observations on Windows") {
    CHECK(check_start(valid_start()) == rule::ok);
    auto f = valid_start();
    f.properties_present = false;
    CHECK(win32_error_of(check_start(f)) == 87);
    f = valid_start();
    f.handle_pointer_present = false;
    CHECK(win32_error_of(check_start(f)) == 87);
    f = valid_start();
    f.buffer_size = 0;
    CHECK(win32_error_of(check_start(f)) == 24); // BufferSize 0 -> ERROR_BAD_LENGTH
    f = valid_start();
    f.name_length = 11; // longer than the space reserved -> ERROR_BAD_LENGTH
    CHECK(win32_error_of(check_start(f)) == 24);
    f = valid_start();
    f.logger_name_offset = 1;
    CHECK(win32_error_of(check_start(f)) == 87);
    f = valid_start();
    f.log_file_mode = lfm::sequential | lfm::circular;
    f.maximum_file_size = 1;
    CHECK(win32_error_of(check_start(f)) == 87);
    f = valid_start();
    f.session_guid = session_guids::system_trace_control;
    f.kernel_logger_guid_ok = false;
    CHECK(win32_error_of(check_start(f)) == 87);
    f = valid_start();
    f.log_file_mode = 0;
    CHECK(win32_error_of(check_start(f)) == 161); // mode NONE, LogFileNameOffset 0 -> ERROR_BAD_PATHNAME
    f = valid_start();
    f.name_present = false;
    CHECK(check_start(f) == rule::session_name_invalid);
    f = valid_start();
    f.name_length = 1025;
    f.buffer_size = 0x78 + 2 * 1026;
    CHECK(check_start(f) == rule::session_name_invalid);
    f = valid_start();
    f.wnode_flags = 0;
    CHECK(check_start(f) == rule::session_wnode_flags);
    // NEWFILE's pattern comes after the mode rules but before "no destination"
    f = valid_start();
    f.log_file_mode = lfm::newfile;
    f.maximum_file_size = 10;
    f.log_file_name_offset = 0x78 + 2 * 11;
    f.buffer_size = f.log_file_name_offset + 2 * 10;
    f.log_file_length = 9;
    f.newfile_pattern_ok = false;
    CHECK(check_start(f) == rule::session_newfile_needs_percent_d);
    f.newfile_pattern_ok = true;
    CHECK(check_start(f) == rule::ok);
    // the NT Kernel Logger by name is a system logger: no NEWFILE
    f.name_reserved = reserved_session::nt_kernel_logger;
    CHECK(check_start(f) == rule::session_mode_system_logger);
}

TEST_CASE("check_control, check_query_all, check_enable") {
    CHECK(check_control(true, 0x78, 0, 0, 0, true, 0, true) == rule::ok); // flags are not required here
    CHECK(check_control(true, 0x78, 0, 0, 0, false, 5, true) == rule::ok);
    CHECK(check_control(true, 0x78, 0, 0, 0, false, 0, true) == rule::session_no_target);
    CHECK(check_control(false, 0x78, 0, 0, 0, true, 0, true) == rule::session_argument_null);
    CHECK(check_control(true, 0x70, 0, 0, 0, true, 0, true) == rule::session_properties_too_small);
    CHECK(check_control(true, 0x78, 0, 0, 0, true, 0, false) == rule::session_kernel_logger_guid);
    CHECK(check_query_all(false, 1, true) == rule::session_argument_null);
    CHECK(check_query_all(true, 1, false) == rule::session_argument_null);
    CHECK(check_query_all(true, 0, true) == rule::session_query_all_count);
    CHECK(check_query_all(true, 64, true) == rule::ok);
    CHECK(check_enable(1, true) == rule::ok);
    CHECK(check_enable(0, true) == rule::session_handle_zero);
    CHECK(check_enable(1, false) == rule::session_argument_null);
}

} // namespace
