// `etwctl list` is generated from the tables: run the list command's own code and compare its output
// with the tables row by row (names, hook ids, values, the xperf column), in text and in JSON.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "etwctl/classes/info_classes.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/names/sources.hpp"

#include "commands/commands.hpp"

namespace {
using namespace etwctl_tool;

struct captured {
    int rc;
    std::string out;
};

captured run_list(std::string const& what, bool json) {
    command_line cl;
    cl.json = json;
    cl.positional = {"list", what};
    context ctx{cl, "list"};
    json_object out;
    std::ostringstream text;
    auto* old = std::cout.rdbuf(text.rdbuf());
    int const rc = cmd_list(ctx, out);
    std::cout.rdbuf(old);
    return {rc, json ? out.text() : text.str()};
}

std::vector<std::string> lines(std::string const& s) {
    std::vector<std::string> v;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
}

std::string first_word(std::string const& line) {
    std::size_t b = line.find_first_not_of(' ');
    std::size_t e = line.find(' ', b);
    return line.substr(b, e == std::string::npos ? std::string::npos : e - b);
}
} // namespace

TEST_CASE("list events: one line per table row, in table order, with hook id and the xperf column") {
    auto const r = run_list("events", false);
    REQUIRE(r.rc == 0);
    auto const l = lines(r.out);
    REQUIRE(l.size() == std::size(etwctl::kernel_event_table<>) + 1); // + the header
    for (std::size_t i = 0; i < std::size(etwctl::kernel_event_table<>); ++i) {
        auto const& e = etwctl::kernel_event_table<>[i];
        CAPTURE(e.name);
        CHECK(first_word(l[i + 1]) == e.name);
        CHECK(l[i + 1].find(hex(e.hook().value, 4)) != std::string::npos);
        // The xperf column (after the 36-wide name, hook, group and flag columns): the name, or "-".
        std::string const& line = l[i + 1];
        if (e.xperf_name) CHECK(line.find(" " + std::string(e.name), 36) != std::string::npos);
        else CHECK((line.find(" - ", 36) != std::string::npos || line.substr(line.size() - 2) == " -"));
    }
    auto const j = run_list("events", true);
    std::size_t at = 0;
    for (auto const& e : etwctl::kernel_event_table<>) {
        std::string const row = "{\"name\":\"" + std::string(e.name) + "\",\"hook\":\"" + hex(e.hook().value, 4) + "\"";
        at = j.out.find(row, at);
        CHECK_MESSAGE(at != std::string::npos, row);
    }
}

TEST_CASE("list flags: xperf flags, the flags without a value, then every PERF_* name") {
    auto const r = run_list("flags", false);
    REQUIRE(r.rc == 0);
    auto const l = lines(r.out);
    std::size_t const n = std::size(etwctl::xperf_kernel_flag_table<>) + std::size(etwctl::xperf_kernel_flag_without_value) +
                          std::size(etwctl::perf_flag_table<>);
    REQUIRE(l.size() == n + 1);
    std::size_t row = 1;
    for (auto const& f : etwctl::xperf_kernel_flag_table<>) CHECK(first_word(l[row++]) == f.name);
    for (auto const& f : etwctl::xperf_kernel_flag_without_value) CHECK(l[row++].find(std::string(f.name)) != std::string::npos);
    for (auto const& f : etwctl::perf_flag_table<>) {
        CHECK(first_word(l[row]) == f.name);
        CHECK(l[row++].find(hex(f.flag.value, 8)) != std::string::npos);
    }
}

TEST_CASE("list groups, sources and classes: one row per table row") {
    auto const g = lines(run_list("groups", false).out);
    REQUIRE(g.size() == std::size(etwctl::xperf_kernel_group_table<>) + 1);
    for (std::size_t i = 0; i < std::size(etwctl::xperf_kernel_group_table<>); ++i) {
        auto const& row = etwctl::xperf_kernel_group_table<>[i];
        CHECK(first_word(g[i + 1]) == row.name);
        CHECK(g[i + 1].find(std::string(row.members)) != std::string::npos);
        CHECK(g[i + 1].find(row.inferred ? "inferred" : "confirmed") != std::string::npos);
    }
    auto const s = lines(run_list("sources", false).out);
    REQUIRE(s.size() == std::size(etwctl::profile_source_table) + 1);
    for (std::size_t i = 0; i < std::size(etwctl::profile_source_table); ++i)
        CHECK(s[i + 1].find(" " + std::string(etwctl::profile_source_table[i].name) + " ") != std::string::npos);
    auto const c = lines(run_list("classes", false).out);
    REQUIRE(c.size() == std::size(etwctl::trace_info_class_table) + 1);
    for (std::size_t i = 0; i < std::size(etwctl::trace_info_class_table); ++i)
        CHECK(c[i + 1].find(std::string(etwctl::trace_info_class_table[i].sdk_name)) != std::string::npos);
}

TEST_CASE("list of something else is a usage error") {
    CHECK(run_list("everything", false).rc == exit_usage);
}
